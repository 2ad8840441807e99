// The status line's words, as pure functions of a snapshot of the session: what wins when several
// things are true at once.

import { describe, expect, it } from 'vitest';
import { stateAt } from '../core/state';
import type { ExitInfo, Recording, TraceEvent } from '../core/trace';
import { INPUT_ASKED, statusKind, statusNote, statusText, type StatusInput } from './status';

function event(line: number, extra: Partial<TraceEvent> = {}): TraceEvent {
  return { event: 'line', line, function: 'f', depth: 0, frame: 1, parent: -1, code: 0, locals: { n: '3' }, out: 0, ...extra };
}

function recording(events: TraceEvent[], exit: ExitInfo = { status: 'normal', value: '6' }): Recording {
  return { source: 'def f(n):\n    return n * 2\n', call: 'f(3)', events, codes: [], stdout: '', exit };
}

/** A session stopped at `position` of `rec`, nothing else going on. */
function at(rec: Recording, position: number, extra: Partial<StatusInput> = {}): StatusInput {
  return {
    engine: 'ready',
    error: null,
    busy: false,
    sharedPending: false,
    recording: rec,
    state: stateAt(rec, position),
    position,
    dirty: false,
    interruptible: true,
    edits: [],
    breakpoints: [],
    ...extra,
  };
}

const rec = recording([event(1, { event: 'call' }), event(2), event(2, { event: 'return', value: '6' })]);
const idle: StatusInput = { ...at(rec, 0), recording: null, state: null };

describe('statusText', () => {
  it('says where the debugger stands', () => {
    expect(statusText(at(rec, 0))).toBe('call of f (line 1)');
    expect(statusText(at(rec, 1))).toBe('line 2 in f');
    expect(statusText(at(rec, 2))).toBe('f returns 6 (line 2)');
    expect(statusText(at(rec, 3))).toBe('Program finished: returned 6');
    expect(statusText(at(rec, -1))).toMatch(/^At the entry/);
  });

  it('puts the engine first, then a run in progress, then a link waiting for consent', () => {
    expect(statusText({ ...idle, engine: 'loading' })).toBe('Loading Python (Pyodide)…');
    expect(statusText({ ...idle, engine: 'failed' })).toMatch(/could not be loaded/);
    expect(statusText({ ...idle, engine: 'failed', error: 'no wasm' })).toBe('no wasm');
    // A failure while the worker is being replaced says so.
    expect(statusText({ ...at(rec, 1), engine: 'loading', error: 'Stopped.' })).toBe('Stopped. Restarting Python…');
    expect(statusText({ ...at(rec, 1), error: 'Stopped.' })).toBe('Stopped.');
    expect(statusText({ ...at(rec, 1), busy: true, sharedPending: true })).toBe('Running the program… (Stop ends it)');
    expect(statusText({ ...idle, sharedPending: true })).toMatch(/^Shared code is shown but has not run/);
    expect(statusText({ ...idle, sharedPending: true, unfinished: true })).toMatch(/^The last run of this code did not finish, so it was not run again\. Press "Run it again"/);
    expect(statusText(idle)).toBe('Press Step into to start.');
  });
});

describe('statusNote', () => {
  const isolation = /not cross-origin isolated/;

  it('is empty at a plain stop, and says when the page is not cross-origin isolated', () => {
    expect(statusNote(at(rec, 1))).toBeNull();
    expect(statusNote(at(rec, 1, { interruptible: false }))).toMatch(isolation);
    // Before the engine has loaded nothing is known about it.
    expect(statusNote({ ...idle, engine: 'loading', interruptible: null })).toBeNull();
    expect(statusNote({ ...idle, engine: 'loading', interruptible: false })).toMatch(isolation);
  });

  it('warns that the next action runs again when the code changed', () => {
    expect(statusNote(at(rec, 1, { dirty: true, edits: [{ at: 1, name: 'n', expr: '4' }] }))).toBe(
      'The code, the call or the input changed: the next action runs the program again.',
    );
    // Not while a run is in progress or a link waits.
    expect(statusNote(at(rec, 1, { dirty: true, busy: true }))).toBeNull();
    expect(statusNote(at(rec, 1, { dirty: true, sharedPending: true }))).toBeNull();
  });

  it('names a run cut short before the edits in force, and the edits before a condition that raised', () => {
    const cut = recording([event(1), event(2)], { status: 'budget', message: 'Stopped: the event budget is used up' });
    expect(statusNote(at(cut, 1, { edits: [{ at: 0, name: 'n', expr: '4' }] }))).toBe('This run was cut off at event 2 (the event budget): you can step through what was recorded.');
    // At the exit the status line says it already.
    expect(statusNote(at(cut, 2))).toBeNull();
    const raised = recording([event(1), event(2, { hit: true, hit_error: 'NameError' })]);
    const edits = [{ at: 0, name: 'n', expr: '4' }, { at: 1, name: 'm', expr: "'x'" }];
    expect(statusNote(at(raised, 1, { edits, breakpoints: [2] }))).toBe("What if: n = 4, m = 'x' (step back before the edit to undo it).");
    expect(statusNote(at(raised, 1, { breakpoints: [2] }))).toBe(
      'The condition of the breakpoint at line 2 raised NameError: stopped here, as pdb does.',
    );
    // The breakpoint has been removed since.
    expect(statusNote(at(raised, 1))).toBeNull();
  });
});

