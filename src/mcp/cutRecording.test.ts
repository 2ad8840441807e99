// Issue 47, item 4, through `ndb mcp`: start_session's answer says when a limit cut the recording
// (where, and that max_events raises it), the exit says it again, and "may not terminate" is said
// only of a loop whose state came back.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMcp, type McpTestClient } from '../testing/mcpClient';

const FINITE = 'total = 0\nfor i in range(20000):\n    total += i\nprint("total", total)\n';
const SPIN = 'def spin():\n    x = 1\n    while x > 0:\n        pass\n\nspin()\n';

let mcp: McpTestClient;

beforeAll(async () => {
  mcp = await startMcp();
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

describe('ndb mcp: a recording a limit cut', () => {
  it('a finite loop: said at the start and at the exit, with max_events; with a budget that fits, nothing is said', async () => {
    const started = await mcp.ok('start_session', { code: FINITE });
    expect(started.note).toContain('The recording was cut at 10,000 events (the event budget)');
    expect(started.note).toContain("raise start_session's max_events (up to 1,000,000 events)");
    expect(started.note).not.toContain('terminate');
    const session = started.session as string;
    const { state } = await mcp.ok('step', { session, action: 'continue' });
    expect(state).toMatchObject({ event: 'exit', status: 'budget' });
    const message = (state as { message: string }).message;
    expect(message).toMatch(/^The recording was cut at 10,000 events/);
    expect(started.note).toContain(message); // (the note may add that the start waited for an engine)
    await mcp.ok('end_session', { session });

    const whole = await mcp.ok('start_session', { code: FINITE, max_events: 100_000 });
    expect(String(whole.note ?? '')).not.toContain('cut');
    const end = await mcp.ok('step', { session: whole.session, action: 'continue' });
    expect(end.state).toMatchObject({ event: 'exit', status: 'normal' });
    await mcp.ok('end_session', { session: whole.session });
  }, 120_000);

  it('a loop whose state comes back: may not terminate', async () => {
    const started = await mcp.ok('start_session', { code: SPIN, max_events: 500 });
    expect(started.note).toContain('The recording was cut at 500 events');
    expect(started.note).toContain('may not terminate');
    await mcp.ok('end_session', { session: started.session });
  }, 120_000);
});
