// The check every answer of the real engine passes before a face uses it (answerCheck.ts): honest
// answers pass as they are; answers a program could forge once it controls its interpreter (a
// depth of 2**28, lines and indices out of range, huge strings, wrong types, `__proto__` keys) are
// refused, each saying what failed. The Node faces' process host ends the engine that sent one.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Recording, TraceEvent } from '../core/trace';
import { ANSWER_BOUNDS, checkAnswer, HEAP_BOUNDS, parseAnswer, UntrustedAnswer } from './answerCheck';
import type { EngineQuestion } from './engineProtocol';
import { loadNodeEngine, readRepoFile } from './node/node';
import { ProcessHost } from './node/processHost';
import { tracerOptions } from './recordOptions';

const SOURCE = ['def f(n):', '    xs = [n]', '    ys = xs', '    print(n)', '    return ys', '', 'f(2)', ''].join('\n');
const QUESTION: Extract<EngineQuestion, { kind: 'record' }> = {
  kind: 'record',
  source: SOURCE,
  call: '',
  options: tracerOptions({ objects: true, heap: true, maxRepr: 1000, maxEvents: 10_000 }),
};

let honest: Recording;

beforeAll(async () => {
  const engine = await loadNodeEngine();
  honest = engine.ask(QUESTION);
});

/** The honest recording with `change` made to a copy of it. */
function forged(change: (rec: Recording) => void): Recording {
  const copy = structuredClone(honest);
  change(copy);
  return copy;
}

/** The reason a check of `answer` gives (it must fail). */
function refusal(answer: unknown, question: EngineQuestion = QUESTION): string {
  try {
    checkAnswer(question, answer);
  } catch (err) {
    if (err instanceof UntrustedAnswer) return err.reason;
    throw err;
  }
  throw new Error('the check passed');
}

/** The first event of function f (depth 1). */
function inF(rec: Recording): TraceEvent {
  return rec.events.find((e) => e.function === 'f')!;
}

