// `ndb dap` as VS Code drives it on real projects (issue 47, item 5): Uncaught Exceptions on by
// default, a cut output said where it is cut, exception stops reported as such in every path, an
// immediate disconnect after a failed launch, and input() given by launch.json's `stdin`.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { act, dapClient, launch } from '../testing/dapClient';

const MAIN = join(REPO_ROOT, 'fixtures/project/shop/main.py');

let dc: DebugClient | undefined;
afterEach(async () => {
  await dc?.stop();
  dc = undefined;
});

function program(name: string, source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'ndb-dap-'));
  const path = join(dir, name);
  writeFileSync(path, source);
  return path;
}

function outputs(client: DebugClient): DebugProtocol.OutputEvent['body'][] {
  const seen: DebugProtocol.OutputEvent['body'][] = [];
  client.on('output', (e: DebugProtocol.OutputEvent) => seen.push(e.body));
  return seen;
}

describe('ndb dap, round two', () => {
  it('Uncaught Exceptions is on by default: a crash stops where it was raised, with reason exception in every path', async () => {
    dc = dapClient();
    await dc.start();
    const { first, capabilities } = await launch(dc, { program: MAIN, args: ['bad_code.json'] });
    expect(capabilities.exceptionBreakpointFilters?.find((f) => f.filter === 'uncaught')?.default).toBe(true);
    expect(first.event).toBe('stopped');
    expect(first.body).toMatchObject({ reason: 'exception', text: "KeyError('NOPE')", description: "Exception raised: KeyError('NOPE')" });
    const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    expect([frames[0]!.source!.name, frames[0]!.line]).toEqual(['pricing.py', 12]);
    // back one step, then into the raise again; reverse continue from past it
    expect((await act(dc, () => dc!.stepBackRequest({ threadId: 1 }))).body.reason).toBe('step');
    expect((await act(dc, () => dc!.stepInRequest({ threadId: 1 }))).body).toMatchObject({ reason: 'exception', text: "KeyError('NOPE')" });
    expect((await act(dc, () => dc!.stepInRequest({ threadId: 1 }))).body.reason).toBe('step');
    expect((await act(dc, () => dc!.stepBackRequest({ threadId: 1 }))).body.reason).toBe('exception');
    const end = await act(dc, () => dc!.continueRequest({ threadId: 1 }));
    expect(end.event).toBe('terminated');
  }, 120_000);

  it('says once where the output is cut at 100,000 characters', async () => {
    dc = dapClient();
    await dc.start();
    const seen = outputs(dc);
    const path = program('loud.py', 'print("x" * 60000)\nprint("y" * 60000)\ndone = 1\n');
    const { first } = await launch(dc, { program: path, stopOnEntry: true });
    expect(first.event).toBe('stopped');
    await act(dc, () => dc!.continueRequest({ threadId: 1 }));
    const notices = seen.filter((o) => o.output.includes('is not shown'));
    expect(notices.map((o) => o.output.trim())).toEqual(["ndb: the program's output past 100,000 characters is not shown (120,002 characters in all)"]);
    expect(seen.filter((o) => o.category === 'stdout').map((o) => o.output).join('').length).toBe(100_000);
  }, 120_000);

  it('disconnect after a failed launch answers at once', async () => {
    dc = dapClient();
    await dc.start();
    await dc.initializeRequest();
    await expect(dc.launchRequest({ program: join(REPO_ROOT, 'fixtures/no/such/file.py') } as DebugProtocol.LaunchRequestArguments)).rejects.toThrow(/cannot read/);
    const t0 = Date.now();
    await dc.disconnectRequest({});
    expect(Date.now() - t0).toBeLessThan(3000);
    dc = undefined;
  }, 120_000);

  it('input() reads launch.json\'s "stdin"; without it the error names that argument', async () => {
    dc = dapClient();
    await dc.start();
    const seen = outputs(dc);
    const path = program('ask.py', 'name = input("name? ")\nprint("hello", name)\n');
    const { first } = await launch(dc, { program: path, stdin: 'Ada\n' });
    expect(first.event).toBe('terminated');
    expect(seen.filter((o) => o.category === 'stdout').map((o) => o.output).join('')).toBe('name? Ada\nhello Ada\n');
    await dc.stop();

    dc = dapClient();
    await dc.start();
    const again = outputs(dc);
    const stop = (await launch(dc, { program: path })).first;
    expect(stop.body.reason).toBe('exception');
    expect(stop.body.text).toContain('launch.json\'s "stdin"');
    expect(stop.body.text).not.toContain('MCP');
    await act(dc, () => dc!.continueRequest({ threadId: 1 }));
    const stderr = again.filter((o) => o.category === 'stderr').map((o) => o.output).join('');
    expect(stderr).toContain('launch.json\'s "stdin"');
    expect(stderr).not.toContain('Input field');
    await expect(dc.launchRequest({ program: path, stdin: 3 } as unknown as DebugProtocol.LaunchRequestArguments)).rejects.toThrow();
  }, 120_000);
});
