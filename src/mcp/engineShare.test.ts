// `ndb mcp` with sessions that a hostile or a busy client holds at once (issue 44): what a
// program writes straight to file descriptors 1 and 2 reaches the server's stderr (where clients
// keep their logs) only up to a bound per request, and eight sessions that evaluate at the same
// moment are each served, none ended by another's request.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_OUTPUT_BYTES } from '../realEngine/node/outputBudget';
import { startMcp, type McpTestClient } from '../testing/mcpClient';

let mcp: McpTestClient;

beforeAll(async () => {
  mcp = await startMcp();
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

const stderrBytes = () => mcp.stderr.reduce((n, chunk) => n + Buffer.byteLength(chunk), 0);

describe('ndb mcp under a flood and a crowd', () => {
  it('passes a bounded amount of a program\'s fd 1 and 2 writes to its stderr per request, and says so', async () => {
    const before = stderrBytes();
    const flood = 'import os\nfor _ in range(40):\n    os.write(2, b"x" * 99_999 + b"\\n")\n    os.write(1, b"y" * 99_999 + b"\\n")\nn = 1\n';
    const started = await mcp.ok('start_session', { code: flood });
    const session = started.session as string;
    await mcp.ok('step', { session, action: 'continue' });
    await mcp.ok('step', { session, action: 'inv_step_into' });
    await mcp.call('evaluate', { session, expression: 'n' });
    await mcp.ok('end_session', { session });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // 8 MB written by the program in each of its runs (the start, the evaluate's re-run)
    const passed = stderrBytes() - before;
    expect(passed).toBeLessThan(3 * (ENGINE_OUTPUT_BYTES + 400));
    expect(mcp.stderr.join('')).toMatch(/more than 64 KB straight to file descriptors 1 and 2/);
  }, 120_000);

  it('serves eight sessions that start and evaluate at the same moment, none ended by another', async () => {
    const code = 'def f(k):\n    total = k * 2\n    return total\n';
    const starts = await Promise.all(Array.from({ length: 8 }, (_, i) => mcp.call('start_session', { code, call: `f(${i})`, breakpoints: [{ line: 3 }] })));
    for (const s of starts) expect(s.isError, s.content[0]?.text).toBeFalsy();
    const sessions = starts.map((s) => s.structuredContent!.session as string);
    await Promise.all(sessions.map((session) => mcp.ok('step', { session, action: 'continue' })));
    const values = await Promise.all(sessions.map((session) => mcp.call('evaluate', { session, expression: 'total + 1' })));
    expect(values.map((v) => (v.isError ? v.content[0]!.text : (v.structuredContent as { value: string }).value))).toEqual(
      Array.from({ length: 8 }, (_, i) => String(i * 2 + 1)),
    );
    await Promise.all(sessions.map((session) => mcp.ok('end_session', { session })));
    expect(mcp.stderr.join('')).not.toMatch(/MaxListenersExceededWarning/);
  }, 300_000);
});
