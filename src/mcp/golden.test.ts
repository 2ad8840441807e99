// Golden answers of `ndb mcp`: a session over the project of two files (fixtures/project/shop)
// driven tool by tool, each tool's structured answer compared with fixtures/mcp/shop.json, so that
// a change of what an agent reads (a field, a value, its order) shows in review. The session id and
// what differs by machine (the repository's folder, a wait for an engine) are replaced by
// placeholders. Regenerate on purpose: NDB_UPDATE_MCP=1 npx vitest run src/mcp/golden.test.ts

import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { startMcp, type McpTestClient } from '../testing/mcpClient';

const DIR = join(REPO_ROOT, 'fixtures/mcp');
const MAIN = join(REPO_ROOT, 'fixtures/project/shop/main.py');
const UPDATE = process.env.NDB_UPDATE_MCP === '1';

type Json = Record<string, unknown>;
type Call = { tool: string; arguments: Json; answer: Json };

let mcp: McpTestClient;

beforeAll(async () => {
  mcp = await startMcp();
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

/** The calls as a fixture says them: the session id, the repository's folder and times replaced;
 * a start that waited for an engine (a loaded machine, a cold start) says so in `note`, left out. */
function normalized(calls: Call[], session: string): Call[] {
  const waited = 'ndb was waiting for an engine \\(\\d+ s\\) before this session started';
  for (const c of calls) {
    if (typeof c.answer.note !== 'string') continue;
    const note = c.answer.note.replace(new RegExp(`^${waited}$| \\(${waited}\\.\\)$`), '');
    if (note) c.answer.note = note;
    else delete c.answer.note;
  }
  let text = JSON.stringify(calls);
  text = text.split(JSON.stringify(REPO_ROOT.replace(/\/$/, '')).slice(1, -1)).join('<repo>');
  text = text.split(JSON.stringify(session)).join('"<session>"');
  return JSON.parse(text, (key, value: unknown) => (key === 'timestamp' || key.endsWith('Ms') || key.endsWith('_ms') ? '<time>' : value)) as Call[];
}

describe('ndb mcp golden answers (fixtures/mcp)', () => {
  it('shop: every tool answers what it answered when the fixture was recorded', async () => {
    const calls: Call[] = [];
    const ok = async (tool: string, args: Json): Promise<Json> => {
      const answer = await mcp.ok(tool, args);
      calls.push({ tool, arguments: structuredClone(args), answer: structuredClone(answer) });
      return answer;
    };
    const started = await ok('start_session', { path: MAIN, argv: ['order.json'], breakpoints: [{ file: 'pricing.py', line: 7 }] });
    const session = started.session as string;
    const s = { session };
    // to the breakpoint in pricing.py (the first line's total)
    await ok('step', { ...s, action: 'continue' });
    await ok('stack', s);
    await ok('evaluate', { ...s, expression: 'price * item["qty"]' });
    await ok('evaluate', { ...s, expression: 'DISCOUNTS' });
    // the caller's frame, in main.py
    await ok('evaluate', { ...s, expression: 'order["code"]', frame: 1 });
    // line_total's events, both calls
    await ok('trace', { ...s, file: 'pricing.py', function: 'line_total' });
    // pdb's `return`: line_total's return, then main.py's loop
    await ok('step', { ...s, action: 'step_return' });
    await ok('step', { ...s, action: 'step_return' });
    await ok('stack', s);
    // the breakpoint again (the second line), then the end
    await ok('step', { ...s, action: 'continue' });
    await ok('step', { ...s, action: 'continue' });
    await ok('end_session', s);

    const golden = normalized(calls, session);
    const text = JSON.stringify(golden);
    // nothing of this machine is left: its folders, a temporary folder, the home folder
    for (const place of [REPO_ROOT, tmpdir(), homedir()].filter((p) => p.length > 1)) expect(text).not.toContain(place);

    const file = join(DIR, 'shop.json');
    if (UPDATE) {
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, `${JSON.stringify(golden, null, 1)}\n`);
    }
    // a missing fixture fails: it is recorded on purpose, never made up by the run it checks
    expect(existsSync(file), `${file} is missing: NDB_UPDATE_MCP=1 records it`).toBe(true);
    expect(golden).toEqual(JSON.parse(readFileSync(file, 'utf8')));
  }, 180_000);
});
