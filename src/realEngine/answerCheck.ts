// Every answer of the real engine checked before anything uses it: its schema, and bounds that
// the question and the tracer fix. A debugged program that gets past Python's layer controls the
// interpreter it runs in and, from there, whatever its engine sends back (docs/sandbox.md): it can
// write any answer at all. So the faces never take an answer on trust: the Node faces' process host
// (processHost.ts, through parseAnswer) and the page's worker client (client.ts) both call
// checkAnswer, and an answer that fails is dropped with UntrustedAnswer ("The run cannot be
// trusted: …"); its engine is replaced.
//
// What a check holds to, beyond the types of core/trace.ts and engineProtocol.ts:
// - a recording has no more events than the run was given (its `max_events`, else the tracer's
//   default, DEFAULT_LIMITS in core/limits.ts), its `source` and `call` are the question's, and it
//   has no field the tracer does not write (`__proto__` included);
// - an event's depth starts at 0 and grows by at most one from one event to the next (a call is
//   one frame deeper than its caller's latest event), never past MAX_DEPTH; its line is within
//   its file's lines; its code, file, frame and object numbers are within the recording's own
//   tables (a frame or object number is given in the order first seen);
// - a value's repr is within the run's repr cap (`max_repr`), the output within the tracer's
//   cap, a name, a message and any other text within ANSWER_BOUNDS; a name map (locals, sizes,
//   ids, globals) has no key `__proto__` (the tracer leaves dunder names out) and its `sizes` and
//   `ids` name only its locals; the heap's boxes are within the tracer's caps (HEAP_BOUNDS);
// - the heap walk stops once (`heap_stopped: true`, on one event at most), and no event from
//   there on has boxes (`heap`, `heap_cut`).
// A field the tracer starts to write (core/trace.ts) is added here too, or its answers are refused.
// Pure: no DOM, no Node, no Pyodide.

import { DEFAULT_LIMITS, MAX_REPR } from '../core/limits';
import { sourceLines } from '../core/sourceLines';
import type { CodeInfo, ExitInfo, ExitStatus, Recording, TraceEvent } from '../core/trace';
import type { AnswerTo, EngineQuestion, EngineQuestions, QuestionKind } from './engineProtocol';

/** An answer that failed its check: the message says what failed, in the words the app shows. */
export class UntrustedAnswer extends Error {
  constructor(readonly reason: string) {
    super(`The run cannot be trusted: ${reason}`);
    this.name = 'UntrustedAnswer';
  }
}

/** The bounds of what the tracer cannot cap itself (names and messages are the program's). */
export const ANSWER_BOUNDS = {
  /** The deepest call stack an answer may show: far past Python's recursion limit (1,000 by
   * default; a program may raise it, and Pyodide's stack ends a recursion long before this). */
  depth: 100_000,
  /** A name: a variable, a function, an exception's class. */
  name: 10_000,
  /** A file's path in a program of several files. */
  path: 4_096,
  /** A message (an exception's, a condition's or a watch's error) or an answer's text. */
  text: 1_000_000,
  /** The names in one map of an event (its locals, their sizes and objects, the globals shown). */
  names: 100_000,
  /** The output kept of stdout and of stderr, in UTF-16 units: the tracer keeps 100,000
   * characters (tracer.py, MAX_STDOUT), each at most two units. */
  output: 200_000,
  /** An input() prompt: the tracer keeps 200 characters. */
  prompt: 400,
} as const;

/** The tracer's own default repr cap (tracer.py, DEFAULT_MAX_REPR), for a run that names none. */
const TRACER_MAX_REPR = MAX_REPR;

/** Checks the JSON text an engine wrote for `question` and returns the answer it stands for. */
export function parseAnswer<K extends QuestionKind>(question: { kind: K } & EngineQuestions[K]['ask'], text: unknown): AnswerTo<K> {
  if (typeof text !== 'string') throw new UntrustedAnswer(`the answer to ${question.kind} is ${kindOf(text)}, not JSON text`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new UntrustedAnswer(`the answer to ${question.kind} is not JSON`);
  }
  return checkAnswer(question, value);
}

