import { describe, expect, it } from 'vitest';
import { frameArguments, frameTitle, MAX_ARG_CHARS } from './frameArgs';
import { hiddenGlobals, objectsAt, sameObjectText, shownNameText, type ShownName } from './objects';
import type { CodeInfo, Recording, TraceEvent } from './trace';

const L = (name: string): ShownName => ({ name, global: false });
const G = (name: string): ShownName => ({ name, global: true });

const code = (name: string, extra: Partial<CodeInfo> = {}): CodeInfo => ({ name, firstline: 1, lines: [1], generator: false, ...extra });

function ev(partial: Partial<TraceEvent> & Pick<TraceEvent, 'event' | 'function' | 'frame'>): TraceEvent {
  return { line: 1, depth: 0, parent: -1, code: 0, locals: {}, out: 0, ...partial };
}

function rec(events: TraceEvent[], codes: CodeInfo[] = [code('<module>')]): Recording {
  return { source: '', call: '', events, codes, stdout: '', exit: { status: 'normal' } } as unknown as Recording;
}

describe('objects shown', () => {
  it('names the globals a local of the same name hides (issue 46)', () => {
    const e = ev({ event: 'line', function: 'reset', frame: 1, depth: 1, locals: { score: '0', n: '1' }, globals: { score: '10', level: '2' } });
    const view = objectsAt(rec([e], [code('reset')]), e);
    expect(view.globals).toEqual({ score: '10', level: '2' });
    expect(hiddenGlobals(view, e.locals)).toEqual(new Set(['score']));
    // a local named like an Object.prototype member hides nothing it does not share a name with
    expect(hiddenGlobals(view, { constructor: '1' })).toEqual(new Set());
  });

  it('says which names are one object, both ways, and nothing for an equal but distinct one', () => {
    const e = ev({ event: 'line', function: '<module>', frame: 0, locals: { a: '[1, 2, 3]', b: '[1, 2, 3]', c: '[1, 2, 3]', n: '3' }, ids: { a: 1, b: 1, c: 2 } });
    const view = objectsAt(rec([e]), e);
    expect(view.sameAs).toEqual(new Map([['a', [L('b')]], ['b', [L('a')]]]));
    expect(sameObjectText(view.sameAs.get('b')!)).toBe('same object as a');
    expect(view.globals).toBeNull();
    expect(view.closure).toBeNull();
    // the heap: one object for a and b, another for c; n (an int) has no number: its value inline
    expect(view.heap.names.map((n) => [n.name, n.object])).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 2],
      ['n', null],
    ]);
    expect(view.heap.refs.map((r) => `${shownNameText(r)}->${r.object}`)).toEqual(['a->1', 'b->1', 'c->2']);
    // a recording without boxes (made before the heap graph) draws none: the names keep their values
    expect(view.heap.boxes.size).toBe(0);
  });

  it('links a parameter to the global it was called with, and marks a closure\'s variables', () => {
    const codes = [code('<module>'), code('inc', { free: ['count'], enclosing: 'make' })];
    const e = ev({
      event: 'line',
      function: 'inc',
      frame: 1,
      code: 1,
      locals: { xs: '[1]', count: '2' },
      ids: { xs: 4 },
      globals: { nums: '[1]', total: '0', copy: '[1]' },
      global_ids: { nums: 4, copy: 5 },
    });
    const view = objectsAt(rec([e], codes), e);
    expect(view.sameAs).toEqual(new Map([['xs', [G('nums')]]]));
    expect(sameObjectText(view.sameAs.get('xs')!)).toBe('same object as nums (global)');
    expect(view.globalSameAs).toEqual(new Map([['nums', [L('xs')]]]));
    expect(view.heap.names.map((n) => `${shownNameText(n)}->${n.object}`)).toEqual(['xs->4', 'count->null', 'nums (global)->4', 'total (global)->null', 'copy (global)->5']);
    expect(view.globals).toEqual({ nums: '[1]', total: '0', copy: '[1]' });
    expect(view.closure).toEqual({ names: ['count'], enclosing: 'make' });
  });
});

describe('frames with their arguments', () => {
  it('names each live frame with its parameters and their values now, the module by its name', () => {
    const codes = [code('<module>'), code('fact'), code('gen', { generator: true, free: ['k'] })];
    const long = `'${'x'.repeat(40)}'`;
    const events = [
      ev({ event: 'call', function: '<module>', frame: 0 }),
      ev({ event: 'call', function: 'fact', frame: 1, code: 1, depth: 1, locals: { n: '6' } }),
      ev({ event: 'line', function: 'fact', frame: 1, code: 1, depth: 1, locals: { n: '5' } }),
      ev({ event: 'call', function: 'fact', frame: 2, code: 1, depth: 2, locals: { n: '5' } }),
      ev({ event: 'call', function: 'gen', frame: 3, code: 2, depth: 3, locals: { s: long, k: '1' } }),
      ev({ event: 'call', function: 'gen', frame: 3, code: 2, depth: 3, locals: { s: long, k: '1', i: '0' }, resume: true }),
    ];
    const args = frameArguments(rec(events, codes), 5);
    // a parameter's value now, as Variables shows it (here the function rebound n)
    expect(frameTitle('fact', args.get(1))).toBe('fact(n=5)');
    expect(frameTitle('fact', args.get(2))).toBe('fact(n=5)');
    expect(args.get(3)).toBe(`s=${long.slice(0, MAX_ARG_CHARS - 1)}…`);
    expect(frameTitle('<module>', args.get(0))).toBe('<module>');
    // a caller's list, appended to by its callee since its own last stop, reads as it is now
    const list = [
      ev({ event: 'call', function: 'walk', frame: 1, code: 1, locals: { seen: '[]' }, ids: { seen: 9 } }),
      ev({ event: 'line', function: 'walk', frame: 1, code: 1, locals: { seen: '[1]' }, ids: { seen: 9 } }),
      ev({ event: 'call', function: 'walk', frame: 2, code: 1, depth: 1, locals: { seen: '[1]' }, ids: { seen: 9 } }),
      ev({ event: 'line', function: 'walk', frame: 2, code: 1, depth: 1, locals: { seen: '[1, 2]' }, ids: { seen: 9 } }),
    ];
    const walk = frameArguments(rec(list, [code('<module>'), code('walk')]), 3);
    expect([walk.get(1), walk.get(2)]).toEqual(['seen=[1, 2]', 'seen=[1, 2]']);
    // a frame not called yet at that position has no arguments
    expect(frameArguments(rec(events, codes), 2).has(2)).toBe(false);
  });
});