describe('statusKind', () => {
  it('is an error for failures and abnormal ends, stopped for a run cut off, done at a normal end, else info', () => {
    expect(statusKind(at(recording([event(1)], { status: 'budget' }), 1))).toBe('stopped');
    expect(statusKind(at(recording([event(1)], { status: 'timeout' }), 1))).toBe('stopped');
    expect(statusKind(at(rec, 1))).toBe('info');
    expect(statusKind(at(rec, 3))).toBe('done');
    expect(statusKind(at(recording([], { status: 'exception', message: 'ZeroDivisionError' }), 0))).toBe('error');
    expect(statusKind(at(rec, 3, { busy: true }))).toBe('info');
    expect(statusKind(at(rec, 1, { error: 'Stopped.' }))).toBe('error');
    expect(statusKind({ ...idle, engine: 'failed' })).toBe('error');
  });
});

describe('a run stopped by restarting Python', () => {
  it('says who stopped it and that Restart runs it again, once Python is back', () => {
    expect(statusText({ ...idle, halted: 'user', engine: 'loading' })).toBe('Stopped as you asked: Python was restarted. Restarting Python…');
    expect(statusText({ ...idle, halted: 'user' })).toBe('Stopped as you asked: Python was restarted. Press Restart to run the program again.');
    const error = 'The program did not stop when asked to, so the Python engine was restarted.';
    expect(statusText({ ...idle, halted: 'limit', error })).toBe(`${error} Press Restart to run the program again.`);
  });
});

describe('Python loading', () => {
  it('says how far the start has come', () => {
    expect(statusText({ ...idle, engine: 'loading', loadStage: 'restoring' })).toBe('Loading Python (Pyodide): restoring the interpreter saved on your last visit…');
    expect(statusText({ ...idle, engine: 'loading', loadStage: 'starting' })).toMatch(/first visit takes longest/);
    expect(statusText({ ...idle, engine: 'loading', loadStage: null })).toBe('Loading Python (Pyodide)…');
  });
});

describe("Python's words for generators", () => {
  const gen = {
    ...recording([
      event(1, { event: 'call', function: 'countdown' }),
      event(3, { event: 'return', function: 'countdown', value: '3', yield: true }),
      event(3, { event: 'call', function: 'countdown', resume: true }),
      event(2, { event: 'return', function: 'countdown', value: 'None' }),
    ]),
    source: 'def countdown(n):\n    while n > 0:\n        yield n\n',
  };

  it('says a generator yields and resumes, never that it returns at a yield', () => {
    expect(statusText(at(gen, 0))).toBe('call of countdown (line 1)');
    expect(statusText(at(gen, 1))).toBe('countdown yields 3 (line 3)');
    expect(statusText(at(gen, 1))).not.toMatch(/return/);
    expect(statusText(at(gen, 2))).toBe('countdown resumes after its yield (line 3)');
    // The return that ends it is a return.
    expect(statusText(at(gen, 3))).toBe('countdown returns None (line 2)');
  });

  it('says a coroutine awaits', () => {
    const co = { ...gen, source: 'async def countdown(n):\n    pass\n    await sleep(n)\n' };
    expect(statusText(at(co, 1))).toBe('countdown awaits, suspended (line 3)');
    expect(statusText(at(co, 2))).toBe('countdown resumes after its await (line 3)');
  });
});

