// Issue 47, item 6 ("Smaller"), through `ndb dap` as VS Code drives it: stopped on entry, the
// module's frame is at its first line of code (not line 1, a comment, nor CPython's line 0); a
// method's frame is named `Frozen.rate`; a breakpoint whose condition raises (an ordinary
// exception, or SystemExit) stops there, says so in the Debug Console, and the run goes on after
// it; at the end evaluate says the program has ended.

import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { afterEach, describe, expect, it } from 'vitest';
import { act, dapClient, nextStop, where } from '../testing/dapClient';
import {
  EXITING_CONDITION,
  FIRST_CODE_LINE,
  LOOP_LINE,
  RAISING_CONDITION,
  RATE_LINE,
  RATE_STACK,
  writeSmallerProject,
} from '../testing/smallerPrograms';

const project = writeSmallerProject();

let dc: DebugClient | undefined;
afterEach(async () => {
  await dc?.stop();
  dc = undefined;
});

/** Launches the project's main file with breakpoints in pricing.py, set as VS Code sets them
 * (between initialized and configurationDone); the first stop, and what the console said. */
async function launchProject(args: Record<string, unknown>, pricing: DebugProtocol.SourceBreakpoint[]): Promise<{ client: DebugClient; first: DebugProtocol.Event; output: string[]; set: DebugProtocol.Breakpoint[] }> {
  dc = dapClient();
  await dc.start();
  const client = dc;
  const output: string[] = [];
  client.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body.output));
  const initialized = client.waitForEvent('initialized');
  await client.initializeRequest();
  const first = nextStop(client);
  const [, set] = await Promise.all([
    client.launchRequest({ program: project.main, ...args } as DebugProtocol.LaunchRequestArguments),
    initialized.then(async () => {
      const answer = await client.setBreakpointsRequest({ source: { path: project.pricing }, breakpoints: pricing });
      await client.configurationDoneRequest();
      return answer.body.breakpoints;
    }),
  ]);
  return { client, first: await first, output, set };
}

describe('ndb dap: the smaller things of issue 47', () => {
  it("stands on the module's first line of code on entry, and names a method's frame by its qualified name", async () => {
    const { client, first } = await launchProject({ stopOnEntry: true }, [{ line: RATE_LINE }]);
    expect((first as DebugProtocol.StoppedEvent).body.reason).toBe('entry');
    const entry = (await client.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    expect(entry.map((f) => ({ name: f.name, line: f.line, path: f.source?.path }))).toEqual([{ name: '<module>', line: FIRST_CODE_LINE, path: project.main }]);
    await act(client, () => client.continueRequest({ threadId: 1 }));
    const frames = (await client.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    expect(frames.map((f) => f.name)).toEqual(RATE_STACK);
    expect(frames[0]).toMatchObject({ line: RATE_LINE, source: { path: project.pricing } });
    expect((await client.evaluateRequest({ expression: 'self.k', frameId: frames[0]!.id, context: 'watch' })).body.result).toBe('3');
    // to the end: no frame is left, and evaluate says why
    await client.setBreakpointsRequest({ source: { path: project.pricing }, breakpoints: [] });
    const end = await act(client, () => client.continueRequest({ threadId: 1 }));
    expect(end.event).toBe('terminated');
    await expect(client.evaluateRequest({ expression: '1 + 1', context: 'repl' })).rejects.toThrow(/the program has ended/);
  });

  it.each([
    ['an ordinary exception', RAISING_CONDITION, 'ZeroDivisionError'],
    ['SystemExit', EXITING_CONDITION, 'SystemExit: 2'],
  ])('stops where a breakpoint condition raises %s, as pdb does, and goes on after it', async (_kind, condition, error) => {
    const { client, first, output, set } = await launchProject({}, [{ line: LOOP_LINE, condition }]);
    expect(set[0]).toMatchObject({ verified: true, message: expect.stringContaining(error) });
    expect(first.event).toBe('stopped');
    expect((first as DebugProtocol.StoppedEvent).body.reason).toBe('breakpoint');
    const stop = await where(client);
    expect(stop).toMatchObject({ name: 'total', line: LOOP_LINE });
    expect(stop.locals.x).toBe('6');
    expect(output.join('')).toContain(`the breakpoint's condition raised ${error}`);
    const next = await act(client, () => client.continueRequest({ threadId: 1 }));
    if (condition === RAISING_CONDITION) {
      // x = 9: the condition holds
      expect(next.event).toBe('stopped');
      expect((await where(client)).locals.x).toBe('9');
    } else {
      // the condition's SystemExit is not the program's end: it runs on and exits with 0
      expect(next.event).toBe('terminated');
      expect(output.join('')).not.toMatch(/exited via sys.exit/);
    }
  });
});
