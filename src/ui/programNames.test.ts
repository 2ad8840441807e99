// What the panels are built from, for a program whose names a plain object has on its prototype
// (`constructor`, `toString`, `valueOf`, `hasOwnProperty`), with a local and a global called
// `g (global)` and a `__proto__` read back from JSON (issue 44): the stop's view (objects, frames'
// arguments, changed globals), the heap's layout, the mismatch's words and Predict first's answer.

import { beforeAll, describe, expect, it } from 'vitest';
import { compareStates } from '../core/compare';
import { parseState, renderState, type ParsedState } from '../core/format';
import { shownNameKey } from '../core/objects';
import { sourceLines } from '../core/sourceLines';
import { stateAt, type EventState } from '../core/state';
import type { Recording } from '../core/trace';
import { recordPrototypeNames, withProtoLocal } from '../testing/prototypeNames';
import { heapLayout } from './heapLayout';
import { explainMismatch, localsDiff } from './mismatch';
import { modelValueText, valueMatches } from './predictFirst';
import { StopView } from './stopView.svelte';

let rec: Recording;
beforeAll(async () => {
  rec = await recordPrototypeNames();
}, 120_000);

function at(r: Recording, fn: string, line: number, event = 'line'): number {
  const pos = r.events.findIndex((e) => e.function === fn && e.line === line && e.event === event);
  if (pos < 0) throw new Error(`no ${event} event of ${fn} at line ${line}`);
  return pos;
}

function view(r: Recording, position: number): StopView {
  return new StopView({ recording: r, position, watches: [], recordedWatches: [] });
}

function modelState(state: { event: 'line'; line: number; locals: Record<string, string> }): ParsedState {
  const parsed = parseState(renderState(sourceLines(rec.source), state));
  if ('unparseable' in parsed) throw new Error(parsed.unparseable);
  return parsed;
}

describe('the panels, for names a plain object has on its prototype', () => {
  it('builds every stop\'s view, with one key per shown name in the heap', () => {
    for (let pos = -1; pos <= rec.events.length; pos++) {
      const v = view(rec, pos);
      const keys = v.objects.heap.refs.map(shownNameKey);
      expect(new Set(keys).size).toBe(keys.length);
      for (const [, same] of v.objects.sameAs) expect(Array.isArray(same)).toBe(true);
      void v.frameArgs;
      void v.changed;
    }
    const body = view(rec, at(rec, 'Thing', 6, 'return'));
    expect(body.objects.sameAs.get('constructor')).toBeUndefined();
    expect(body.objects.sameAs.get('toString')).toBeUndefined();
    const show = view(rec, at(rec, 'show', 14));
    expect(show.objects.heap.refs.map((r) => `${r.global ? 'global ' : ''}${r.name}`)).toEqual([
      'constructor',
      'valueOf',
      'hasOwnProperty',
      'g (global)',
      'global g',
      'global g (global)',
      // the module's `constructor`, hidden by show's parameter of that name, is shown as a global (issue 46)
      'global constructor',
    ]);
    expect(show.frameArgs.get(rec.events[at(rec, 'show', 14)]!.frame)).toBe('constructor=[1]');
  });

  it('marks a global changed only when its value changed, `constructor` and `__proto__` included', () => {
    const read = withProtoLocal(rec, 'show');
    const v = view(read, at(read, 'show', 14));
    v.movedTo(read, at(read, 'show', 13));
    v.movedTo(read, at(read, 'show', 14));
    expect(v.changed).toEqual(new Set());
    expect(v.changedGlobals).toEqual(new Set());
    expect(Object.keys((v.state as EventState).locals)).toContain('__proto__');
  });

  it('lays out the heap with a row per name: the local `g (global)` and the global `g (global)` are two', () => {
    const heap = view(rec, at(rec, 'show', 14)).objects.heap;
    const layout = heapLayout(heap);
    const names = layout.names.parts.filter((p) => p.kind === 'name');
    expect(names.map((p) => `${p.global ? 'global ' : ''}${p.text}`)).toEqual([
      'constructor',
      'valueOf',
      'hasOwnProperty',
      'g (global)',
      'global g',
      'global g (global)',
      'global constructor',
      // a string: its value inline, no arrow
      'global toString',
    ]);
    // constructor → the module's g; valueOf, hasOwnProperty, the local g (global) → one list; the
    // module's constructor (hidden by the parameter) → its Thing, whose class holds attributes
    // called constructor and valueOf
    const [g, outer, thing, cls] = [1, 2, 3, 4].map((k) => layout.boxes[k - 1]!);
    expect(layout.boxes.map((b) => b.title)).toEqual(['list', 'list', 'Thing instance', 'Thing class']);
    expect(layout.arrows.map((a) => [a.from, a.to])).toEqual([
      ['constructor', g!.id],
      ['valueOf', outer!.id],
      ['hasOwnProperty', outer!.id],
      ['g (global)', outer!.id],
      ['g', g!.id],
      ['g (global)', g!.id],
      ['constructor', thing!.id],
      ['valueOf[0]', g!.id],
      ['type(constructor)', cls!.id],
    ]);
    expect(cls!.parts.filter((p) => p.kind === 'key').map((p) => p.text)).toEqual(['constructor', 'valueOf', 'toString']);
    expect(cls!.parts.filter((p) => p.kind === 'value').map((p) => p.text)).toEqual(['1', '2', '<function toString>']);
  });

  it('says which local the model left out or made up, by name, whatever the name', () => {
    const real = stateAt(rec, at(rec, 'show', 11)) as EventState;
    const state = modelState({ event: 'line', line: 11, locals: JSON.parse('{"constructor":"[1]","valueOf":"[[1]]","__proto__":"\'p\'"}') as Record<string, string> });
    const explained = { state, real, comparison: compareStates(real, state, 'forward'), text: '', inverse: false };
    expect(localsDiff(explained)).toEqual({ wrong: [], missing: [{ name: 'toString', real: "'thing'" }], extra: [{ name: '__proto__', predicted: "'p'" }] });
    expect(explainMismatch(explained)).toEqual(["Locals: toString ('thing') is missing; the model added __proto__ = 'p'."]);
  });

  it('Predict first: a variable the model did not predict is "not predicted", even toString', () => {
    const real = stateAt(rec, at(rec, 'show', 11));
    const state = modelState({ event: 'line', line: 11, locals: { constructor: '[1]' } });
    expect(modelValueText(state, 'toString = 1')).toBe('toString not predicted');
    expect(modelValueText(state, 'constructor = 1')).toBe('constructor = [1]');
    expect(valueMatches(real, "toString = 'thing'")).toBe(true);
    expect(valueMatches(real, 'hasOwnProperty = 1')).toBe(false);
  });
});
