// Names a program chose never meet a plain object's prototype (issue 44): a plain Python program
// whose locals are called `constructor`, `toString`, `valueOf` and `hasOwnProperty` (a class body's
// attributes and a Java-style method among them), a local and a global called `g (global)`, and a
// `__proto__` read back from JSON, recorded by the real engine. Each builder of what the views,
// the model's side and the terminal show takes them as data.

import { beforeAll, describe, expect, it } from 'vitest';
import { recordPrototypeNames, withProtoLocal } from '../testing/prototypeNames';
import { guessedCallMaker } from './callBuilder';
import { compareStates, diffLocals } from './compare';
import { confidenceOf, stateScores } from './confidence';
import { frameArguments, frameTitle } from './frameArgs';
import { parseState, renderState, type ParsedState } from './format';
import { objectsAt, sameObjectText, shownNameKey, type ShownName } from './objects';
import { sourceLines } from './sourceLines';
import { changedLocals, eventState, stateAt, type EventState } from './state';
import { jsonLine, oneLine, safeLines, visibleText } from './terminalText';
import type { Recording } from './trace';
import { EditError, EditHistory } from './whatIf';

let rec: Recording;
beforeAll(async () => {
  rec = await recordPrototypeNames();
}, 120_000);

const L = (name: string): ShownName => ({ name, global: false });
const G = (name: string): ShownName => ({ name, global: true });

/** The position of the first event of `fn` at `line` (of kind `event`). */
function at(fn: string, line: number, event = 'line'): number {
  const pos = rec.events.findIndex((e) => e.function === fn && e.line === line && e.event === event);
  if (pos < 0) throw new Error(`no ${event} event of ${fn} at line ${line}`);
  return pos;
}

type StopState = Extract<ParsedState, { line: number }>;

/** A state as the model would write it, read back by the format's parser. */
function modelState(state: { event: 'line' | 'call'; line: number; locals: Record<string, string> }): StopState {
  const parsed = parseState(renderState(sourceLines(rec.source), state));
  if ('unparseable' in parsed || parsed.event === 'exit' || parsed.event === 'entry') throw new Error(`not a stop: ${JSON.stringify(parsed)}`);
  return parsed;
}

