import { describe, expect, it } from 'vitest';
import { asksForInput, inputLineStop, inputWaitStop, withInputLine } from './liveInput';
import type { Recording, TraceEvent } from './trace';

const ev = (event: TraceEvent['event'], line: number, frame: number): TraceEvent => ({ event, line, function: 'f', depth: frame, frame, parent: -1, code: 0, locals: {}, out: 0 });

// `def ask(): return input()` called from line 4: line 4, call ask, line 2 (input() runs out), exception in ask
const rec = {
  source: '',
  call: '',
  codes: [],
  stdout: '',
  events: [ev('call', 0, 0), ev('line', 4, 0), ev('call', 1, 1), ev('line', 2, 1), ev('exception', 2, 1), ev('return', 2, 1), ev('exception', 4, 0)],
  exit: { status: 'exception' },
  input_wanted: { at: 4, prompt: 'Name? ' },
} as unknown as Recording;

describe('input() typed live', () => {
  it('asks from the stop where input() ran out on, not before', () => {
    expect(asksForInput(rec, 3)).toBe(false);
    expect(asksForInput(rec, 4)).toBe(true);
    expect(asksForInput(rec, 7)).toBe(true);
    expect(asksForInput({ ...rec, input_wanted: undefined } as Recording, 7)).toBe(false);
  });

  it('goes back to the line that called input(), in the frame that called it', () => {
    expect(inputLineStop(rec, 4)).toBe(3);
    // input() in the module's own line, after a call on the same line: its line event, not the call's return
    const sameLine = { ...rec, events: [ev('line', 1, 0), ev('call', 5, 1), ev('return', 6, 1), ev('exception', 1, 0)] } as Recording;
    expect(inputLineStop(sameLine, 3)).toBe(0);
  });

  it('waits at the line that calls input() when a move would pass it, never at the EOFError (issue 46)', () => {
    // Step over at the module's line 4 (position 1) would stop at the exception in the module (6)
    expect(inputWaitStop(rec, 1, 6)).toBe(3);
    // Step into from ask's line (3), which calls input(): it waits where it stands
    expect(inputWaitStop(rec, 3, 4)).toBe(3);
    // a move that stops before input() is called, or one from past it, is not held
    expect(inputWaitStop(rec, 1, 2)).toBeNull();
    expect(inputWaitStop(rec, 4, 6)).toBeNull();
    expect(inputWaitStop({ ...rec, input_wanted: undefined } as Recording, 1, 6)).toBeNull();
  });

  it('adds the typed line to the input, one line per input() call', () => {
    expect(withInputLine('', 'Ada')).toBe('Ada\n');
    expect(withInputLine('Ada', '36')).toBe('Ada\n36\n');
    expect(withInputLine('Ada\n', 'x\ny')).toBe('Ada\nx y\n');
  });
});
