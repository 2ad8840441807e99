// What every tool of `ndb mcp` shares: its dependencies, the answer (the same JSON as
// structuredContent and as text, never over MAX_RESULT_CHARS), errors the client can act on, the
// argument schemas an agent reads (actions, sessions), and a stop as the agent sees it.

import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ShapeOutput } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { ActionSyntaxError, MOVE_ALIASES, MOVE_KINDS, type MoveStep } from '../core/actions';
import { EditError } from '../core/whatIf';
import { logLine } from '../util/stdio';
import type { PythonHost } from '../realEngine/pythonHost';
import { ModelUnavailable } from '../session/liveModel';
import { SessionError, type LiveModel, type LiveSession } from '../session/liveSession';
import { ProgramError } from '../session/programSession';
import { SessionRegistry, ToolError } from './sessions';
import { mcpCutNotice } from './limitOptions';

export { ToolError };

/** No answer is longer than this (characters of its JSON); longer values are cut, and
 * `truncated` says so. */
export const MAX_RESULT_CHARS = 100_000;
/** A state's new output is cut to this; the `output` tool pages through all of it. */
export const MAX_STATE_OUTPUT = 8_000;

export interface ToolDeps {
  host: () => Promise<PythonHost>;
  model: () => Promise<LiveModel>;
  registry: SessionRegistry;
  /** Folders `start_session`'s `path` may read from (the working directory by default). */
  roots: readonly string[];
}

export type Json = Record<string, unknown>;

/** Errors the client caused or can act on: their message is the answer. */
const EXPECTED = [ToolError, ProgramError, SessionError, EditError, ActionSyntaxError, ModelUnavailable];

export function ok(result: Json): CallToolResult {
  const fitted = fitResult(result, MAX_RESULT_CHARS);
  return { structuredContent: fitted, content: [{ type: 'text', text: JSON.stringify(fitted) }] };
}

export function failure(err: unknown, tool: string): CallToolResult {
  const message = err instanceof Error ? err.message : String(err);
  if (!EXPECTED.some((kind) => err instanceof kind)) logLine(`${tool} failed: ${err instanceof Error ? (err.stack ?? message) : message}`);
  return { isError: true, content: [{ type: 'text', text: message.length > 2_000 ? `${message.slice(0, 2_000)}…` : message }] };
}

/** The result cut until its JSON fits `cap`: its longest strings halved, then again; where no
 * string is long enough to matter (a page of many small events, a deep stack), its longest lists
 * and then its largest objects keep their first half. `truncated` marks a result that was cut. */
export function fitResult(result: Json, cap: number): Json {
  if (JSON.stringify(result).length <= cap) return result;
  const copy = structuredClone(result) as Json;
  for (let round = 0; round < 100 && JSON.stringify(copy).length > cap; round++) {
    const strings: { holder: Record<string | number, unknown>; key: string | number; length: number }[] = [];
    const lists: unknown[][] = [];
    const objects: Record<string, unknown>[] = [];
    const walk = (node: unknown): void => {
      if (node === null || typeof node !== 'object') return;
      if (Array.isArray(node)) lists.push(node);
      else if (node !== copy) objects.push(node as Record<string, unknown>);
      for (const [k, v] of Object.entries(node)) {
        if (typeof v === 'string') strings.push({ holder: node as Record<string | number, unknown>, key: Array.isArray(node) ? Number(k) : k, length: v.length });
        else walk(v);
      }
    };
    walk(copy);
    const longest = Math.max(0, ...strings.map((l) => l.length));
    const longestList = Math.max(0, ...lists.map((l) => l.length));
    const largestObject = Math.max(0, ...objects.map((o) => Object.keys(o).length));
    if (longest >= 256 || (longestList < 2 && largestObject < 2 && longest >= 16)) {
      for (const leaf of strings.filter((l) => l.length >= longest / 2)) {
        const text = leaf.holder[leaf.key] as string;
        leaf.holder[leaf.key] = `${text.slice(0, Math.floor(text.length / 2))}… (cut)`;
      }
    } else if (longestList >= 2) {
      for (const list of lists.filter((l) => l.length >= longestList / 2)) list.length = Math.ceil(list.length / 2);
    } else if (largestObject >= 2) {
      for (const object of objects.filter((o) => Object.keys(o).length >= largestObject / 2)) {
        const keys = Object.keys(object);
        for (const key of keys.slice(Math.ceil(keys.length / 2))) delete object[key];
      }
    } else break;
  }
  copy.truncated = true;
  return copy;
}

/** What a tool says of itself: every argument described, the answer's fields declared, and
 * whether it changes anything (annotations). */
export interface ToolConfig<S extends z.ZodRawShape = z.ZodRawShape> {
  title: string;
  description: string;
  inputSchema: S;
  outputSchema: z.ZodRawShape;
  annotations: { title?: string; readOnlyHint: boolean; destructiveHint: boolean; idempotentHint?: boolean; openWorldHint: boolean };
}

/** Registers a tool whose requests on one session run one after another (sessions do not wait
 * for each other). */