/** `answer` as the answer to `question`, once it passed its check; UntrustedAnswer otherwise. */
export function checkAnswer<K extends QuestionKind>(question: { kind: K } & EngineQuestions[K]['ask'], answer: unknown): AnswerTo<K> {
  // Each branch checks its own kind's answer: one widening cast of the result is exact.
  return checkAny(question as EngineQuestion, answer) as AnswerTo<K>;
}

function checkAny(q: EngineQuestion, answer: unknown): AnswerTo<QuestionKind> {
  switch (q.kind) {
    case 'record':
      return checkRecording(q, answer);
    case 'codeLines': {
      const o = object(answer, 'the answer');
      const last = Math.max(1, sourceLines(q.source).length);
      if (has(o, 'lines')) {
        fields(o, 'the answer', ['lines'], []);
        return { lines: ascending(o.lines, 'the lines with code', 1, last) };
      }
      fields(o, 'the answer', ['error', 'line'], []);
      return { error: text(o.error, 'the error', ANSWER_BOUNDS.text), line: int(o.line, 'the line of the error', 0, last + 1) };
    }
    case 'expressionError':
      return answer === null ? null : text(answer, 'the error', ANSWER_BOUNDS.text);
    case 'evaluateOnLocals': {
      const o = object(answer, 'the answer');
      const keys = Object.keys(o);
      const key = keys[0];
      if (keys.length !== 1 || (key !== 'value' && key !== 'error' && key !== 'unknown')) fail(`the answer has the fields ${listed(keys)}, not one of value, error or unknown`);
      const shown = text(o[key], `its ${key}`, ANSWER_BOUNDS.text);
      return key === 'value' ? { value: shown } : key === 'error' ? { error: shown } : { unknown: shown };
    }
    case 'sameValue':
      return bool(answer, 'the answer');
    case 'firstArgument':
      return answer === null ? null : text(answer, 'the argument', ANSWER_BOUNDS.text);
    case 'callArguments': {
      // The values joined by ", ", each stripped (values.py): never longer than that.
      const most = q.values.reduce((n, v) => n + v.length + 2, 0);
      return answer === null ? null : text(answer, 'the arguments', most);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// A recording

const RECORDING_REQUIRED = ['source', 'call', 'events', 'codes', 'stdout', 'exit'] as const;
const RECORDING_OPTIONAL = ['program', 'stdout_truncated', 'stdout_total', 'stderr', 'files', 'input_wanted'] as const;
const EVENT_REQUIRED = ['event', 'line', 'function', 'depth', 'frame', 'parent', 'code', 'locals', 'out'] as const;
const EVENT_OPTIONAL = [
  'err',
  'value',
  'exc_type',
  'exc_tb_none',
  'raising',
  'yield',
  'resume',
  'edits',
  'hit',
  'hit_error',
  'watch',
  'sizes',
  'value_size',
  'ids',
  'globals',
  'global_ids',
  'heap',
  'heap_cut',
  'heap_stopped',
  'evaluated',
] as const;
const CODE_REQUIRED = ['name', 'firstline', 'lines', 'generator'] as const;
const CODE_OPTIONAL = ['qualname', 'free', 'enclosing', 'file'] as const;
const EXIT_OPTIONAL = ['message', 'value', 'line', 'column', 'exc_type', 'exit_code'] as const;
const EVENT_KINDS: ReadonlySet<string> = new Set<TraceEvent['event']>(['call', 'line', 'return', 'exception']);
const EXIT_STATUSES: ReadonlySet<string> = new Set<ExitStatus>(['normal', 'exception', 'budget', 'timeout', 'syntax_error', 'call_error', 'error', 'edit_error']);

type RecordQuestion = Extract<EngineQuestion, { kind: 'record' }>;

/** What the question fixes about its recording. */
interface RunBounds {
  maxEvents: number;
  /** The longest repr, in UTF-16 units. */
  repr: number;
  edits: number;
  watch: number;
  /** The one event an `evaluate` run answers at (-1: none). */
  evaluateAt: number;
  /** The other files handed in, by name. */
  handed: number;
  /** The last line of file `index` (0: the main file; a file the question did not hand in by
   * that name: the longest of those it did). */
  lastLine(index: number, files: readonly string[] | undefined): number;
}

function runBounds(q: RecordQuestion): RunBounds {
  const o = q.options;
  const texts = new Map<string, string>();
  for (const [name, source] of Object.entries(o.modules ?? {})) texts.set(`${name}.py`, source);
  for (const [name, source] of Object.entries(o.files ?? {})) texts.set(name, source);
  const counts = new Map<string, number>();
  for (const [name, source] of texts) counts.set(normalPath(name), Math.max(1, sourceLines(source).length));
  const main = Math.max(1, sourceLines(q.source).length);
  const longest = Math.max(main, ...counts.values());
  const maxRepr = o.max_repr ?? TRACER_MAX_REPR;
  return {
    maxEvents: o.max_events ?? DEFAULT_LIMITS.maxEvents,
    repr: 2 * Math.max(0, maxRepr) + 1,
    edits: o.edits?.length ?? 0,
    watch: o.watch?.length ?? 0,
    evaluateAt: o.evaluate ? o.evaluate.at : -1,
    handed: texts.size,
    lastLine: (index, files) => (index === 0 ? main : (counts.get(normalPath(files?.[index] ?? '')) ?? longest)),
  };
}

function normalPath(name: string): string {
  return name
    .split('/')
    .filter((p) => p !== '' && p !== '.')
    .join('/');
}

function checkRecording(q: RecordQuestion, answer: unknown): Recording {
  const bounds = runBounds(q);
  const rec = object(answer, 'the recording');
  fields(rec, 'the recording', RECORDING_REQUIRED, RECORDING_OPTIONAL);
  if (rec.source !== q.source) fail('its source is not the program that was run');
  if (rec.call !== q.call) fail('its call is not the call that was run');

  const stdout = text(rec.stdout, 'its output', ANSWER_BOUNDS.output);
  const stderr = has(rec, 'stderr') ? text(rec.stderr, 'its stderr', ANSWER_BOUNDS.output) : '';
  if (has(rec, 'stdout_truncated')) bool(rec.stdout_truncated, 'stdout_truncated');
  if (has(rec, 'stdout_total')) int(rec.stdout_total, 'stdout_total', 0, Number.MAX_SAFE_INTEGER);

  let files: string[] | undefined;
  if (has(rec, 'files')) {
    const list = array(rec.files, 'its files', 1 + bounds.handed);
    if (list.length === 0) fail('its list of files is empty');
    files = list.map((f, i) => text(f, `files[${i}]`, ANSWER_BOUNDS.path));
  }

  const events = array(rec.events, 'its events', bounds.maxEvents);
  // A code is added at the event that first runs it: never more than one past the events.
  const codeList = array(rec.codes, 'its codes', events.length + 1);
  const codes = codeList.map((c, i) => checkCode(c, `codes[${i}]`, files, bounds));

  if (has(rec, 'program')) {
    const p = object(rec.program, 'its program');
    fields(p, 'its program', ['lines', 'calls'], ['frames']);
    const last = bounds.lastLine(0, files);
    ascending(p.lines, 'the program\'s lines', 1, last);
    ascending(p.calls, 'the program\'s call lines', 0, last);
    // One frame per code object of the main file: each takes a few characters of it at least.
    if (has(p, 'frames')) array(p.frames, 'its frames', q.source.length + 1).forEach((f, i) => checkFrameShape(f, `its frames[${i}]`, last));
  }

  checkEvents(events, codes, files, bounds, stdout.length, stderr.length);
  checkExit(rec.exit, q.source, bounds);

  if (has(rec, 'input_wanted')) {
    const w = object(rec.input_wanted, 'input_wanted');
    fields(w, 'input_wanted', ['at', 'prompt'], []);
    int(w.at, 'input_wanted.at', 0, events.length);
    text(w.prompt, 'the input prompt', ANSWER_BOUNDS.prompt);
  }
  return rec as unknown as Recording;
}

/** A code object's frame as the program's shape gives it (core/trace.ts, FrameShape). */
function checkFrameShape(value: unknown, at: string, last: number): void {
  const f = object(value, at);
  fields(f, at, ['first', 'lines', 'names'], []);
  int(f.first, `${at}.first`, 0, last);
  ascending(f.lines, `${at}.lines`, 1, last);
  if (f.names !== null) array(f.names, `${at}.names`, ANSWER_BOUNDS.names).forEach((n, i) => text(n, `${at}.names[${i}]`, ANSWER_BOUNDS.name));
}

function checkCode(value: unknown, at: string, files: readonly string[] | undefined, bounds: RunBounds): CodeInfo {
  const c = object(value, at);
  fields(c, at, CODE_REQUIRED, CODE_OPTIONAL);
  text(c.name, `${at}.name`, ANSWER_BOUNDS.name);
  if (has(c, 'qualname')) text(c.qualname, `${at}.qualname`, ANSWER_BOUNDS.name);
  bool(c.generator, `${at}.generator`);
  let file = 0;
  if (has(c, 'file')) {
    if (!files) fail(`${at} names a file, and the recording has no list of files`);
    file = int(c.file, `${at}.file`, 1, files.length - 1);
  }
  const last = bounds.lastLine(file, files);
  int(c.firstline, `${at}.firstline`, 0, last);
  ascending(c.lines, `${at}.lines`, 1, last);
  if (has(c, 'free')) array(c.free, `${at}.free`, ANSWER_BOUNDS.names).forEach((n, i) => text(n, `${at}.free[${i}]`, ANSWER_BOUNDS.name));
  if (has(c, 'enclosing')) text(c.enclosing, `${at}.enclosing`, ANSWER_BOUNDS.name);
  return c as unknown as CodeInfo;
}

function checkEvents(events: readonly unknown[], codes: readonly CodeInfo[], files: readonly string[] | undefined, bounds: RunBounds, stdoutLength: number, stderrLength: number): void {
  let depth = -1;
  let out = 0;
  let err = 0;
  // Object numbers are given in the order objects are first seen, at most one per name shown.
  let objects = 0;
  // The event where the tracer stopped walking the heap (-1: it never did).
  let heapStopped = -1;
  for (let i = 0; i < events.length; i++) {
    const at = `events[${i}]`;
    const e = object(events[i], at);
    fields(e, at, EVENT_REQUIRED, EVENT_OPTIONAL);
    if (typeof e.event !== 'string' || !EVENT_KINDS.has(e.event)) fail(`${at}.event is ${shown(e.event)}, not call, line, return or exception`);
    const code = codes[int(e.code, `${at}.code`, 0, codes.length - 1)]!;
    if (e.function !== code.name) fail(`${at}.function is not the name of its code`);
    const last = bounds.lastLine(code.file ?? 0, files);
    int(e.line, `${at}.line`, 0, last);
    const d = int(e.depth, `${at}.depth`, 0, ANSWER_BOUNDS.depth);
    if (d > depth + 1) fail(`${at}.depth is ${d}, ${i === 0 ? 'and the first event is at depth 0' : `after an event at depth ${depth}: a depth grows by one a call`}`);
    depth = d;
    // Each event gives at most three frames their numbers (its own, its caller's, its user caller's).
    const frames = 3 * (i + 1);
    int(e.frame, `${at}.frame`, 0, frames - 1);
    int(e.parent, `${at}.parent`, -1, frames - 1);
    out = int(e.out, `${at}.out`, out, stdoutLength);
    if (has(e, 'err')) err = int(e.err, `${at}.err`, err, stderrLength);

    const locals = names(e.locals, `${at}.locals`, (v, where) => text(v, where, bounds.repr));
    const globals = has(e, 'globals') ? names(e.globals, `${at}.globals`, (v, where) => text(v, where, bounds.repr)) : null;
    // The heap's boxes number the objects their items refer to: each arrow (or class) may be new.
    if (has(e, 'heap_stopped')) {
      if (e.heap_stopped !== true) fail(`${at}.heap_stopped is ${shown(e.heap_stopped)}, not true`);
      if (heapStopped >= 0) fail(`${at} stops the heap again, after events[${heapStopped}]`);
      heapStopped = i;
    }
    if (heapStopped >= 0 && (has(e, 'heap') || has(e, 'heap_cut'))) fail(`${at} has heap boxes, after the heap stopped at events[${heapStopped}]`);
    const heapNumbers = has(e, 'heap') ? checkHeap(e.heap, `${at}.heap`, bounds) : [];
    objects += Object.keys(locals).length + (globals ? Object.keys(globals).length : 0) + heapNumbers.length;
    heapNumbers.forEach((n) => int(n.value, n.at, 1, objects));
    if (has(e, 'heap_cut')) {
      const cut = array(e.heap_cut, `${at}.heap_cut`, HEAP_BOUNDS.boxes);
      cut.forEach((n, j) => int(n, `${at}.heap_cut[${j}]`, 1, objects));
      if (new Set(cut).size !== cut.length) fail(`${at}.heap_cut names a box twice`);
    }
    if (has(e, 'sizes')) within(names(e.sizes, `${at}.sizes`, (v, where) => int(v, where, 0, Number.MAX_SAFE_INTEGER)), locals, `${at}.sizes`);
    if (has(e, 'ids')) within(names(e.ids, `${at}.ids`, (v, where) => int(v, where, 1, objects)), locals, `${at}.ids`);
    if (has(e, 'global_ids')) {
      if (!globals) fail(`${at} has global_ids without globals`);
      within(names(e.global_ids, `${at}.global_ids`, (v, where) => int(v, where, 1, objects)), globals, `${at}.global_ids`);
    }

    if (has(e, 'value')) text(e.value, `${at}.value`, bounds.repr);
    if (has(e, 'value_size')) int(e.value_size, `${at}.value_size`, 0, Number.MAX_SAFE_INTEGER);
    if (has(e, 'exc_type')) text(e.exc_type, `${at}.exc_type`, ANSWER_BOUNDS.name);
    for (const flag of ['exc_tb_none', 'raising', 'yield', 'resume', 'hit'] as const) if (has(e, flag)) bool(e[flag], `${at}.${flag}`);
    if (has(e, 'hit_error')) text(e.hit_error, `${at}.hit_error`, ANSWER_BOUNDS.text);
    if (has(e, 'edits')) {
      array(e.edits, `${at}.edits`, bounds.edits).forEach((m, j) => {
        const where = `${at}.edits[${j}]`;
        const edit = object(m, where);
        fields(edit, where, ['name', 'expr', 'value'], []);
        text(edit.name, `${where}.name`, ANSWER_BOUNDS.name);
        text(edit.expr, `${where}.expr`, ANSWER_BOUNDS.text);
        text(edit.value, `${where}.value`, bounds.repr);
      });
    }
    if (has(e, 'watch')) {
      array(e.watch, `${at}.watch`, bounds.watch).forEach((w, j) => checkWatchValue(w, `${at}.watch[${j}]`, bounds));
    }
    if (has(e, 'evaluated')) {
      if (i !== bounds.evaluateAt) fail(`${at} has an evaluated expression, which no one asked for there`);
      checkWatchValue(e.evaluated, `${at}.evaluated`, bounds);
    }
  }
}

/** The tracer's caps on the heap graph (tracer.py: MAX_HEAP_NODES, MAX_HEAP_ITEMS, MAX_HEAP_TEXT,
 * MAX_HEAP_BASES): boxes an event sends, items a box shows, an inline value's or a name's text
 * (in UTF-16 units, with the cut's mark), the program's classes a class derives from. */
export const HEAP_BOUNDS = { boxes: 60, items: 30, text: 2 * 200 + 1, bases: 4 } as const;

const HEAP_SEQUENCES: ReadonlySet<string> = new Set(['list', 'tuple', 'set', 'frozenset']);

/** An event's `heap`: its boxes' shapes and texts. Returns every object number it holds (the
 * boxes' own, their arrows, classes and bases), for the caller to check against the numbers
 * given so far. */
function checkHeap(value: unknown, at: string, bounds: RunBounds): { value: unknown; at: string }[] {
  const numbers: { value: unknown; at: string }[] = [];
  const ids = new Set<unknown>();
  const cell = (c: unknown, where: string): void => {
    const o = object(c, where);
    const keys = Object.keys(o);
    if (keys.length !== 1 || (keys[0] !== 'v' && keys[0] !== 'ref')) fail(`${where} has the fields ${listed(keys)}, not v or ref`);
    if (keys[0] === 'v') text(o.v, `${where}.v`, HEAP_BOUNDS.text);
    else numbers.push({ value: o.ref, at: `${where}.ref` });
  };
  const pair = (p: unknown, where: string, named: boolean): void => {
    const two = array(p, where, 2);
    if (two.length !== 2) fail(`${where} is not a pair`);
    if (named) text(two[0], `${where}[0]`, HEAP_BOUNDS.text);
    else cell(two[0], `${where}[0]`);
    cell(two[1], `${where}[1]`);
  };
  array(value, at, HEAP_BOUNDS.boxes).forEach((b, i) => {
    const where = `${at}[${i}]`;
    const box = object(b, where);
    const kind = box.kind;
    if (typeof kind !== 'string') fail(`${where}.kind is ${kindOf(kind)}, not text`);
    const sequence = HEAP_SEQUENCES.has(kind);
    if (!sequence && kind !== 'dict' && kind !== 'instance' && kind !== 'class') fail(`${where}.kind is ${shown(kind)}, which no box has`);
    const optional = kind === 'instance' ? ['more', 'cls'] : kind === 'class' ? ['more', 'bases'] : ['more'];
    fields(box, where, kind === 'instance' ? ['id', 'kind', 'type', 'repr', 'items'] : ['id', 'kind', 'type', 'items'], optional);
    numbers.push({ value: box.id, at: `${where}.id` });
    if (ids.has(box.id)) fail(`${where} sends box ${shown(box.id)} twice`);
    ids.add(box.id);
    text(box.type, `${where}.type`, ANSWER_BOUNDS.name);
    if (has(box, 'repr')) text(box.repr, `${where}.repr`, bounds.repr);
    const items = array(box.items, `${where}.items`, HEAP_BOUNDS.items);
    items.forEach((item, j) => (sequence ? cell(item, `${where}.items[${j}]`) : pair(item, `${where}.items[${j}]`, kind !== 'dict')));
    if (has(box, 'more')) int(box.more, `${where}.more`, 1, Number.MAX_SAFE_INTEGER);
    if (has(box, 'cls')) numbers.push({ value: box.cls, at: `${where}.cls` });
    if (has(box, 'bases')) array(box.bases, `${where}.bases`, HEAP_BOUNDS.bases).forEach((n, j) => numbers.push({ value: n, at: `${where}.bases[${j}]` }));
  });
  return numbers;
}

/** A watch's (or an evaluated expression's) answer: `{value}` or `{error}`. */
function checkWatchValue(w: unknown, where: string, bounds: RunBounds): void {
  const o = object(w, where);
  const keys = Object.keys(o);
  const key = keys[0];
  if (keys.length !== 1 || (key !== 'value' && key !== 'error')) fail(`${where} has the fields ${listed(keys)}, not value or error`);
  text(o[key], `${where}.${key}`, key === 'value' ? bounds.repr : ANSWER_BOUNDS.text);
}

function checkExit(value: unknown, source: string, bounds: RunBounds): ExitInfo {
  const exit = object(value, 'its exit');
  fields(exit, 'its exit', ['status'], EXIT_OPTIONAL);
  if (typeof exit.status !== 'string' || !EXIT_STATUSES.has(exit.status)) fail(`its exit status is ${shown(exit.status)}, which no run ends with`);
  if (has(exit, 'message')) text(exit.message, 'its exit message', ANSWER_BOUNDS.text);
  if (has(exit, 'value')) text(exit.value, 'the value it returned', bounds.repr);
  if (has(exit, 'exc_type')) text(exit.exc_type, 'its exception type', ANSWER_BOUNDS.name);
  // Only SystemExit gives one, and only to a program that ended (tracer.py, _exit_code).
  if (has(exit, 'exit_code')) {
    int(exit.exit_code, 'its exit code', -(2 ** 31), 2 ** 31 - 1);
    if (exit.status !== 'normal') fail(`its exit has an exit code, but its status is ${shown(exit.status)}, not normal`);
  }
  // A syntax error may be reported one line past the last (an unfinished block at the end).
  if (has(exit, 'line')) int(exit.line, 'the line of its exit', 0, bounds.lastLine(0, undefined) + 1);
  if (has(exit, 'column')) int(exit.column, 'the column of its exit', 0, source.length + 2);
  return exit as unknown as ExitInfo;
}

// ---------------------------------------------------------------------------------------------
// The pieces

function fail(reason: string): never {
  throw new UntrustedAnswer(reason);
}

function has(o: Record<string, unknown>, key: string): boolean {
  return Object.hasOwn(o, key);
}

/** A plain object (not an array, a Map, a Date or anything else a message can carry). */
function object(value: unknown, at: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(`${at} is ${kindOf(value)}, not an object`);
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) fail(`${at} is not a plain object`);
  return value as Record<string, unknown>;
}

/** The object has every required field and no field but those. */
function fields(o: Record<string, unknown>, at: string, required: readonly string[], optional: readonly string[]): void {
  for (const key of Object.keys(o)) {
    if (!required.includes(key) && !optional.includes(key)) fail(`${at} has a field ${quoted(key)} that no answer has`);
  }
  for (const key of required) if (!has(o, key)) fail(`${at} has no ${key}`);
}

function array(value: unknown, at: string, most: number): unknown[] {
  if (!Array.isArray(value) || Object.getPrototypeOf(value) !== Array.prototype) fail(`${at} is ${kindOf(value)}, not a list`);
  if (value.length > most) fail(`${at} has ${value.length.toLocaleString('en-US')} entries (at most ${most.toLocaleString('en-US')})`);
  return value;
}

function int(value: unknown, at: string, least: number, most: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value)) fail(`${at} is ${shown(value)}, not a whole number`);
  if (value < least || value > most) fail(`${at} is ${shown(value)}, outside ${least}..${most}`);
  return value;
}

