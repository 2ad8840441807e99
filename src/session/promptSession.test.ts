// `ndb debug`'s prompt against the real engine: every forward command stops where CPython's own
// bdb stops on the live program (src/testing/bdb_oracle.py), each reverse command lands where the
// recording says, and the commands that look around, change breakpoints or edit values answer as
// pdb would. Bad input is answered with an error and the session goes on.

import { beforeAll, describe, expect, it } from 'vitest';
import type { PythonHost } from '../realEngine/pythonHost';
import type { RealEngine } from '../realEngine/realEngine';
import type { Recording } from '../core/trace';
import { qualnameOf, shownLine } from '../core/state';
import { hash, oracleEngine, rng, snapshot, type Snapshot } from '../testing/oracle';
import { loadPrograms, type TestProgram } from '../testing/programs';
import { loadLiveModel } from './liveModel';
import { PromptSession, type PdbOptions } from './promptSession';

const programs = new Map(loadPrograms('src/testing/programs').map((p) => [p.name.replace(/^.*\//, ''), p]));
const ORACLE_PROGRAMS = ['fib.py', 'nested_funcs.py', 'exc_propagate.py', 'gen_next.py', 'mutual.py', 'print_loop.py', 'uncaught_deep.py', 'exc_finally.py'];
const SEQUENCES = 4;

let engine: RealEngine;
let host: PythonHost;
let runSegments: (request: string) => string;

beforeAll(async () => {
  ({ engine, host, runSegments } = await oracleEngine());
}, 120_000);

function program(name: string): TestProgram {
  const p = programs.get(name);
  if (!p) throw new Error(`no test program ${name}`);
  return p;
}

async function open(p: TestProgram | string, options: Partial<PdbOptions> = {}): Promise<{ session: PromptSession; first: string[] }> {
  const { source, call } = typeof p === 'string' ? { source: p, call: '' } : p;
  const { session, lines } = await PromptSession.open(host, source, { engine: 'real', file: 'prog.py', call, ...options });
  return { session, first: lines.map((l) => l.text) };
}

async function run(session: PromptSession, command: string): Promise<string[]> {
  return (await session.run(command)).lines.map((l) => l.text);
}

const here = (s: PromptSession): Snapshot => snapshot(s.live.recording, s.live.position);

/** bdb's stops for the same commands from the program's first event. */
function oracleStops(p: TestProgram, commands: string[]): Snapshot[] {
  const request = { source: p.source, call: p.call, segments: [{ goto: 0, breakpoints: [], commands }] };
  return (JSON.parse(runSegments(JSON.stringify(request))) as Snapshot[][])[0]!;
}

const MOVES: Record<string, string> = { s: 'step_into', n: 'step_over', r: 'step_return', c: 'continue' };

/** A command typed at the prompt and the same command as the oracle takes it. */
type Pick = (r: () => number, s: PromptSession, lines: number[]) => { command: string; oracle: string };

/** Random sequences of commands from `pick`, each stop checked against bdb's for the same
 * commands; a command that is no move (b, cl) only changes where later ones stop. */
async function againstBdb(name: string, sequences: number, salt: string, pick: Pick): Promise<void> {
  const p = program(name);
  const { session } = await open(p);
  const rec: Recording = session.live.recording;
  const lines = (rec.program?.lines ?? []).filter((l) => l > 0);
  for (let seq = 0; seq < sequences; seq++) {
    const { session: s } = seq === 0 ? { session } : await open(p);
    const r = rng(hash(name + salt) + seq);
    // pdb's first stop is the first line: one step from the entry's call, as bdb takes it
    const oracle: string[] = ['step_into'];
    const ours: Snapshot[] = [snapshot(s.live.recording, 0), here(s)];
    const typed: string[] = [];
    for (let i = 0; i < 18 && s.live.position < rec.events.length; i++) {
      const { command, oracle: asked } = pick(r, s, lines);
      oracle.push(asked);
      typed.push(command);
      const out = await run(s, command);
      expect(out.filter((l) => l.startsWith('***')), `${command} after ${typed.join('; ')}`).toEqual([]);
      if (/^(b|cl) /.test(command)) continue;
      ours.push(here(s));
      const e = s.live.recording.events[s.live.position];
      // a frame as the faces show it: its qualified name, the module's start at its first line of code
      const rec = s.live.recording;
      if (e && (e.event === 'line' || e.event === 'call')) expect(out, typed.join('; ')).toContain(`> prog.py(${shownLine(rec, e)})${qualnameOf(rec, e)}()`);
    }
    if (ours.at(-1)?.event !== 'exit') ours.push({ event: 'exit' });
    expect(ours, `${name}, seed ${seq}: ${typed.join('; ')}`).toEqual(oracleStops(p, oracle));
  }
}

describe('forward commands against bdb', () => {
  for (const name of ORACLE_PROGRAMS) {
    it(`stops where bdb stops: ${name}`, async () => {
      await againstBdb(name, SEQUENCES, '', (r, s, lines) => {
        const x = r();
        const line = lines[Math.floor(r() * lines.length)]!;
        if (x < 0.1) return { command: `b ${line}`, oracle: `break:${line}` };
        if (x < 0.14 && s.live.breakpoints.length > 0) {
          const gone = s.live.breakpoints[0]!;
          return { command: `cl prog.py:${gone}`, oracle: `clear:${gone}` };
        }
        const command = x < 0.45 ? 's' : x < 0.7 ? 'n' : x < 0.88 ? 'r' : 'c';
        return { command, oracle: MOVES[command]! };
      });
    });
  }

  // until, with and without a line, among the other moves and breakpoints: loops left, generators'
  // returns ignored, breakpoints in calls
  for (const name of [...ORACLE_PROGRAMS, 'gen_send.py', 'exception_in_gen.py', 'gen_yield_from.py', 'break_continue.py', 'while_else.py']) {
    it(`unt stops where bdb's until stops: ${name}`, async () => {
      await againstBdb(name, 6, ':until', (r, s, lines) => {
        const x = r();
        const line = lines[Math.floor(r() * lines.length)]!;
        if (x < 0.1) return { command: `b ${line}`, oracle: `break:${line}` };
        if (x < 0.15 && s.live.breakpoints.length > 0) {
          const gone = s.live.breakpoints[0]!;
          return { command: `cl prog.py:${gone}`, oracle: `clear:${gone}` };
        }
        if (x < 0.6) {
          const e = s.live.recording.events[s.live.position];
          // a line past this one (pdb refuses any other), at a return none: until steps on there
          const past = e && e.event !== 'return' ? lines.filter((l) => l > e.line) : [];
          if (x < 0.35 || past.length === 0) return { command: 'unt', oracle: 'until' };
          const target = past[Math.floor(r() * past.length)]!;
          return { command: `unt ${target}`, oracle: `until:${target}` };
        }
        const command = x < 0.8 ? 's' : x < 0.9 ? 'n' : x < 0.96 ? 'r' : 'c';
        return { command, oracle: MOVES[command]! };
      });
    });
  }

  it('unt: on to a line past this one in this frame (out of a loop), stopping at breakpoints and returns', async () => {
    const { session } = await open(program('nested_funcs.py'));
    await run(session, 'b 9');
    await run(session, 'c');
    expect(here(session)).toMatchObject({ line: 9, locals: { i: '0' } });
    // the breakpoint on line 9 stops it at the next turn of the loop, as it stops pdb's until
    expect(await run(session, 'unt')).toContain('> prog.py(9)outer()');
    expect(here(session)).toMatchObject({ line: 9, locals: { i: '1' } });
    await run(session, 'cl');
    expect(await run(session, 'unt')).toContain('> prog.py(10)outer()');
    expect(here(session)).toMatchObject({ line: 10, locals: { acc: '[1, 3, 5, 7]' } });
    const again = await open(program('nested_funcs.py'));
    await run(again.session, 'unt 10');
    expect(here(again.session)).toMatchObject({ line: 10 });
    expect(await run(again.session, 'unt 3')).toEqual(['*** "until" line number is smaller than current line number']);
    // at a return stop pdb refuses a line at or before the return's too, and `unt` steps into the caller
    while (here(again.session).event !== 'return') await run(again.session, 'n');
    const ret = here(again.session);
    expect(await run(again.session, `unt ${ret.line}`)).toEqual(['*** "until" line number is smaller than current line number']);
    expect(here(again.session)).toEqual(ret);
  });
});

describe('reverse commands against the recording', () => {
  it('rs, rn, rc and rf land where the recording says, forward stops being bdb-checked above', async () => {
    const { session } = await open(program('nested_funcs.py'));
    const events = session.live.recording.events;
    await run(session, 'b 5');
    await run(session, 'c');
    await run(session, 'c');
    await run(session, 's');
    await run(session, 's');
    for (const [command, expected] of [
      ['rs', (p: number) => p - 1],
      ['rn', (p: number) => {
        let j = p - 1;
        while (events[j]!.depth > events[p]!.depth) j--;
        return j;
      }],
      ['rf', (p: number) => {
        let j = p;
        if (events[p]!.event === 'call') while (events[j]!.depth >= events[p]!.depth) j--;
        const frame = events[j]!.frame;
        while (!(events[j]!.frame === frame && events[j]!.event === 'call')) j--;
        return j;
      }],
      ['rc', (p: number) => {
        let j = p - 1;
        while (j >= 0 && !(events[j]!.event === 'line' && events[j]!.line === 5)) j--;
        return Math.max(j, 0);
      }],
    ] as const) {
      for (let k = 0; k < 3 && session.live.position > 0; k++) {
        const from = session.live.position;
        const out = await run(session, command);
        expect(session.live.position, `${command} from ${from}`).toBe(expected(from));
        const e = events[session.live.position]!;
        expect(out).toContain(`> prog.py(${shownLine(session.live.recording, e)})${qualnameOf(session.live.recording, e)}()${e.event === 'return' ? `->${e.value}` : ''}`);
      }
    }
    // rc with no breakpoint hit before: the start; before the start there is nothing
    await run(session, 'cl');
    await run(session, 'rc');
    expect(session.live.position).toBe(0);
    expect(await run(session, 'rs')).toEqual(['*** this is the start of the program: there is nothing before it']);
  });

  it('rf goes to the call of the selected frame (after u), and after the end to the frame that raised', async () => {
    const { session } = await open(program('uncaught_deep.py'));
    await run(session, 'b 3');
    await run(session, 'c');
    await run(session, 'u');
    const out = await run(session, 'rf');
    expect(out).toEqual(['--Call--', '> prog.py(6)b()', '-> def b():']);
    await run(session, 'cl');
    await run(session, 'c');
    expect(await run(session, 'rf')).toEqual(['--Call--', '> prog.py(2)c()', '-> def c():']);
  });
});

describe('looking around at a stop', () => {
  it('p prints the repr alone; pp lays it out; a, retval, w, u, d, l and ll as pdb', async () => {
    const { session, first } = await open(program('fib.py'));
    expect(first).toEqual(['> prog.py(3)fib()', '-> if n < 2:']);
    expect(await run(session, 'p n')).toEqual(['5']);
    expect(await run(session, 'p [n] * 30')).toEqual([`[${Array(30).fill('5').join(', ')}]`]);
    expect((await run(session, 'pp [n] * 30')).length).toBe(30);
    expect(await run(session, 'a')).toEqual(['n = 5']);
    expect(await run(session, 'retval')).toEqual(['*** Not yet returned!']);
    await run(session, 'b 4');
    await run(session, 'c');
    const where = await run(session, 'w');
    expect(where.filter((l) => /^[ >] prog\.py/.test(l))).toEqual([
      '  prog.py(5)fib()',
      '  prog.py(5)fib()',
      '  prog.py(5)fib()',
      '  prog.py(5)fib()',
      '> prog.py(4)fib()',
    ]);
    expect(await run(session, 'u 2')).toEqual(['> prog.py(5)fib()', '-> return fib(n - 1) + fib(n - 2)']);
    expect(await run(session, 'p n')).toEqual(['3']);
    expect(await run(session, 'u 5')).toEqual(['*** Oldest frame']);
    expect(await run(session, 'd 2')).toEqual(['> prog.py(4)fib()', '-> return n']);
    expect(await run(session, 'd')).toEqual(['*** Newest frame']);
    expect(await run(session, 'l')).toEqual(['  1    \t# call: fib(5)', '  2    \tdef fib(n):', '  3    \t    if n < 2:', '  4 B->\t        return n', '  5    \t    return fib(n - 1) + fib(n - 2)']);
    expect(await run(session, 'l')).toEqual(['[EOF]']);
    expect(await run(session, 'll')).toHaveLength(4);
    const ret = await run(session, 'n');
    expect(ret).toEqual(['--Return--', '> prog.py(4)fib()->1', '-> return n']);
    expect(await run(session, 'retval')).toEqual(['1']);
  });

  it('an empty line repeats the last command', async () => {
    const { session } = await open(program('print_loop.py'));
    const a = here(session);
    await run(session, 'n');
    const b = here(session);
    await run(session, '');
    expect([a.line, b.line, here(session).line]).toEqual([3, 4, 3]);
  });

  it("prints the program's own output as it is printed, once", async () => {
    const { session } = await open(program('print_loop.py'));
    expect(await run(session, 'n')).toEqual(['> prog.py(4)show()', '-> print("row", i)']);
    expect(await run(session, 'n')).toEqual(['row 0', '> prog.py(3)show()', '-> for i in range(n):']);
    await run(session, 'rs');
    expect(await run(session, 'n')).toEqual(['> prog.py(3)show()', '-> for i in range(n):']);
    expect(await run(session, 'r')).toEqual(['row 1', 'row 2', 'end', '--Return--', '> prog.py(6)show()->3', '-> return n']);
    expect(await run(session, 'c')).toEqual(['The program finished and returned 3.', '(rs, rn, rc or rf go back; q quits)']);
    expect(await run(session, 'n')).toEqual(['*** the program has finished: rs, rn, rc or rf go back; q quits']);
  });

  it('display shows an expression where it changed', async () => {
    const { session } = await open(program('print_loop.py'));
    expect(await run(session, 'display i * 10')).toEqual([expect.stringMatching(/^display i \* 10: \*\* raised NameError/)]);
    expect(await run(session, 'n')).toContain('display i * 10: 0  [old: ** raised NameError: name \'i\' is not defined **]');
    expect((await run(session, 'n')).filter((l) => l.startsWith('display'))).toEqual([]);
    expect(await run(session, 'n')).toContain('display i * 10: 10  [old: 0]');
    await run(session, 'undisplay');
    expect(await run(session, 'display')).toEqual(['Currently displaying:']);
  });
});

describe('breakpoints', () => {
  it('b with a condition, tbreak, disable, enable, condition and clear, as pdb numbers them', async () => {
    const { session } = await open(program('fib.py'));
    expect(await run(session, 'b 4, n == 0')).toEqual(['Breakpoint 1 at prog.py:4']);
    await run(session, 'c');
    expect(here(session)).toMatchObject({ line: 4, locals: { n: '0' } });
    expect(await run(session, 'tbreak fib')).toEqual(['Breakpoint 2 at prog.py:3']);
    expect(await run(session, 'c')).toEqual(['Deleted breakpoint 2 at prog.py:3', '> prog.py(3)fib()', '-> if n < 2:']);
    expect(await run(session, 'disable 1')).toEqual(['Disabled breakpoint 1 at prog.py:4']);
    expect(await run(session, 'b')).toEqual(['Num Type         Disp Enb   Where', '1   breakpoint   keep no    at prog.py:4', '\tstop only if n == 0']);
    expect(await run(session, 'enable 1')).toEqual(['Enabled breakpoint 1 at prog.py:4']);
    expect(await run(session, 'condition 1')).toEqual(['Breakpoint 1 is now unconditional.']);
    await run(session, 'c');
    expect(here(session)).toMatchObject({ line: 4, locals: { n: '1' } });
    expect(await run(session, 'condition 1 n ==')).toEqual([expect.stringMatching(/^\*\*\* the condition is not a Python expression: .*SyntaxError/)]);
    expect(await run(session, 'cl 1')).toEqual(['Deleted breakpoint 1 at prog.py:4']);
    expect(await run(session, 'cl 1')).toEqual(['*** No breakpoint numbered 1']);
  });

  it('refuses a breakpoint on a blank line, a comment, past the end or in another file', async () => {
    const { session } = await open(program('exc_propagate.py'));
    expect(await run(session, 'b 6')).toEqual(['*** Blank or comment']);
    expect(await run(session, 'b 1')).toEqual(['*** Blank or comment']);
    expect(await run(session, 'b 99')).toEqual(['*** End of file: prog.py has 16 lines']);
    expect(await run(session, 'b other.py:3')).toEqual(['*** other.py is not a Python file of this program (its files: prog.py)']);
    expect(await run(session, 'b nothere')).toEqual(['*** no function named nothere in the program that ran (b FILE:LINE sets one at a line)']);
    expect(await run(session, 'b')).toEqual(['No breakpoints.']);
  });
});

describe('errors keep the session alive', () => {
  it('answers a line that is no command as Python, and a bad expression with an error, then goes on', async () => {
    const { session } = await open(program('fib.py'));
    expect(await run(session, 'frobnicate')).toEqual(["*** NameError: name 'frobnicate' is not defined"]);
    expect(await run(session, 'p n +')).toEqual([expect.stringMatching(/^\*\*\* SyntaxError/)]);
    expect(await run(session, 'p nope')).toEqual(["*** NameError: name 'nope' is not defined"]);
    expect(await run(session, 'p n // 0')).toEqual([expect.stringMatching(/^\*\*\* ZeroDivisionError: .*division/)]);
    expect(await run(session, 'set m = 1')).toEqual([expect.stringMatching(/^\*\*\* 'm' is not a local/)]);
    expect(await run(session, 'n')).toEqual(['> prog.py(5)fib()', '-> return fib(n - 1) + fib(n - 2)']);
  });

  it('a program that raises: the exception stop, then the traceback and the post-mortem frame', async () => {
    const { session } = await open(program('uncaught_deep.py'));
    await run(session, 'b 3');
    await run(session, 'c');
    expect(await run(session, 's')).toEqual(["KeyError('missing')", '> prog.py(3)c()', '-> return {}["missing"]']);
    const end = await run(session, 'c');
    expect(end).toEqual([
      'Traceback (most recent call last):',
      '  File "prog.py", line 12, in a',
      '    y = b()',
      '  File "prog.py", line 8, in b',
      '    return c()',
      '  File "prog.py", line 3, in c',
      '    return {}["missing"]',
      "KeyError: 'missing'",
      'Uncaught exception. Entering post mortem debugging (p, w, l, a and rf look where it was raised)',
      '> prog.py(3)c()',
      '-> return {}["missing"]',
      '(rs, rn, rc or rf go back; q quits)',
    ]);
    expect((await run(session, 'w')).filter((l) => /prog\.py/.test(l))).toEqual(['  prog.py(12)a()', '  prog.py(8)b()', '> prog.py(3)c()']);
    await run(session, 'u');
    expect(await run(session, 'p x')).toEqual(['1']);
    expect(await run(session, 's')).toEqual(['*** the program has finished: rs, rn, rc or rf go back; q quits']);
    expect(await run(session, 'rs')).toEqual(['--Return--', '> prog.py(12)a()', '-> y = b()', "(leaving by the exception KeyError('missing'))"]);
  });

  it('prints no raw control character of the program', async () => {
    const nasty = 'x\\n\\x1b[2J\\x1b]0;pwned\\x07exit\\r\\u202e';
    const source = `def f():\n    s = "${nasty}"\n    print(s)\n    raise RuntimeError(s)\nf()\n`;
    const { session, first } = await open(source);
    const lines = [...first];
    for (const c of ['s', 's', 'n', 'n', 'p s', 'pp s', 'a', 'c', 'w', 'l']) lines.push(...(await run(session, c)));
    for (const l of lines) expect(l).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(lines.join('\n')).toContain('\\x1b[2J');
  });
});

describe("ndb's additions", () => {
  it('set NAME = EXPR: the program runs again with the value, and goes on from there', async () => {
    const { session } = await open(program('nested_funcs.py'));
    await run(session, 'b 9');
    await run(session, 'c');
    expect(await run(session, 'set i = 10')).toEqual(['i = 10', '(the program goes on from here with it; stepping back past this stop undoes it)']);
    await run(session, 'n');
    expect(await run(session, 'p acc')).toEqual(['[21]']);
    expect(await run(session, 'q')).toEqual([expect.stringMatching(/^ndb: \d+ commands, \d+ stops; 1 what-if edit$/)]);
  });

  it('a command whose answer was never shown (Ctrl-C) is shown where it stopped before the next one', async () => {
    const { session } = await open(program('fib.py'));
    const interrupted = new AbortController();
    interrupted.abort();
    await session.run('n', interrupted.signal);
    expect(await run(session, 'p n')).toEqual(['(the interrupted command stopped here)', '> prog.py(5)fib()', '-> return fib(n - 1) + fib(n - 2)', '5']);
  });

  it('h lists the commands; q ends with a summary', async () => {
    const { session } = await open(program('fib.py'));
    expect((await run(session, 'h')).join('\n')).toMatch(/rs, reverse-step[\s\S]*predict/);
    expect(await run(session, 'h rc')).toEqual(['rc, reverse-continue: back to the previous breakpoint stop, or to the start']);
    expect(await run(session, 'predict')).toEqual(['*** no model is loaded']);
    const bye = await session.run('q');
    expect(bye.quit).toBe(true);
    expect(bye.lines.map((l) => l.text)).toEqual(['ndb: 4 commands, 1 stop']);
  });
});

describe('the model beside the stops', () => {
  const SURE = /(✓|✗) (sure|likely|a guess) \d+ %/;

  it('--engine both: every stop has one model line, with how sure it was and ✓ or ✗; predict asks without moving', async () => {
    const model = await loadLiveModel();
    const { session, first } = await open(program('nested_funcs.py'), { engine: 'both', model });
    expect(first.filter((l) => l.startsWith('model'))).toEqual([expect.stringMatching(SURE)]);
    for (const c of ['b 5', 'c', 'w', 'u', 'n', 's', 'r', 'rs', 'rn', 'rf', 'rc', 'unt']) {
      const out = await run(session, c);
      if (c.startsWith('b')) continue;
      expect(out.filter((l) => l.startsWith('model')), c).toEqual([expect.stringMatching(SURE)]);
    }
    const at = session.live.position;
    expect(await run(session, 'predict n')).toEqual([expect.stringMatching(new RegExp(`^predict n ${SURE.source}`))]);
    expect(session.live.position).toBe(at);
    expect((await run(session, 'q'))[0]).toMatch(/the model predicted \d+, \d+ right \(\d+ %\)/);
  }, 120_000);

  it("--engine neural: the stop shown is the model's, marked predicted with how sure it was", async () => {
    const model = await loadLiveModel();
    const { session, first } = await open(program('fib.py'), { engine: 'neural', model });
    expect(first[0]).toMatch(/^> prog\.py\(\d+\)\S+\(\)  \[predicted, (sure|likely|a guess) \d+ %\]$/);
    expect((await run(session, 'n')).join('\n')).toMatch(/\[predicted, (sure|likely|a guess) \d+ %\]|The model predicts/);
    expect(await run(session, 'rc')).toEqual(['*** rc needs the recording: use --engine real or both']);
    expect(await run(session, 'set n = 1')).toEqual(['*** what-if edits run the real program: use --engine real or both']);
  }, 120_000);
});