describe('names a plain object has on its prototype', () => {
  it('are recorded as locals: a class body\'s attributes and method, a function\'s variables, f_locals\' and globals()\' names', () => {
    expect(Object.keys(rec.events[at('Thing', 6, 'return')]!.locals)).toEqual(['constructor', 'valueOf', 'toString']);
    expect(rec.events[at('show', 14)]!.locals).toEqual({ constructor: '[1]', valueOf: '[[1]]', hasOwnProperty: '[[1]]', 'g (global)': '[[1]]' });
    // with the module's `constructor` and `toString`, which show's parameters of those names hide (issue 46)
    expect(rec.events[at('show', 14)]!.globals).toEqual({ g: '[1]', 'g (global)': '[1]', constructor: 'Thing()', toString: "'thing'" });
    expect(rec.exit.status).toBe('normal');
  });

  it('objects: a name no other name shares has no note, and a local is told from a global by a field, not by its text', () => {
    for (const e of rec.events) {
      const view = objectsAt(rec, e);
      for (const name of Object.keys(e.locals)) {
        const same = view.sameAs.get(name);
        if (same !== undefined) expect(same.every((n) => typeof n.name === 'string' && typeof n.global === 'boolean')).toBe(true);
      }
      // the heap view's keys: one per shown name, even for a local named like a global's label
      const keys = view.heap.refs.map(shownNameKey);
      expect(new Set(keys).size).toBe(keys.length);
    }
    const body = objectsAt(rec, rec.events[at('Thing', 6, 'return')]!);
    expect([...body.sameAs.keys()]).toEqual([]);
    expect(body.sameAs.get('constructor')).toBeUndefined();

    const view = objectsAt(rec, rec.events[at('show', 14)]!);
    expect(view.sameAs.get('constructor')).toEqual([G('g'), G('g (global)')]);
    expect(view.sameAs.get('valueOf')).toEqual([L('hasOwnProperty'), L('g (global)')]);
    expect(view.sameAs.get('toString')).toBeUndefined();
    expect(view.globalSameAs.get('g')).toEqual([L('constructor'), G('g (global)')]);
    expect(sameObjectText(view.sameAs.get('constructor')!)).toBe('same object as g (global), g (global) (global)');
    const refs = view.heap.refs.map(({ name, global }) => ({ name, global }));
    expect(refs).toEqual([L('constructor'), L('valueOf'), L('hasOwnProperty'), L('g (global)'), G('g'), G('g (global)'), G('constructor')]);
    // the local `g (global)` is on the list the function's own list is on, not the module's g
    const ids = new Map(view.heap.refs.map((r) => [shownNameKey(r), r.object]));
    expect(ids.get('l:g (global)')).toBe(ids.get('l:valueOf'));
    expect(ids.get('l:g (global)')).not.toBe(ids.get('g:g'));
    // the Globals group is a field of its own, never a key among the locals
    expect(view.globals).toEqual({ g: '[1]', 'g (global)': '[1]', constructor: 'Thing()', toString: "'thing'" });
  });

  it('a `__proto__` read back from JSON is one more local: shown, compared, never a prototype', () => {
    const read = withProtoLocal(rec, 'show');
    const pos = at('show', 14);
    const state = eventState(read, read.events[pos]!);
    expect(Object.keys(state.locals)).toEqual(['constructor', 'valueOf', 'hasOwnProperty', 'g (global)', '__proto__']);
    expect(Object.prototype.hasOwnProperty.call(state.locals, '__proto__')).toBe(true);
    const view = objectsAt(read, read.events[pos]!);
    expect(view.sameAs.get('__proto__')).toBeUndefined();
    // unchanged from the stop before: not marked
    expect(changedLocals(read, pos, at('show', 13))).toEqual(new Set());
    // the model's text keeps it, and the comparison sees it as one of the locals
    const predicted = modelState({ event: 'line', line: 14, locals: state.locals });
    expect(predicted.locals).toEqual(state.locals);
    expect(compareStates(state, predicted, 'forward').match).toBe(true);
  });

  it('frame arguments: a parameter the function deleted is no argument, whatever its name', () => {
    const pos = at('show', 14);
    const frame = rec.events[pos]!.frame;
    expect(frameTitle('show', frameArguments(rec, pos).get(frame))).toBe('show(constructor=[1])');
    expect(frameTitle('show', frameArguments(rec, at('show', 10)).get(frame))).toBe("show(constructor=[1], toString='thing')");
  });

  it('compare: a local the model left out is missing and one it made up is extra, whatever their names', () => {
    const real = stateAt(rec, at('show', 11)) as EventState;
    expect(Object.keys(real.locals)).toEqual(['constructor', 'toString', 'valueOf']);
    const predicted = modelState({ event: 'line', line: 11, locals: JSON.parse('{"constructor":"[1]","valueOf":"[[1]]","__proto__":"\'p\'"}') as Record<string, string> });
    // a name the model never wrote is not found in its locals
    expect(predicted.locals!.toString).toBeUndefined();
    expect(predicted.locals!.hasOwnProperty).toBeUndefined();
    expect(diffLocals(real.locals, predicted.locals)).toEqual({
      wrong: [],
      missing: [{ name: 'toString', real: "'thing'" }],
      extra: [{ name: '__proto__', predicted: "'p'" }],
    });
    expect(compareStates(real, predicted, 'forward').fields.locals).toBe(false);
    expect(compareStates(real, modelState({ event: 'line', line: 11, locals: real.locals }), 'forward').fields.locals).toBe(true);
  });

  it('confidence: each local the model wrote has its own score, `__proto__` and `constructor` included', () => {
    const state = modelState({ event: 'line', line: 14, locals: JSON.parse('{"constructor":"[1]","__proto__":"\'p\'"}') as Record<string, string> });
    const scores = stateScores(
      [
        { part: 'position', logp: -0.5 },
        { part: { entry: 0 }, logp: -0.25 },
        { part: { entry: 1 }, logp: -1 },
      ],
      ['constructor', '__proto__'],
      state,
    );
    expect(Object.keys(scores.locals)).toEqual(['constructor', '__proto__']);
    expect(Object.entries(scores.locals)).toEqual([
      ['constructor', -0.25],
      ['__proto__', -1],
    ]);
    const c = confidenceOf(scores);
    expect(Object.keys(c.locals)).toEqual(['constructor', '__proto__']);
    expect(c.locals.toString).toBeUndefined();
    expect(JSON.stringify(c.locals)).toBe(JSON.stringify({ constructor: Math.exp(-0.25), ['__proto__']: Math.exp(-1) }));
  });

  it('guessed inputs: a parameter the model did not predict leaves no call, even one called toString', () => {
    const make = guessedCallMaker(rec, at('show', 14, 'return'));
    expect(make(modelState({ event: 'call', line: 9, locals: { constructor: '[1]' } }))).toBeNull();
    expect(make(modelState({ event: 'call', line: 9, locals: { constructor: '[1]', toString: "'thing'" } }))).toBe("show([1], 'thing')");
  });

  it('what-if: a name that is not a local of the frame cannot be edited, even one called toString', () => {
    const history = new EditHistory(rec);
    expect(() => history.editsFor(at('show', 14), 'toString', '1')).toThrow(EditError);
    expect(() => history.editsFor(at('show', 14), 'toString', '1')).toThrow(/'toString' is not a local of show\(\)/);
    expect(history.editsFor(at('show', 14), 'valueOf', '1')).toEqual([{ at: at('show', 14), name: 'valueOf', expr: '1' }]);
  });

  it('text: bidirectional and invisible characters are escaped in the terminal and on the page, newlines and joiners kept', () => {
    expect(rec.stdout).toBe('before \u202edesrever\u202c after\n');
    expect(visibleText(rec.stdout)).toBe('before \\u202edesrever\\u202c after\n');
    expect(safeLines(rec.stdout)).toBe('before \\u202edesrever\\u202c after\n');
    const marks = '\u200e\u200f\u061c\u2066\u2069\u200b\u2060\ufeff\u00ad';
    expect(oneLine(marks)).toBe('\\u200e\\u200f\\u061c\\u2066\\u2069\\u200b\\u2060\\ufeff\\xad');
    expect(visibleText(`a\t${marks}\nb`)).toBe('a\t\\u200e\\u200f\\u061c\\u2066\\u2069\\u200b\\u2060\\ufeff\\xad\nb');
    expect(jsonLine({ out: '\u200f\u061c' })).toBe('{"out":"\\u200f\\u061c"}');
    // the joiners that scripts and emoji need stay as they are
    expect(visibleText('👩\u200d💻 \u0645\u200c\u06cc')).toBe('👩\u200d💻 \u0645\u200c\u06cc');
  });
});