function text(value: unknown, at: string, most: number): string {
  if (typeof value !== 'string') fail(`${at} is ${kindOf(value)}, not text`);
  if (value.length > most) fail(`${at} is ${value.length.toLocaleString('en-US')} characters long (at most ${most.toLocaleString('en-US')})`);
  return value;
}

function bool(value: unknown, at: string): boolean {
  if (typeof value !== 'boolean') fail(`${at} is ${kindOf(value)}, not true or false`);
  return value;
}

/** Line numbers in increasing order, each within least..most. */
function ascending(value: unknown, at: string, least: number, most: number): number[] {
  const list = array(value, at, most - least + 1);
  let previous = least - 1;
  for (let i = 0; i < list.length; i++) {
    const n = int(list[i], `${at}[${i}]`, least, most);
    if (n <= previous) fail(`${at} are not in increasing order`);
    previous = n;
  }
  return list as number[];
}

/** A map of names (locals, their sizes or objects, the globals shown), each value checked. */
function names<T>(value: unknown, at: string, check: (v: unknown, at: string) => T): Record<string, T> {
  const o = object(value, at);
  const keys = Object.keys(o);
  if (keys.length > ANSWER_BOUNDS.names) fail(`${at} has ${keys.length.toLocaleString('en-US')} names (at most ${ANSWER_BOUNDS.names.toLocaleString('en-US')})`);
  for (const key of keys) {
    if (key.length > ANSWER_BOUNDS.name) fail(`${at} has a name ${key.length.toLocaleString('en-US')} characters long`);
    if (key === '__proto__') fail(`${at} has the name __proto__, which the tracer never records`);
    check(o[key], `${at}.${key}`);
  }
  return o as Record<string, T>;
}

/** Every name of `sub` is a name of `all`. */
function within(sub: Record<string, unknown>, all: Record<string, unknown>, at: string): void {
  for (const key of Object.keys(sub)) if (!has(all, key)) fail(`${at} names ${quoted(key)}, which is not shown there`);
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return 'text';
  return `a ${typeof value}`;
}

/** A value in a message: numbers and booleans as they are, anything else by its kind. */
function shown(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') return value.length <= 40 ? JSON.stringify(value) : `text of ${value.length.toLocaleString('en-US')} characters`;
  return kindOf(value);
}

function quoted(key: string): string {
  return key.length <= 40 ? JSON.stringify(key) : `of ${key.length.toLocaleString('en-US')} characters`;
}

function listed(keys: readonly string[]): string {
  return keys.length === 0 ? 'none' : keys.slice(0, 5).map(quoted).join(', ') + (keys.length > 5 ? ', …' : '');
}
