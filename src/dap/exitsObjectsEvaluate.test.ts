// Issue 47, item 1, through `ndb dap` as VS Code drives it: a program that ends through sys.exit()
// sends `exited` with its exit code and no exception stop (the "raised" and "uncaught" filters
// included), an object of a class from the program's other module opens into its attributes,
// and evaluate (watch, hover, the debug console) runs its expression once, at the stop.

import type { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { afterEach, describe, expect, it } from 'vitest';
import { act, dapClient, launch, nextStop, where } from '../testing/dapClient';
import {
  COUNT_STOP_LINE,
  COUNTING_EXPRESSION,
  EXIT_PROGRAMS,
  OBJECT_STOP_LINE,
  ORDER_SHOWN,
  writeEndPrograms,
  type ExitProgram,
} from '../testing/endPrograms';

const programs = writeEndPrograms();

let clients: DebugClient[] = [];

async function started(): Promise<DebugClient> {
  const dc = dapClient();
  await dc.start();
  clients.push(dc);
  return dc;
}

afterEach(async () => {
  await Promise.all(clients.map((dc) => dc.stop()));
  clients = [];
});

describe('ndb dap: a program that ends through sys.exit()', () => {
  const cases: Array<[ExitProgram, string[]]> = [
    ['exit0', ['uncaught']],
    ['exit3', ['raised']],
    ['exitMain', ['uncaught']],
    ['exitMessage', []],
  ];
  it.each(cases)('%s: exited with its exit code, no exception stop (filters %j)', async (name, filters) => {
    const dc = await started();
    const output: DebugProtocol.OutputEvent['body'][] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => output.push(e.body));
    const exited = dc.waitForEvent('exited');
    const first = nextStop(dc);
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest();
    await Promise.all([
      dc.launchRequest({ program: programs.exits[name] } as DebugProtocol.LaunchRequestArguments),
      initialized.then(async () => {
        await dc.setExceptionBreakpointsRequest({ filters });
        await dc.configurationDoneRequest();
      }),
    ]);
    // no breakpoint and no exception stop: the program runs to its end
    expect((await first).event).toBe('terminated');
    expect((await exited).body).toEqual({ exitCode: EXIT_PROGRAMS[name].code });
    const text = (category: string) => output.filter((o) => o.category === category).map((o) => o.output).join('');
    expect(text('console')).toContain(`The program exited via sys.exit(). Exit status: ${EXIT_PROGRAMS[name].code}\n`);
    expect(text('stderr')).toBe(name === 'exitMessage' ? 'bad input\n' : '');
    expect(text('stderr')).not.toContain('SystemExit');
  });

  it('steps onto the sys.exit() line as pdb does, then exits with the code', async () => {
    const dc = await started();
    const exited = dc.waitForEvent('exited');
    const { first } = await launch(dc, { program: programs.exits.exit3 }, [{ line: 6 }]);
    expect(first).toMatchObject({ event: 'stopped', body: { reason: 'breakpoint' } });
    expect((await act(dc, () => dc.continueRequest({ threadId: 1 }))).event).toBe('terminated');
    expect((await exited).body).toEqual({ exitCode: 3 });
  });
});

describe("ndb dap: objects of a class in the program's other module", () => {
  it('open into their attributes in Variables, and in evaluate', async () => {
    const dc = await started();
    const { first } = await launch(dc, { program: programs.objects }, [{ line: OBJECT_STOP_LINE }]);
    expect(first.event).toBe('stopped');
    const w = await where(dc);
    expect(w).toMatchObject({ name: 'total', line: OBJECT_STOP_LINE, locals: { order: ORDER_SHOWN } });
    const rows = (await dc.variablesRequest({ variablesReference: w.scopes[0]!.variablesReference })).body.variables;
    const order = rows.find((v) => v.name === 'order')!;
    expect(order.variablesReference).toBeGreaterThan(0);
    const fields = (await dc.variablesRequest({ variablesReference: order.variablesReference })).body.variables;
    expect(fields.map((v) => [v.name, v.value, v.evaluateName])).toEqual([
      ['number', '7', 'order.number'],
      ['items', '[3, 4]', 'order.items'],
    ]);
    const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    const evaluated = await dc.evaluateRequest({ expression: 'order', frameId: frames[0]!.id, context: 'watch' });
    expect(evaluated.body.result).toBe(ORDER_SHOWN);
    expect(evaluated.body.variablesReference).toBeGreaterThan(0);
    // the caller's (the module's) frame: its Order opens, the standard library's Template does not
    const moduleScopes = (await dc.scopesRequest({ frameId: frames[1]!.id })).body.scopes;
    const moduleRows = (await dc.variablesRequest({ variablesReference: moduleScopes[0]!.variablesReference })).body.variables;
    expect(moduleRows.find((v) => v.name === 'o')).toMatchObject({ value: ORDER_SHOWN, variablesReference: expect.any(Number) });
    expect(moduleRows.find((v) => v.name === 'o')!.variablesReference).toBeGreaterThan(0);
    const t = (await dc.evaluateRequest({ expression: 'string.Template("$y")', frameId: frames[1]!.id, context: 'repl' })).body;
    expect(t).toMatchObject({ result: '<string.Template object>', variablesReference: 0 });
  });
});

describe('ndb dap: evaluate', () => {
  it('runs a watch expression once, at the stop, in the frame asked for', async () => {
    const dc = await started();
    const { first } = await launch(dc, { program: programs.count }, [{ line: COUNT_STOP_LINE }]);
    expect(first.event).toBe('stopped');
    for (let i = 0; i < 2; i++) expect((await act(dc, () => dc.continueRequest({ threadId: 1 }))).event).toBe('stopped');
    expect(await where(dc)).toMatchObject({ name: 'fill', line: COUNT_STOP_LINE, locals: { i: '2' } });
    const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    expect((await dc.evaluateRequest({ expression: COUNTING_EXPRESSION, frameId: frames[0]!.id, context: 'watch' })).body.result).toBe('1');
    expect((await dc.evaluateRequest({ expression: 'len(hits)', frameId: frames[0]!.id, context: 'repl' })).body.result).toBe('0');
    // main's list as fill has changed it by this stop
    expect((await dc.evaluateRequest({ expression: 'got', frameId: frames[1]!.id, context: 'hover' })).body.result).toBe('[0, 1]');
  });
});