export function tool<S extends z.ZodRawShape>(
  server: McpServer,
  deps: ToolDeps,
  name: string,
  config: ToolConfig<S>,
  run: (args: z.infer<z.ZodObject<S>>) => Promise<Json>,
): void {
  type Args = z.infer<z.ZodObject<S>>;
  // Each tool's `run` is typed by its own schema (a tool's annotation of its arguments is checked
  // against it). The SDK parses the arguments with that same `inputSchema` before the handler
  // runs, but its callback type is a conditional type that a generic shape leaves unresolved: the
  // handler is registered for the general shape and reads the parsed arguments as this one's.
  const handler = (parsed: ShapeOutput<z.ZodRawShape>): Promise<CallToolResult> => {
    const args = parsed as Args;
    const session = 'session' in args && typeof args.session === 'string' ? args.session : '';
    return deps.registry.serial(async () => {
      try {
        return ok(await run(args));
      } catch (err) {
        return failure(err, name);
      }
    }, session);
  };
  const general: ToolConfig = config;
  server.registerTool<z.ZodRawShape, z.ZodRawShape>(name, general, handler);
}

export const sessionArg = z.string().max(100).describe('Session id from start_session');

const MOVES = MOVE_KINDS as readonly string[] as [string, ...string[]];
/** What pdb, DAP or a person may call a move (core/actions.ts, one table for every face). */
const ALIASES = Object.keys(MOVE_ALIASES) as [string, ...string[]];

// The moves are said in words, not as a schema of every name (MOVES, ALIASES): the tool list is
// read at every listing (issue 47), and each tool checks its action itself (core/actions.ts).
export const ACTIONS_HELP =
  `${MOVES.filter((m) => !m.startsWith('inv_')).join(', ')}, breakpoint:LINE (run to LINE once); back: ${MOVES.filter((m) => m.startsWith('inv_')).join(', ')} ` +
  `(inv_step_call: to this call, its arguments; inv_continue: to the last breakpoint stop, else the start); also pdb's ${ALIASES.filter((a) => a.length <= 2).join(', ')}.`;

export const actionArg = z.string().min(1).max(200).describe(ACTIONS_HELP);

export const stepArg = z
  .string()
  .min(1)
  .max(10_000)
  .describe(`${ACTIONS_HELP} Or set:NAME=EXPR: what-if, assign a local here and run again from it.`);

/** A `breakpoint:L` on a line without code would silently run to the end: refused instead. */
export async function checkTarget(host: PythonHost, live: LiveSession, action: MoveStep): Promise<void> {
  if (action.kind !== 'breakpoint') return;
  const info = await host.codeLines(live.source);
  if ('lines' in info && !info.lines.includes(action.line)) {
    throw new ToolError(`line ${action.line} has no code, so breakpoint:${action.line} could never stop there (lines with code: ${summarizeLines(info.lines)})`);
  }
}

export function summarizeLines(lines: readonly number[]): string {
  const shown = lines.slice(0, 40).join(', ');
  return lines.length > 40 ? `${shown}, …` : shown;
}

/** A stop as the agent sees it: the state of the session's engine, with only the output written
 * since the last answer (`stdout`, cut to MAX_STATE_OUTPUT) and the whole output's length
 * (`stdout_length`): a long run's output is not repeated at every step. `stderr` (warnings,
 * logging) likewise, once there is any. */
export function presentState(deps: ToolDeps, id: string, live: LiveSession): Json {
  const state = structuredClone(live.cliState()) as Json;
  // the end of a recording a limit cut says where, and why or how to raise it (not the tracer's words)
  const cutNotice = live.engine !== 'neural' && live.state.event === 'exit' ? mcpCutNotice(live) : null;
  if (cutNotice) for (const part of [state, state.real]) if (part && typeof part === 'object' && (part as Json).event === 'exit') (part as Json).message = cutNotice;
  const stdout = 'stdout' in live.state ? live.state.stdout : '';
  for (const part of [state, state.real, state.neural]) if (part && typeof part === 'object') delete (part as Json).stdout;
  const cut = (text: string) => (text.length > MAX_STATE_OUTPUT ? `${text.slice(0, MAX_STATE_OUTPUT)}… (cut: the output tool pages through it)` : text);
  const { output, length } = deps.registry.newOutput(id, stdout);
  state.stdout = cut(output);
  state.stdout_length = length;
  const errors = deps.registry.newOutput(id, stderrAt(live), 'stderr');
  if (errors.length > 0) {
    state.stderr = cut(errors.output);
    state.stderr_length = errors.length;
  }
  return state;
}

/** What the program wrote to stderr (warnings, logging) by the current stop. */
export function stderrAt(live: LiveSession, atEnd = false): string {
  const rec = live.recording;
  const all = rec.stderr ?? '';
  const pos = live.position;
  if (atEnd || pos >= rec.events.length) return all;
  return pos < 0 ? '' : all.slice(0, rec.events[pos]!.err ?? 0);
}
