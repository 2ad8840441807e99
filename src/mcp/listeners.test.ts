// Issue 47, item 6: `MaxListenersExceededWarning` after ~6 sessions. Each engine process once
// piped its stdout and stderr into this process's stderr (`child.stdout.pipe(…).pipe(process.stderr)`),
// which left a set of listeners on process.stderr per engine, never removed: past 10 a warning,
// and a leak for as long as the server ran. Engines now write their output through a bounded
// budget (engineChild.ts), adding nothing to this process's streams. This test runs the MCP
// tools in this process, over the engine pool `ndb mcp` uses, and checks that ten sessions in a
// row (each started, stepped, evaluated and ended, each in an engine process of its own), and as
// many sessions as a client may hold at once, leave no listener on the process or its standard
// streams, and no warning.

import { afterAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { EventEmitter } from 'node:events';
import { ProcessPool } from '../realEngine/node/processPool';
import type { LiveModel } from '../session/liveSession';
import { LOOP_LINE, writeSmallerProject } from '../testing/smallerPrograms';
import { MAX_SESSIONS, SessionRegistry } from './sessions';
import { registerTools } from './tools';

const project = writeSmallerProject();
const pool = new ProcessPool({ max: 4 });

afterAll(async () => {
  await pool.close();
});

/** Every listener on the process and its standard streams, by emitter and event. */
function listeners(): Record<string, number> {
  const emitters: Record<string, EventEmitter> = { process, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  const counts: Record<string, number> = {};
  for (const [name, emitter] of Object.entries(emitters)) {
    for (const event of emitter.eventNames()) counts[`${name}.${String(event)}`] = emitter.listenerCount(event);
  }
  return counts;
}

async function connect(): Promise<Client> {
  const server = new McpServer({ name: 'ndb', version: 'test' });
  registerTools(server, {
    host: async () => pool,
    model: () => Promise.reject(new Error('no model in this test')) as Promise<LiveModel>,
    registry: new SessionRegistry(),
    roots: [project.folder],
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'listeners-test', version: '0.0.0' });
  await client.connect(clientSide);
  return client;
}

type Result = { isError?: boolean; structuredContent?: Record<string, unknown>; content: Array<{ text?: string }> };

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as Result;
  expect(result.isError, `${name}: ${result.content[0]?.text}`).toBeFalsy();
  return result.structuredContent!;
}

/** A session started, stepped to its breakpoint and evaluated there; ended unless `keep`. */
async function oneSession(client: Client, keep = false): Promise<string> {
  const { session } = (await call(client, 'start_session', { path: project.main, breakpoints: [{ file: 'pricing.py', line: LOOP_LINE }] })) as { session: string };
  expect((await call(client, 'step', { session, action: 'continue' })).state).toMatchObject({ line: LOOP_LINE });
  expect((await call(client, 'evaluate', { session, expression: 's + x' })).value).toBe('3');
  if (!keep) await call(client, 'end_session', { session });
  return session;
}

describe('ndb mcp over its engine pool', () => {
  it('adds no listener to the process or its streams, session after session', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
    process.on('warning', onWarning);
    try {
      const client = await connect();
      // the first session loads what stays for the process's life (the engine module's exit hook)
      await oneSession(client);
      const before = listeners();
      for (let i = 0; i < 10; i++) await oneSession(client);
      expect(listeners()).toEqual(before);
      expect(pool.size).toBeLessThanOrEqual(4);
      // sessions held at once (their engines alive) add none either
      const held: string[] = [];
      for (let i = 0; i < MAX_SESSIONS; i++) held.push(await oneSession(client, true));
      expect(listeners()).toEqual(before);
      for (const session of held) await call(client, 'end_session', { session });
      await client.close();
      expect(warnings.filter((w) => /MaxListeners|memory leak/i.test(w))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  }, 300_000);
});
