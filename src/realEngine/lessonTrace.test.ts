// What the tracer adds for a lesson: Python's words for generators (a return that is a yield, a
// call that resumes) and input() read from the text a run is given. Labelling only: where the
// debugger stops is checked against bdb in bdbOracle.test.ts.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadNodeEngine } from './node/node';
import type { RealEngine } from './realEngine';

let engine: RealEngine;
beforeAll(async () => {
  engine = await loadNodeEngine();
}, 60_000);

const COUNTDOWN = 'def countdown(n):\n    while n > 0:\n        yield n\n        n -= 1\n\ndef main():\n    return list(countdown(2))\n';

describe('generators in the recording', () => {
  it('marks a return at a yield, and not the return that ends the generator', () => {
    const rec = engine.record(COUNTDOWN, 'main()');
    const returns = rec.events.filter((e) => e.event === 'return' && e.function === 'countdown');
    expect(returns.map((e) => [e.line, e.value, e.yield ?? false])).toEqual([
      [3, '2', true],
      [3, '1', true],
      [2, 'None', false],
    ]);
    // main's own return is no yield
    expect(rec.events.find((e) => e.event === 'return' && e.function === 'main')?.yield).toBeUndefined();
  });

  it('marks the calls that resume a generator, not its first call', () => {
    const rec = engine.record(COUNTDOWN, 'main()');
    const calls = rec.events.filter((e) => e.event === 'call' && e.function === 'countdown');
    expect(calls.map((e) => [e.line, e.resume ?? false])).toEqual([
      [1, false],
      [3, true],
      [3, true],
    ]);
  });

  it('marks yields passed up through yield from, and an await', () => {
    const rec = engine.record(
      'def inner():\n    yield 1\n\ndef outer():\n    yield from inner()\n\nasync def co():\n    return 2\n\ndef main():\n    xs = list(outer())\n    c = co()\n    try:\n        c.send(None)\n    except StopIteration as stop:\n        return xs, stop.value\n',
      'main()',
    );
    const yields = rec.events.filter((e) => e.yield).map((e) => `${e.function}:${e.line}:${e.value}`);
    expect(yields).toEqual(['inner:2:1', 'outer:5:1']);
    expect(rec.events.find((e) => e.event === 'return' && e.function === 'co')?.yield).toBeUndefined();
    expect(rec.exit).toMatchObject({ status: 'normal', value: '([1], 2)' });
  });
});

describe('input() with the Input field', () => {
  it('reads one line per call and echoes the prompt and the line, as a terminal shows them', () => {
    const rec = engine.record('name = input("Name? ")\nage = int(input())\nprint(f"{name} is {age}")\n', '', { stdin: 'Ada\n36\n' });
    expect(rec.exit.status).toBe('normal');
    expect(rec.stdout).toBe('Name? Ada\n36\nAda is 36\n');
    const last = rec.events[rec.events.length - 1]!;
    expect(last.locals).toMatchObject({ name: "'Ada'", age: '36' });
  });

  it('gives EOFError, as Python does, when the lines run out', () => {
    const rec = engine.record('a = input("a: ")\nb = input("b: ")\n', '', { stdin: 'only one' });
    expect(rec.exit).toMatchObject({ status: 'exception', exc_type: 'EOFError' });
    expect(rec.exit.message).toBe('EOFError: EOF when reading a line');
    expect(rec.stdout).toBe('a: only one\nb: ');
  });

  it('reads input in a called function too, and sys.stdin holds the same text', () => {
    const rec = engine.record('import sys\n\ndef ask():\n    first = input()\n    rest = sys.stdin.read()\n    return first, rest\n', 'ask()', { stdin: 'x\ny\nz' });
    expect(rec.exit).toMatchObject({ status: 'normal', value: "('x', 'y\\nz')" });
  });

  it('says where input() first found no line, and its prompt, for the app to ask', () => {
    const rec = engine.record('def ask(q):\n    return input(q)\n\na = ask("a: ")\nb = ask("b: ")\nprint(a, b)\n', '', { stdin: 'x\n' });
    expect(rec.exit).toMatchObject({ status: 'exception', exc_type: 'EOFError' });
    const at = rec.input_wanted!.at;
    expect(rec.input_wanted!.prompt).toBe('b: ');
    // the event after it ran out is the exception in the frame that called input()
    expect(rec.events[at]).toMatchObject({ event: 'exception', function: 'ask', line: 2, exc_type: 'EOFError' });
    expect(rec.events[at - 1]).toMatchObject({ event: 'line', function: 'ask', line: 2 });
    // enough input: nothing is asked
    expect(engine.record('a = input()\n', '', { stdin: 'x\n' }).input_wanted).toBeUndefined();
  });

  it('still refuses input() when a run is given no input (the CLI and training)', () => {
    const rec = engine.record('name = input("who? ")\n', '');
    expect(rec.exit.message).toMatch(/input\(\) is not available/);
  });
});
