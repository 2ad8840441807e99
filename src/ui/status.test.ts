// The status line's words, as pure functions of a snapshot of the session: what wins when several
// things are true at once.

import { describe, expect, it } from 'vitest';
import { stateAt } from '../core/state';
import type { ExitInfo, Recording, TraceEvent } from '../core/trace';
import { statusKind, statusNote, statusText, type StatusInput } from './status';

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
      'The code or the call changed: the next action runs the program again.',
    );
    // Not while a run is in progress or a link waits.
    expect(statusNote(at(rec, 1, { dirty: true, busy: true }))).toBeNull();
    expect(statusNote(at(rec, 1, { dirty: true, sharedPending: true }))).toBeNull();
  });

  it('names a run cut short before the edits in force, and the edits before a condition that raised', () => {
    const cut = recording([event(1), event(2)], { status: 'budget', message: 'Stopped: the event budget is used up' });
    expect(statusNote(at(cut, 1, { edits: [{ at: 0, name: 'n', expr: '4' }] }))).toMatch(/^This run was cut short: Stopped: the event budget/);
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
  it('is an error for failures and abnormal ends, done at a normal end, else info', () => {
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
