// A real project through `ndb mcp` and the MCP SDK's client: two modules and a data file
// (fixtures/project/shop), argv, breakpoints in another module checked against CPython's bdb,
// states, stack frames, traceback entries and breakpoint answers that name their file, the trace
// filtered by file, and reverse continue checked against the forward stops.

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { readProject } from '../session/projectFiles';
import { makeLinkTrap, SECRET, TRAP_LINKS } from '../testing/linkTrap';
import { startMcp, type McpTestClient } from '../testing/mcpClient';
import { projectBdb } from '../testing/oracle';

const MAIN = join(REPO_ROOT, 'fixtures/project/shop/main.py');
let mcp: McpTestClient;

beforeAll(async () => {
  mcp = await startMcp();
}, 60_000);

afterAll(async () => {
  await mcp?.close();
});

type State = Record<string, unknown>;

describe('ndb mcp on a project of several files', () => {
  it('stops at breakpoints in both files where bdb stops, and goes back over them with inv_continue', async () => {
    const breakpoints = [{ file: 'pricing.py', line: 6 }, { line: 17 }];
    const started = await mcp.ok('start_session', { path: MAIN, argv: ['order.json'], breakpoints: [...breakpoints, { file: 'nope.py', line: 1 }, { file: 'pricing.py', line: 4 }] });
    expect(started.breakpoints).toEqual([
      { file: 'pricing.py', line: 6, verified: true },
      { file: 'main.py', line: 17, verified: true },
      { file: 'nope.py', line: 1, verified: false, message: expect.stringMatching(/not a Python file of this program.*pricing\.py/) },
      { file: 'pricing.py', line: 4, verified: false, message: expect.stringMatching(/no code/) },
    ]);
    expect(started.project).toEqual({ files: ['main.py', 'pricing.py'], data: ['bad_code.json', 'order.json'] });
    expect(started.state).toMatchObject({ event: 'call', file: 'main.py', function: '<module>' });
    const session = started.session as string;

    const project = readProject(MAIN);
    const bdb = await projectBdb({ main: 'main.py', source: project.source, files: project.files, argv: ['order.json'], breakpoints });
    const stops: State[] = [];
    for (;;) {
      const { state } = (await mcp.ok('step', { session, action: 'continue' })) as { state: State };
      if (state.event === 'exit') {
        expect(state).toMatchObject({ status: 'normal' });
        break;
      }
      stops.push(state);
    }
    expect(stops.map((s) => ({ file: s.file, line: s.line, function: s.function, event: s.event }))).toEqual(bdb.stops);
    expect(stops[0]).toMatchObject({ file: 'pricing.py', line: 6, locals: { item: "{'price': 3, 'qty': 2}" } });

    // back over the same stops, newest first, then to the entry
    for (const expected of [...stops].reverse()) {
      const back = await mcp.ok('step', { session, action: 'inv_continue' });
      expect(back.reason).toBe('breakpoint');
      expect(back.state).toMatchObject({ file: expected.file, line: expected.line, locals: expected.locals });
    }
    const first = await mcp.ok('step', { session, action: 'inv_continue' });
    expect(first).toMatchObject({ reason: 'entry', state: { event: 'call', file: 'main.py', function: '<module>' } });
    await mcp.ok('end_session', { session });
  });

  it('steps into the imported module, and names each frame\'s file in the stack and the traceback', async () => {
    const started = await mcp.ok('start_session', { path: MAIN, argv: ['bad_code.json'], breakpoints: [{ file: 'pricing.py', line: 12 }] });
    const session = started.session as string;
    const { state } = await mcp.ok('step', { session, action: 'continue' });
    expect(state).toMatchObject({ file: 'pricing.py', line: 12, function: 'discount_percent', locals: { code: "'NOPE'" } });
    const stack = await mcp.ok('stack', { session });
    expect(stack).toMatchObject({
      total: 2,
      frames: [
        { function: 'discount_percent', file: 'pricing.py', line: 12, source: 'percent = DISCOUNTS[code]' },
        { function: '<module>', file: 'main.py', line: 18, source: 'print("code", pricing.discount_percent(order["code"]))' },
      ],
    });
    expect(await mcp.ok('stack', { session, from: 1, limit: 1 })).toMatchObject({ total: 2, frames: [{ file: 'main.py', line: 18 }] });
    const { state: into } = await mcp.ok('step', { session, action: 'step_into' });
    expect(into).toMatchObject({ event: 'exception', file: 'pricing.py', line: 12 });
    const { state: exit } = await mcp.ok('step', { session, action: 'continue' });
    expect(exit).toMatchObject({
      event: 'exit',
      status: 'exception',
      traceback: [
        { function: '<module>', file: 'main.py', line: 18 },
        { function: 'discount_percent', file: 'pricing.py', line: 12, source: 'percent = DISCOUNTS[code]' },
      ],
    });
    const trace = await mcp.ok('trace', { session, file: 'pricing.py', function: 'discount_percent' });
    const events = trace.events as State[];
    expect(events.length).toBeGreaterThan(2);
    expect(events.every((e) => e.file === 'pricing.py' && e.function === 'discount_percent')).toBe(true);
    await mcp.ok('end_session', { session });
  });

  it('stops where an exception is raised, in the module that raised it', async () => {
    const started = await mcp.ok('start_session', { path: MAIN, argv: ['bad_code.json'], exceptions: 'raised' });
    const session = started.session as string;
    const stop = await mcp.ok('step', { session, action: 'continue' });
    expect(stop).toMatchObject({ reason: 'exception', state: { event: 'exception', file: 'pricing.py', line: 12, value: "KeyError('NOPE')" } });
    // a step back onto it is at the exception stop too, said as DAP says it (the prompt's rs, one of every face's names)
    expect((await mcp.ok('step', { session, action: 'step_into' })).reason).toBeUndefined();
    expect(await mcp.ok('step', { session, action: 'rs' })).toMatchObject({ reason: 'exception', state: { event: 'exception', file: 'pricing.py', line: 12 } });
    // it passes through main.py without another stop: the next is the end
    expect((await mcp.ok('step', { session, action: 'continue' })).state).toMatchObject({ event: 'exit', status: 'exception' });
    await mcp.ok('end_session', { session });
    expect(await mcp.error('start_session', { path: MAIN, exceptions: 'all' })).toMatch(/exceptions/);
  });

  it('reports a condition that raises on the stop and on the breakpoint', async () => {
    const started = await mcp.ok('start_session', { path: MAIN, argv: ['order.json'], breakpoints: [{ file: 'pricing.py', line: 7, condition: 'totl > 2' }] });
    expect(started.breakpoints).toEqual([{ file: 'pricing.py', line: 7, verified: true, condition_error: "NameError: name 'totl' is not defined" }]);
    const { state } = await mcp.ok('step', { session: started.session as string, action: 'continue' });
    expect(state).toMatchObject({ file: 'pricing.py', line: 7, condition_error: "NameError: name 'totl' is not defined" });
    await mcp.ok('end_session', { session: started.session as string });
  });

  it('says when the output was cut, with its real length', async () => {
    const started = await mcp.ok('start_session', { code: 'for i in range(500):\n    print("x" * 300)\n' });
    const { state } = await mcp.ok('step', { session: started.session as string, action: 'continue' });
    expect(state).toMatchObject({ event: 'exit', status: 'normal', stdout_truncated: true, stdout_total: 150500 });
    await mcp.ok('end_session', { session: started.session as string });
  });
});

describe('ndb mcp on a folder with links out of it', () => {
  it('reads the project by the rule of every face: no link out of the program\'s folder, even under the server\'s root', async () => {
    const trap = makeLinkTrap();
    const server = await startMcp(['--root', trap.home]);
    try {
      const started = await server.ok('start_session', { path: trap.main });
      const project = started.project as { data: string[]; left_out: Array<{ file: string; reason: string }> };
      expect(project.data.sort()).toEqual(['data.txt', 'real/data.txt']);
      expect(project.left_out.map((l) => l.file).sort()).toEqual(TRAP_LINKS.map(([name]) => name).sort());
      const session = started.session as string;
      const output = await server.ok('output', { session, at_end: true });
      expect(output.text).toContain('data.txt plain data');
      expect(output.text).not.toContain(SECRET);
      await server.ok('end_session', { session });
    } finally {
      await server.close();
    }
  }, 120_000);
});
