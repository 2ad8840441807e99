// A DAP launch's budget (issue 47): `maxEvents` and `timeout` in launch.json bound the run as
// MCP's max_events and timeout_s do; a 20,000-iteration loop ends at the default budget (said on
// the console at the launch, naming "maxEvents") and runs to its end with a larger one.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { afterEach, describe, expect, it } from 'vitest';
import { act, dapClient, launch } from '../testing/dapClient';

let dc: DebugClient | undefined;
afterEach(async () => {
  await dc?.stop();
  dc = undefined;
});

async function runToEnd(args: Record<string, unknown>): Promise<string> {
  return (await runAndSee(args)).all;
}

/** The console's output up to the first stop, and all of it by the end. */
async function runAndSee(args: Record<string, unknown>): Promise<{ first: string; all: string }> {
  dc = dapClient();
  await dc.start();
  const client = dc;
  const output: string[] = [];
  client.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
  let event = (await launch(client, { stopOnEntry: true, ...args })).first;
  const first = output.join('');
  while (event.event === 'stopped') event = await act(client, () => client.continueRequest({ threadId: 1 }));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return { first, all: output.join('') };
}

describe('ndb dap budgets', () => {
  it('runs a long loop to its end with a larger maxEvents, and is cut at the default budget without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-dap-budget-'));
    const program = join(dir, 'loop.py');
    writeFileSync(program, 'total = 0\nfor i in range(20000):\n    total += i\nprint("total", total)\n');
    expect(await runToEnd({ program, maxEvents: 100_000 })).toContain('total 199990000');
    const cut = await runAndSee({ program });
    expect(cut.all).not.toContain('total 199990000');
    // said at the launch, before the first stop, and again at the end; never "may not terminate"
    expect(cut.first).toContain('ndb: The recording was cut at 10,000 events (the event budget)');
    expect(cut.first).toContain('raise "maxEvents" in launch.json (up to 1,000,000 events)');
    expect(cut.all.split('The recording was cut at 10,000 events')).toHaveLength(3);
    expect(cut.all).not.toContain('terminate');
  }, 180_000);

  it('says "may not terminate" only of a loop whose state comes back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-dap-budget-'));
    const program = join(dir, 'spin.py');
    writeFileSync(program, 'def spin():\n    x = 1\n    while x > 0:\n        pass\n\nspin()\n');
    const { first } = await runAndSee({ program, maxEvents: 500 });
    expect(first).toContain('The recording was cut at 500 events');
    expect(first).toContain('may not terminate');
  }, 180_000);
});
