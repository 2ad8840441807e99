import { describe, expect, it } from 'vitest';
import { frameArguments, frameTitle, MAX_ARG_CHARS } from './frameArgs';
import { objectsAt, sameObjectText } from './objects';
import type { CodeInfo, Recording, TraceEvent } from './trace';

const code = (name: string, extra: Partial<CodeInfo> = {}): CodeInfo => ({ name, firstline: 1, lines: [1], generator: false, ...extra });

function ev(partial: Partial<TraceEvent> & Pick<TraceEvent, 'event' | 'function' | 'frame'>): TraceEvent {
  return { line: 1, depth: 0, parent: -1, code: 0, locals: {}, out: 0, ...partial };
}

function rec(events: TraceEvent[], codes: CodeInfo[] = [code('<module>')]): Recording {
  return { source: '', call: '', events, codes, stdout: '', exit: { status: 'normal' } } as unknown as Recording;
}

describe('objects shown', () => {
  it('says which names are one object, both ways, and nothing for an equal but distinct one', () => {
    const e = ev({ event: 'line', function: '<module>', frame: 0, locals: { a: '[1, 2, 3]', b: '[1, 2, 3]', c: '[1, 2, 3]', n: '3' }, ids: { a: 1, b: 1, c: 2 } });
    const view = objectsAt(rec([e]), e);
    expect(view.sameAs).toEqual({ a: ['b'], b: ['a'] });
    expect(sameObjectText(view.sameAs.b!)).toBe('same object as a');
    expect(view.globals).toBeNull();
    expect(view.closure).toBeNull();
    // the heap: one object for a and b, another for c; n (an int) has no number and no arrow
    expect(view.heap.objects).toEqual([
      { id: 1, value: '[1, 2, 3]', names: ['a', 'b'] },
      { id: 2, value: '[1, 2, 3]', names: ['c'] },
    ]);
    expect(view.heap.refs.map((r) => `${r.shown}->${r.object}`)).toEqual(['a->1', 'b->1', 'c->2']);
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
    expect(view.sameAs).toEqual({ xs: ['nums (global)'] });
    expect(view.globalSameAs).toEqual({ nums: ['xs'] });
    expect(view.heap.objects).toEqual([
      { id: 4, value: '[1]', names: ['xs', 'nums (global)'] },
      { id: 5, value: '[1]', names: ['copy (global)'] },
    ]);
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
