// Instances of the program's own classes are shown by their attributes (docs/trace.md, "Values").

import { beforeAll, describe, expect, it } from 'vitest';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';

let engine: RealEngine;
beforeAll(async () => {
  engine = await loadNodeEngine();
});

const allValues = (rec: ReturnType<RealEngine['record']>): string[] =>
  rec.events.flatMap((e) => [...Object.values(e.locals), ...(e.value !== undefined ? [e.value] : [])]);

describe('values of user objects', () => {
  it('shows an instance without its own __repr__ with its attributes as they change', () => {
    const src = [
      'class Counter:',
      '    step = 2',
      '    def __init__(self, start):',
      '        self.value = start',
      '    def bump(self):',
      '        self.value += self.step',
      'def run():',
      '    c = Counter(11)',
      '    c.bump()',
      '    return c',
    ].join('\n');
    const rec = engine.record(src, 'run()');
    const seen = rec.events.filter((e) => e.function === 'run').map((e) => e.locals.c).filter(Boolean);
    expect(seen).toEqual(['Counter(value=11)', 'Counter(value=13)', 'Counter(value=13)']);
    expect(rec.events[1]?.function).toBe('run');
    const init = rec.events.filter((e) => e.function === '__init__').map((e) => e.locals.self);
    expect(init).toEqual(['Counter()', 'Counter()', 'Counter(value=11)']);
    expect(rec.exit.value).toBe('Counter(value=13)');
  });

  it('writes nested objects, containers of objects and cycles, never an address', () => {
    const src = [
      'class Node:',
      '    def __init__(self, v):',
      '        self.v = v',
      '        self.next = None',
      'def run():',
      '    a = Node(1)',
      '    b = Node(2)',
      '    a.next = b',
      '    b.next = a',
      '    pair = {"k": [a], "t": (b,)}',
      '    return pair',
    ].join('\n');
    const rec = engine.record(src, 'run()');
    expect(rec.exit.value).toBe(
      "{'k': [Node(v=1, next=Node(v=2, next=Node(...)))], 't': (Node(v=2, next=Node(v=1, next=Node(...))),)}",
    );
    expect(allValues(rec).some((v) => v.includes('object') || v.includes('0x'))).toBe(false);
  });

  it('falls back to the attribute form when a __repr__ of its own fails in __init__', () => {
    const src = [
      'class Tag:',
      '    def __init__(self, name):',
      '        self.name = name',
      '    def __repr__(self):',
      "        return f'Tag<{self.name}>'",
      "t = Tag('x')",
    ].join('\n');
    const rec = engine.record(src, '');
    const selfs = rec.events.filter((e) => e.function === '__init__').map((e) => e.locals.self);
    expect(selfs).toEqual(['Tag()', 'Tag()', 'Tag<x>']);
    expect(allValues(rec).some((v) => v.startsWith('<repr failed'))).toBe(false);
  });

  it('caps a large object like every value', () => {
    const src = 'class Box:\n    def __init__(self):\n        self.items = list(range(900))\nb = Box()\n';
    const rec = engine.record(src, '');
    const last = rec.events.at(-1)?.locals.b ?? '';
    expect(last.startsWith('Box(items=[0, 1, 2, 3')).toBe(true);
    expect(last.length).toBeLessThanOrEqual(1001);
    expect(last.endsWith('…')).toBe(true);
  });
});
