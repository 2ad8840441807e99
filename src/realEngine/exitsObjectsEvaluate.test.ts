// The tracer's side of issue 47, item 1 (docs/trace.md): SystemExit ends a recording `normal`
// with its exit code, instances of classes from the program's other modules are written in the
// attribute form, and a run asked to `evaluate` evaluates its expression once, at its event.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';

let engine: RealEngine;
beforeAll(async () => {
  engine = await loadNodeEngine();
});

describe('a program that ends through SystemExit', () => {
  it.each([
    ['import sys\nsys.exit(0)\n', 0],
    ['import sys\nsys.exit()\n', 0],
    ['import sys\nsys.exit(3)\n', 3],
    ['import sys\ndef main():\n    return None\nsys.exit(main())\n', 0],
    ['import sys\ndef main():\n    return 2\nsys.exit(main())\n', 2],
    ['raise SystemExit\n', 0],
    ['exit(4)\n', 4],
    ['quit()\n', 0],
    ['import sys\nsys.exit(True)\n', 1],
  ])('%j ends normal with exit code %i, no message and no stderr', (source, code) => {
    const rec = engine.record(source, '');
    expect(rec.exit).toEqual({ status: 'normal', exit_code: code });
    expect(rec.stderr).toBeUndefined();
  });

  it('writes a message to stderr, as Python does, and ends with code 1', () => {
    const rec = engine.record('import sys\nprint("out")\nsys.exit("no such file")\n', '');
    expect(rec.exit).toEqual({ status: 'normal', exit_code: 1 });
    expect(rec.stderr).toBe('no such file\n');
    expect(rec.stdout).toBe('out\n');
  });

  it('ends an entry call that exits the same way; a program that runs to its end has no exit code', () => {
    expect(engine.record('import sys\ndef f(n):\n    sys.exit(n)\n', 'f(5)').exit).toEqual({ status: 'normal', exit_code: 5 });
    expect(engine.record('x = 1\n', '').exit).toEqual({ status: 'normal' });
    // an exception is still one
    expect(engine.record('1 / 0\n', '').exit).toMatchObject({ status: 'exception', exc_type: 'ZeroDivisionError' });
  });

  it('leaves the interpreter\'s input open for the next run (site\'s exit() closes sys.stdin)', () => {
    expect(engine.record('exit()\n', '').exit).toEqual({ status: 'normal', exit_code: 0 });
    const next = engine.record('import sys\nprint(sys.stdin.closed)\n', '');
    expect(next.stdout).toBe('False\n');
    expect(engine.record('print(repr(exit))\n', '').stdout).toMatch(/^Use exit\(\)/);
  });
});

describe("objects of the program's other modules", () => {
  const files = {
    'shapes.py': 'class Order:\n    def __init__(self, number, items):\n        self.number = number\n        self.items = items\n',
    'pkg/__init__.py': '',
    'pkg/box.py': 'class Box:\n    __slots__ = ("size",)\n    def __init__(self, size):\n        self.size = size\n',
  };
  const source = 'import string\nfrom shapes import Order\nfrom pkg.box import Box\no = Order(7, [Box(2)])\nt = string.Template("$x")\n';

  it('are written in the attribute form, nested ones too; a standard library object is not', () => {
    const rec = engine.record(source, '', { files, mainFile: 'main.py' });
    expect(rec.exit).toEqual({ status: 'normal' });
    const last = rec.events.at(-1)!;
    expect(last.locals).toMatchObject({ o: 'Order(number=7, items=[Box(size=2)])', t: '<string.Template object>' });
  });

  it('are not the program\'s own without the project (a module of that name is not handed in)', () => {
    const rec = engine.record('class Order:\n    pass\nOrder.__module__ = "shapes"\no = Order()\n', '');
    expect(rec.events.at(-1)!.locals.o).toBe('<shapes.Order object>');
  });
});

describe('evaluate: one expression at one event', () => {
  const source = 'hits = []\ndef f(n):\n    total = 0\n    for i in range(n):\n        total += i\n    return total\nprint(f(4))\n';

  it('is evaluated once, at that event, in the frame asked for, and recorded on that event only', () => {
    const plain = engine.record(source, '');
    const at = plain.events.findIndex((e) => e.line === 5 && e.locals.i === '2');
    expect(at).toBeGreaterThan(0);
    const rec = engine.record(source, '', { evaluate: { at, expr: 'hits.append(1) or (len(hits), i)' } });
    expect(rec.events.flatMap((e, j) => (e.evaluated ? [[j, e.evaluated]] : []))).toEqual([[at, { value: '(1, 2)' }]]);
    // up to that event (its own values included: taken before the expression ran) the run is the
    // same as without it; after it, the program goes on with what the expression changed
    expect(rec.events.slice(0, at + 1).map((e) => e.locals)).toEqual(plain.events.slice(0, at + 1).map((e) => e.locals));
    expect(rec.events.at(-1)!.locals.hits).toBe('[1]');
    // the caller's (the module's) frame, by its number
    const module = plain.events[0]!.frame;
    expect(engine.record(source, '', { evaluate: { at, expr: 'len(hits), "f" in dir()', frame: module } }).events[at]!.evaluated).toEqual({ value: '(0, True)' });
    expect(engine.record(source, '', { evaluate: { at, expr: 'total', frame: 999 } }).events[at]!.evaluated).toEqual({ error: 'that frame is not on the stack at this stop' });
  });

  it('answers an error, sys.exit() included, without ending the run; an expression that does not parse is refused', () => {
    const rec = engine.record(source, '', { evaluate: { at: 3, expr: '__import__("sys").exit(2)' } });
    expect(rec.events[3]!.evaluated).toEqual({ error: 'SystemExit: 2' });
    expect(rec.exit).toEqual({ status: 'normal' });
    expect(engine.record(source, '', { evaluate: { at: 3, expr: '1 +' } }).exit).toMatchObject({ status: 'edit_error' });
  });
});
