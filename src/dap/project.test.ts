// `ndb dap` on a project of several files (fixtures/project/shop), driven as VS Code drives it:
// breakpoints set per source in two files, `args` as its argv, its data file read, every stop's
// frame in the file it is in (checked against CPython's bdb), and reverse continue back over the
// same stops.

import { join } from 'node:path';
import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { readProject } from '../session/projectFiles';
import { act, dapClient, launch, nextStop } from '../testing/dapClient';
import { makeLinkTrap, SECRET } from '../testing/linkTrap';
import { projectBdb } from '../testing/oracle';

const FOLDER = join(REPO_ROOT, 'fixtures/project/shop');
const MAIN = join(FOLDER, 'main.py');
const PRICING = join(FOLDER, 'pricing.py');

let dc: DebugClient | undefined;
afterEach(async () => {
  await dc?.stop();
  dc = undefined;
});

async function top(client: DebugClient): Promise<{ path: string; line: number; name: string; frames: DebugProtocol.StackFrame[] }> {
  const frames = (await client.stackTraceRequest({ threadId: 1 })).body.stackFrames;
  return { path: frames[0]!.source!.path!, line: frames[0]!.line, name: frames[0]!.name, frames };
}

describe('ndb dap on a project', () => {
  it('stops at breakpoints of both files where bdb stops, and goes back over them with reverseContinue', async () => {
    dc = dapClient();
    await dc.start();
    const client = dc;
    const output: string[] = [];
    client.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    const initialized = client.waitForEvent('initialized');
    await client.initializeRequest();
    const first = nextStop(client);
    const [, [inMain, inPricing, outside]] = await Promise.all([
      client.launchRequest({ program: MAIN, args: ['order.json'] } as DebugProtocol.LaunchRequestArguments),
      initialized.then(async () => {
        const answers = [
          await client.setBreakpointsRequest({ source: { path: MAIN }, breakpoints: [{ line: 17 }] }),
          await client.setBreakpointsRequest({ source: { path: PRICING }, breakpoints: [{ line: 6 }, { line: 4 }] }),
          await client.setBreakpointsRequest({ source: { path: join(REPO_ROOT, 'fixtures/project/elsewhere.py') }, breakpoints: [{ line: 1 }] }),
        ];
        await client.configurationDoneRequest();
        return answers;
      }),
    ]);
    expect(inMain!.body.breakpoints.map((b) => b.verified)).toEqual([true]);
    expect(inPricing!.body.breakpoints.map((b) => b.verified)).toEqual([true, false]);
    expect(outside!.body.breakpoints[0]!.verified).toBe(false);

    const project = readProject(MAIN);
    const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv: ['order.json'], breakpoints: [{ line: 17 }, { file: 'pricing.py', line: 6 }] });
    const stops: Array<{ path: string; line: number; name: string }> = [];
    let event = await first;
    while (event.event === 'stopped') {
      const stop = await top(client);
      expect((event as DebugProtocol.StoppedEvent).body.reason).toBe('breakpoint');
      stops.push({ path: stop.path, line: stop.line, name: stop.name });
      if (stop.path === PRICING) {
        // the caller's frame is in main.py, at the line that called into pricing.py
        expect(stop.frames.map((f) => [f.source?.path, f.line])).toEqual([[PRICING, 6], [MAIN, 16]]);
      }
      event = await act(client, () => client.continueRequest({ threadId: 1 }));
      if (event.event === 'terminated') break;
    }
    expect(stops.map((s) => ({ file: s.path.slice(FOLDER.length + 1), line: s.line, function: s.name, event: 'line' }))).toEqual(bdb.stops);
    expect(output.join('')).toContain('total 11\ncode 10\n');
  });

  it('goes back with reverseContinue to the previous breakpoint in another file', async () => {
    dc = dapClient();
    await dc.start();
    const client = dc;
    const initialized = client.waitForEvent('initialized');
    await client.initializeRequest();
    const first = nextStop(client);
    await Promise.all([
      client.launchRequest({ program: MAIN, args: ['order.json'] } as DebugProtocol.LaunchRequestArguments),
      initialized.then(async () => {
        await client.setBreakpointsRequest({ source: { path: PRICING }, breakpoints: [{ line: 7 }] });
        await client.setBreakpointsRequest({ source: { path: MAIN }, breakpoints: [{ line: 17 }] });
        await client.configurationDoneRequest();
      }),
    ]);
    await first;
    expect(await top(client)).toMatchObject({ path: PRICING, line: 7 });
    await act(client, () => client.continueRequest({ threadId: 1 }));
    await act(client, () => client.continueRequest({ threadId: 1 }));
    expect(await top(client)).toMatchObject({ path: MAIN, line: 17 });
    const back = await act(client, () => client.reverseContinueRequest({ threadId: 1 }));
    expect((back as DebugProtocol.StoppedEvent).body.reason).toBe('breakpoint');
    const stop = await top(client);
    expect(stop).toMatchObject({ path: PRICING, line: 7, name: 'line_total' });
    const scopes = (await client.scopesRequest({ frameId: stop.frames[0]!.id })).body.scopes;
    const locals = (await client.variablesRequest({ variablesReference: scopes[0]!.variablesReference })).body.variables;
    expect(Object.fromEntries(locals.map((v) => [v.name, v.value]))).toMatchObject({ price: '5', item: "{'price': 5, 'qty': 1}" });

    // a condition that raises: its breakpoint says so, and so does the stop (in the Debug Console)
    const output: string[] = [];
    client.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    const raising = await client.setBreakpointsRequest({ source: { path: PRICING }, breakpoints: [{ line: 6, condition: 'totl > 2' }] });
    expect(raising.body.breakpoints[0]).toMatchObject({ verified: true, message: expect.stringMatching(/its condition raised NameError: name 'totl' is not defined/) });
    await act(client, () => client.reverseContinueRequest({ threadId: 1 }));
    expect(await top(client)).toMatchObject({ path: PRICING, line: 6 });
    expect(output.join('')).toMatch(/the breakpoint's condition raised NameError/);
  });

  it('stops where the uncaught exception was raised with the uncaught exception filter', async () => {
    dc = dapClient();
    await dc.start();
    const client = dc;
    const initialized = client.waitForEvent('initialized');
    const capabilities = (await client.initializeRequest()).body ?? {};
    expect(capabilities.exceptionBreakpointFilters?.map((f) => f.filter)).toEqual(['raised', 'uncaught']);
    const first = nextStop(client);
    await Promise.all([
      client.launchRequest({ program: MAIN, args: ['bad_code.json'] } as DebugProtocol.LaunchRequestArguments),
      initialized.then(async () => {
        await client.setExceptionBreakpointsRequest({ filters: ['uncaught'] });
        await client.configurationDoneRequest();
      }),
    ]);
    const stopped = (await first) as DebugProtocol.StoppedEvent;
    expect(stopped.body).toMatchObject({ reason: 'exception', text: "KeyError('NOPE')" });
    expect(await top(client)).toMatchObject({ path: PRICING, line: 12, name: 'discount_percent' });
  });

  it('never hands the program a file through a link out of its folder, and says which it left out', async () => {
    const trap = makeLinkTrap();
    dc = dapClient();
    await dc.start();
    const client = dc;
    const output: string[] = [];
    client.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
    let event = (await launch(client, { program: trap.main })).first;
    while (event.event === 'stopped') event = await act(client, () => client.continueRequest({ threadId: 1 }));
    const text = output.join('');
    expect(text).toContain('data.txt plain data');
    expect(text).toMatch(/notes\.txt.*a link out of the program's folder/);
    expect(text).not.toContain(SECRET);
  });
});