describe('a recording', () => {
  it('passes as it is when the tracer wrote it', () => {
    expect(honest.events.length).toBeGreaterThan(5);
    expect(honest.events.some((e) => e.ids?.xs !== undefined)).toBe(true);
    expect(checkAnswer(QUESTION, honest)).toBe(honest);
    expect(parseAnswer(QUESTION, JSON.stringify(honest))).toEqual(honest);
  });

  it('is refused with a depth of 2**28, or a depth that grows by more than one', () => {
    expect(refusal(forged((r) => r.events.forEach((e) => (e.depth = 2 ** 28))))).toBe('events[0].depth is 268435456, outside 0..100000');
    expect(refusal(forged((r) => (inF(r).depth = 2)))).toMatch(/^events\[\d+\]\.depth is 2, after an event at depth 0: a depth grows by one a call$/);
    expect(refusal(forged((r) => (r.events[0]!.depth = 1)))).toBe('events[0].depth is 1, and the first event is at depth 0');
    expect(refusal(forged((r) => (r.events[1]!.depth = -1)))).toBe('events[1].depth is -1, outside 0..100000');
  });

  it('is refused with a line outside the program', () => {
    expect(refusal(forged((r) => (r.events[1]!.line = -5)))).toBe('events[1].line is -5, outside 0..7');
    expect(refusal(forged((r) => (r.events[1]!.line = 2 ** 28)))).toBe('events[1].line is 268435456, outside 0..7');
    expect(refusal(forged((r) => (r.events[1]!.line = 8)))).toBe('events[1].line is 8, outside 0..7');
    expect(refusal(forged((r) => (r.codes[0]!.lines = [1, 1e6])))).toBe('codes[0].lines[1] is 1000000, outside 1..7');
    expect(refusal(forged((r) => (r.program!.lines = [3, 2])))).toBe("the program's lines are not in increasing order");
    expect(refusal(forged((r) => (r.exit = { status: 'syntax_error', line: 10 ** 9 })))).toBe('the line of its exit is 1000000000, outside 0..8');
  });

  it("is refused with an index outside the recording's own tables", () => {
    expect(refusal(forged((r) => (r.events[0]!.code = r.codes.length)))).toMatch(/^events\[0\]\.code is \d+, outside 0\.\.\d+$/);
    expect(refusal(forged((r) => (r.events[2]!.frame = 10 ** 9)))).toBe('events[2].frame is 1000000000, outside 0..8');
    expect(refusal(forged((r) => (r.events[2]!.parent = -2)))).toBe('events[2].parent is -2, outside -1..8');
    expect(refusal(forged((r) => (r.codes[1]!.file = 3)))).toBe('codes[1] names a file, and the recording has no list of files');
    expect(refusal(forged((r) => (r.input_wanted = { at: r.events.length + 1, prompt: '' })))).toMatch(/^input_wanted\.at is \d+, outside 0\.\.\d+$/);
    expect(refusal(forged((r) => (r.events.at(-1)!.out = 10 ** 6)))).toMatch(/\.out is 1000000, outside \d+\.\.2$/);
  });

  it('is refused with object numbers out of range, or sizes and objects of names it does not show', () => {
    expect(refusal(forged((r) => (inF(r).ids = { n: 2 ** 28 })))).toMatch(/\.ids\.n is 268435456, outside 1\.\.\d+$/);
    const last = (r: Recording): TraceEvent => r.events.filter((e) => e.function === 'f').at(-1)!;
    expect(refusal(forged((r) => (last(r).ids = { ...last(r).ids, ghost: 1 })))).toMatch(/\.ids names "ghost", which is not shown there$/);
    expect(refusal(forged((r) => (last(r).sizes = { ghost: 3 })))).toMatch(/\.sizes names "ghost", which is not shown there$/);
  });

  it('is refused with a heap past the tracer\'s caps, of unknown shapes, or numbering objects it never met', () => {
    const withHeap = (r: Recording): TraceEvent => r.events.find((e) => e.heap !== undefined)!;
    expect(withHeap(honest).heap![0]).toMatchObject({ kind: 'list', items: [{ v: '2' }] });
    const box = (r: Recording) => withHeap(r).heap![0]!;
    expect(refusal(forged((r) => (box(r).id = 2 ** 28)))).toMatch(/\.heap\[0\]\.id is 268435456, outside 1\.\.\d+$/);
    expect(refusal(forged((r) => ((box(r) as { kind: string }).kind = 'module')))).toMatch(/\.heap\[0\]\.kind is "module", which no box has$/);
    expect(refusal(forged((r) => (box(r).items = Array.from({ length: 31 }, () => ({ v: '1' })))))).toMatch(/\.heap\[0\]\.items has 31 entries \(at most 30\)$/);
    expect(refusal(forged((r) => (box(r).items = [{ v: 'x'.repeat(500) }])))).toMatch(/\.heap\[0\]\.items\[0\]\.v is 500 characters long \(at most 401\)$/);
    expect(refusal(forged((r) => (box(r).items = [{ v: '1', ref: 1 } as never])))).toMatch(/\.heap\[0\]\.items\[0\] has the fields "v", "ref", not v or ref$/);
    expect(refusal(forged((r) => (box(r).items = [{ ref: 10 ** 6 }])))).toMatch(/\.heap\[0\]\.items\[0\]\.ref is 1000000, outside 1\.\.\d+$/);
    expect(refusal(forged((r) => (withHeap(r).heap = Array.from({ length: 61 }, (_, i) => ({ id: i + 1, kind: 'list' as const, type: 'list', items: [] }))))))
      .toMatch(/\.heap has 61 entries \(at most 60\)$/);
    expect(refusal(forged((r) => withHeap(r).heap!.push({ ...box(r) })))).toMatch(/\.heap\[1\] sends box \d+ twice$/);
    expect(refusal(forged((r) => (withHeap(r).heap_cut = [1, 1])))).toMatch(/\.heap_cut names a box twice$/);
    expect(refusal(forged((r) => ((box(r) as { cls?: number }).cls = 1)))).toMatch(/\.heap\[0\] has a field "cls" that no answer has$/);
    // the bounds are the tracer's own caps
    const tracer = readRepoFile('src/realEngine/python/tracer.py');
    const cap = (name: string): number => Number(new RegExp(`^${name} = (\\d+)$`, 'm').exec(tracer)?.[1]);
    expect([cap('MAX_HEAP_NODES'), cap('MAX_HEAP_ITEMS'), 2 * cap('MAX_HEAP_TEXT') + 1, cap('MAX_HEAP_BASES')]).toEqual([HEAP_BOUNDS.boxes, HEAP_BOUNDS.items, HEAP_BOUNDS.text, HEAP_BOUNDS.bases]);
  });

  it('takes a heap the tracer stopped drawing once, with no boxes from there on, and refuses any other', () => {
    // the event after the first one with boxes: where a walk that ran out of time would stop
    const at = (r: Recording): number => r.events.findIndex((e) => e.heap !== undefined) + 1;
    const stopped = (r: Recording): void => {
      const i = at(r);
      r.events[i]!.heap_stopped = true;
      r.events.slice(i).forEach((e) => {
        delete e.heap;
        delete e.heap_cut;
      });
    };
    const ok = forged(stopped);
    expect(checkAnswer(QUESTION, ok)).toBe(ok);
    expect(refusal(forged((r) => {
      stopped(r);
      r.events.at(-1)!.heap_cut = [1];
    }))).toMatch(/^events\[\d+\] has heap boxes, after the heap stopped at events\[\d+\]$/);
    expect(refusal(forged((r) => {
      stopped(r);
      r.events.at(-1)!.heap_stopped = true;
    }))).toMatch(/^events\[\d+\] stops the heap again, after events\[\d+\]$/);
    expect(refusal(forged((r) => ((r.events[0] as { heap_stopped?: unknown }).heap_stopped = false)))).toBe('events[0].heap_stopped is false, not true');
    expect(refusal(forged((r) => ((r.events[0] as { heap_stopped?: unknown }).heap_stopped = 'x'.repeat(10 ** 6))))).toBe('events[0].heap_stopped is text of 1,000,000 characters, not true');
  });

  it('is refused with strings past their caps', () => {
    expect(refusal(forged((r) => (inF(r).locals.n = 'x'.repeat(5_000))))).toMatch(/\.locals\.n is 5,000 characters long \(at most 2,001\)$/);
    expect(refusal(forged((r) => (r.exit.message = 'x'.repeat(ANSWER_BOUNDS.text + 1))))).toBe('its exit message is 1,000,001 characters long (at most 1,000,000)');
    expect(refusal(forged((r) => (r.stdout = 'x'.repeat(300_000))))).toBe('its output is 300,000 characters long (at most 200,000)');
    expect(refusal(forged((r) => (r.codes[0]!.name = 'f'.repeat(20_000))))).toBe('codes[0].name is 20,000 characters long (at most 10,000)');
    expect(refusal(forged((r) => (r.source = SOURCE + '#'.repeat(10 ** 6))))).toBe('its source is not the program that was run');
  });

  it('is refused with more events than the run was given', () => {
    const small = { ...QUESTION, options: { ...QUESTION.options, max_events: 3 } };
    expect(refusal(honest, small)).toMatch(/^its events has \d+ entries \(at most 3\)$/);
  });

  it('is refused with a value of the wrong type or outside its enum', () => {
    expect(refusal(forged((r) => ((r.events[0] as unknown as Record<string, unknown>).depth = '0')))).toBe('events[0].depth is "0", not a whole number');
    expect(refusal(forged((r) => ((r.events[0] as unknown as Record<string, unknown>).depth = 0.5)))).toBe('events[0].depth is 0.5, not a whole number');
    expect(refusal(forged((r) => ((r as unknown as Record<string, unknown>).events = { length: 1 })))).toBe('its events is an object, not a list');
    expect(refusal(forged((r) => ((inF(r).locals as Record<string, unknown>).n = 2)))).toMatch(/\.locals\.n is a number, not text$/);
    expect(refusal(forged((r) => ((r.events[0] as unknown as Record<string, unknown>).event = 'jump')))).toBe('events[0].event is "jump", not call, line, return or exception');
    expect(refusal(forged((r) => ((r.exit as unknown as Record<string, unknown>).status = 'pwned')))).toBe('its exit status is "pwned", which no run ends with');
    expect(refusal(forged((r) => ((r.codes[0] as unknown as Record<string, unknown>).generator = 'no')))).toBe('codes[0].generator is text, not true or false');
    expect(refusal(forged((r) => (r.events[3]!.function = 'g')))).toBe('events[3].function is not the name of its code');
    expect(refusal(null)).toBe('the recording is null, not an object');
    expect(refusal(forged((r) => ((r as unknown as Record<string, unknown>).exit = new Map())))).toBe('its exit is not a plain object');
  });

  it('is refused with fields the tracer never writes, `__proto__` among them', () => {
    const text = JSON.stringify(honest);
    const withProto = (json: string): unknown => JSON.parse(json);
    expect(refusal(withProto(text.replace('{"source":', '{"__proto__":{"polluted":true},"source":')))).toBe('the recording has a field "__proto__" that no answer has');
    expect(refusal(withProto(text.replace('{"event":"call"', '{"__proto__":{"depth":268435456},"event":"call"')))).toBe('events[0] has a field "__proto__" that no answer has');
    expect(refusal(withProto(text.replace('"locals":{"n":"2"', '"locals":{"__proto__":"\'p\'","n":"2"')))).toMatch(/\.locals has the name __proto__, which the tracer never records$/);
    expect(refusal(forged((r) => ((r as unknown as Record<string, unknown>).sources = { 'a.py': 'x' })))).toBe('the recording has a field "sources" that no answer has');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('the other answers', () => {
  it('pass when they are what the engine writes', () => {
    expect(checkAnswer({ kind: 'codeLines', source: 'a = 1\nb = 2\n' }, { lines: [1, 2] })).toEqual({ lines: [1, 2] });
    expect(checkAnswer({ kind: 'codeLines', source: 'if a:\n' }, { error: 'SyntaxError: expected an indented block', line: 2 })).toMatchObject({ line: 2 });
    expect(checkAnswer({ kind: 'evaluateOnLocals', expr: 'a', locals: { a: '1' } }, { value: '1' })).toEqual({ value: '1' });
    expect(checkAnswer({ kind: 'sameValue', predicted: '1', expected: '1' }, true)).toBe(true);
    expect(checkAnswer({ kind: 'callArguments', values: ['1', ' [2] '] }, '1, [2]')).toBe('1, [2]');
    expect(checkAnswer({ kind: 'expressionError', expr: 'a' }, null)).toBeNull();
  });

  it('are refused out of their bounds, of the wrong type or with extra fields', () => {
    expect(refusal({ lines: [0] }, { kind: 'codeLines', source: 'a = 1\n' })).toBe('the lines with code[0] is 0, outside 1..1');
    expect(refusal({ lines: [2 ** 28] }, { kind: 'codeLines', source: 'a = 1\n' })).toBe('the lines with code[0] is 268435456, outside 1..1');
    expect(refusal({ error: 'x', line: -1 }, { kind: 'codeLines', source: 'a = 1\n' })).toBe('the line of the error is -1, outside 0..2');
    expect(refusal({ value: '1', unknown: 'x' }, { kind: 'evaluateOnLocals', expr: 'a', locals: {} })).toBe('the answer has the fields "value", "unknown", not one of value, error or unknown');
    expect(refusal('true', { kind: 'sameValue', predicted: '1', expected: '1' })).toBe('the answer is text, not true or false');
    expect(refusal('1, 2, 3', { kind: 'callArguments', values: ['1'] })).toBe('the arguments is 7 characters long (at most 3)');
    expect(refusal('x'.repeat(5_000_000), { kind: 'expressionError', expr: 'a' })).toBe('the error is 5,000,000 characters long (at most 1,000,000)');
    expect(refusal(42, { kind: 'firstArgument', args: '1' })).toBe('the argument is a number, not text');
  });

  it('is refused when it is not JSON text', () => {
    expect(() => parseAnswer({ kind: 'sameValue', predicted: '1', expected: '1' }, '{')).toThrow(new UntrustedAnswer('the answer to sameValue is not JSON'));
    expect(() => parseAnswer({ kind: 'sameValue', predicted: '1', expected: '1' }, 1)).toThrow(/the answer to sameValue is a number, not JSON text/);
  });
});

describe('the Node faces, past Python', () => {
  const host = new ProcessHost({ spare: false });
  afterAll(() => host.close());

  it('drop a recording the program rewrote with a depth of 2**28, say so, and run the next program in a fresh engine', async () => {
    // Past Python's layer, the program reaches the tracer's recorder and rewrites what it recorded.
    const program = 'import sys\nrecorder = sys.gettrace().__self__\nfor e in list(recorder.events):\n    e["depth"] = 2 ** 28\nx = 1\n';
    const rec = await host.record(program, '', { timeLimit: 10 });
    expect(rec.exit).toEqual({ status: 'error', message: 'The run cannot be trusted: events[0].depth is 268435456, outside 0..100000; the Python engine was restarted' });
    expect(rec.events).toEqual([]);
    const next = await host.record('print(6 * 7)\n', '', { timeLimit: 10 });
    expect(next.exit.status).toBe('normal');
    expect(next.stdout).toBe('42\n');
  }, 120_000);
});