describe('the end of a run', () => {
  const loop = (n: number, locals: (i: number) => Record<string, string>) =>
    Array.from({ length: n }, (_, i) => event(2 + (i % 2), { function: '<module>', locals: locals(i) }));

  it('calls a run cut off by a limit cut off, where it was, and whether it may still finish', () => {
    const counting = recording(loop(10_000, (i) => ({ i: String(i >> 1) })), { status: 'budget', message: 'Stopped after 10000 events' });
    expect(statusText(at(counting, 10_000))).toBe(
      'The run was cut off at event 10,000 in <module>, line 3 (the event budget of 10,000). It may still finish: raise the limit.',
    );
    const raised = statusText(at(counting, 10_000, { limits: { maxEvents: 100_000, timeLimit: 8 } }));
    expect(raised).toMatch(/event budget of 100,000/);
    const spinning = recording(loop(10_000, () => ({ i: '1' })), { status: 'budget' });
    expect(statusText(at(spinning, 10_000))).toMatch(/Line 3 came back with the same values: this looks like an endless loop\.$/);
    const slow = recording(loop(40, (i) => ({ i: String(i) })), { status: 'timeout', message: 'Stopped after 8 s (the time limit)' });
    expect(statusText(at(slow, 40))).toMatch(/^The run was cut off at event 40 in <module>, line 3 \(the time limit of 8 s\)\. It may still finish/);
    const stopped = recording(loop(3, (i) => ({ i: String(i) })), { status: 'timeout', message: 'Stopped as you asked' });
    expect(statusText(at(stopped, 3))).toBe('Stopped as you asked, at event 3 in <module>, line 2.');
    expect(statusNote(at(stopped, 0))).toBe('Stopped as you asked at event 3: you can step through what was recorded.');
  });

  it('writes an exception as a traceback does, not as its repr', () => {
    const raised = recording([event(2, { event: 'exception', value: "ValueError('bad value')" }), event(2, { event: 'return', raising: true, value: "ValueError('bad value')" })]);
    expect(statusText(at(raised, 0))).toBe('exception at line 2 in f: ValueError: bad value');
    expect(statusText(at(raised, 1))).toBe('f stops at line 2 because of an exception, which goes on to its caller: ValueError: bad value');
  });

  it('says where input() reads from when it ran out, and how deep a recursion went', () => {
    const eof = recording([event(1)], { status: 'exception', exc_type: 'EOFError', message: 'EOFError: EOF when reading a line' });
    expect(statusText(at(eof, 1))).toBe(
      'Program ended with an uncaught exception: EOFError: EOF when reading a line. input() found no more lines in the Input field (one line per input() call).',
    );
    // where the debugger has reached that input(), the note says where to type the line
    const asking = { ...eof, input_wanted: { at: 1, prompt: 'Name? ' } };
    expect(statusNote(at(asking, 0))).not.toBe(INPUT_ASKED);
    expect(statusNote(at(asking, 1))).toBe(INPUT_ASKED);
    // waiting at the line that calls input(): says so, with no exception in sight
    expect(statusText(at(asking, 0, { inputWaiting: true }))).toBe('line 1 in f: waiting for input');
    expect(statusNote(at(asking, 0, { inputWaiting: true }))).toBe(INPUT_ASKED);
    expect(statusKind(at(asking, 0, { inputWaiting: true }))).toBe('info');
    expect(statusNote(at(asking, 1, { dirty: true }))).toMatch(/changed/);
    const deep = recording([event(1, { depth: 0 }), event(2, { depth: 996, function: 'down' })], { status: 'exception', exc_type: 'RecursionError', message: 'RecursionError: maximum recursion depth exceeded' });
    expect(statusText(at(deep, 2))).toMatch(/\(after 997 nested calls, the deepest of down at line 2\)$/);
  });
});

describe('no spoilers (issue 46)', () => {
  const module = (events: TraceEvent[], exit: ExitInfo): Recording => ({ ...recording(events, exit), call: '' });
  const ev = (e: TraceEvent['event'], line: number, extra: Partial<TraceEvent> = {}) => event(line, { event: e, function: '<module>', locals: {}, ...extra });

  it('says where the run is at every stop before the end, never how it ends', () => {
    const fails = module([ev('call', 0), ev('line', 1), ev('exception', 1, { value: "ZeroDivisionError('division by zero')" }), ev('return', 1, { raising: true, value: "ZeroDivisionError('division by zero')" })], {
      status: 'exception',
      exc_type: 'ZeroDivisionError',
      message: 'ZeroDivisionError: division by zero',
    });
    for (const pos of [0, 1]) {
      expect(statusText(at(fails, pos))).not.toMatch(/ZeroDivisionError|exception|ends/);
      expect(statusNote(at(fails, pos))).toBeNull();
    }
    expect(statusText(at(fails, 2))).toBe('exception at line 1 in <module>: ZeroDivisionError: division by zero');
    expect(statusText(at(fails, 3))).toBe('the module stops at line 1: nothing caught the exception ZeroDivisionError: division by zero');
    expect(statusText(at(fails, 4))).toMatch(/^Program ended with an uncaught exception: ZeroDivisionError/);
  });

  it('says the end of the module in plain words', () => {
    const ends = module([ev('call', 0), ev('line', 1), ev('return', 1, { value: 'None' })], { status: 'normal' });
    expect(statusText(at(ends, 2))).toBe('end of the module (line 1): its last line has run');
    expect(statusText(at(ends, 2))).not.toMatch(/<module>|None/);
  });

  it('says where a RecursionError that stopped the tracer is raised, and only there', () => {
    const deep = module([ev('call', 0), ev('line', 4), event(1, { event: 'call', function: 'fact', depth: 1 }), event(2, { function: 'fact', depth: 1 })], {
      status: 'exception',
      exc_type: 'RecursionError',
      message: 'RecursionError: maximum recursion depth exceeded',
    });
    expect(statusText(at(deep, 1))).toBe('line 4 in <module>');
    expect(statusNote(at(deep, 0))).toBeNull();
    expect(statusText(at(deep, 3))).toBe('line 2 in fact, 2 calls deep: the call on this line raises RecursionError: maximum recursion depth exceeded');
  });
});
