// A DAP launch's budget (issue 47): `maxEvents` and `timeout` in launch.json bound the run as
// MCP's max_events and timeout_s do; a 20,000-iteration loop ends at the default budget and runs
// to its end with a larger one.

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
  dc = dapClient();
  await dc.start();
  const client = dc;
  const output: string[] = [];
  client.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
  let event = (await launch(client, args)).first;
  while (event.event === 'stopped') event = await act(client, () => client.continueRequest({ threadId: 1 }));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return output.join('');
}

describe('ndb dap budgets', () => {
  it('runs a long loop to its end with a larger maxEvents, and is cut at the default budget without one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ndb-dap-budget-'));
    const program = join(dir, 'loop.py');
    writeFileSync(program, 'total = 0\nfor i in range(20000):\n    total += i\nprint("total", total)\n');
    expect(await runToEnd({ program, maxEvents: 100_000 })).toContain('total 199990000');
    const cut = await runToEnd({ program });
    expect(cut).not.toContain('total 199990000');
    expect(cut).toMatch(/10000 events/);
  }, 180_000);
});
