// A plain Python program whose names are those a JavaScript object answers from its prototype
// (`constructor`, `toString`, `valueOf`, `hasOwnProperty`), with a Java-style `toString` method, a
// local made through `f_locals` and a global made through `globals()` named like the app's own
// label for a global (`g (global)`), and output that holds a right-to-left override (issue 44).
// The tracer never shows a dunder name, so `__proto__` is added the way a recording read back
// from JSON (`ndb trace --json`) can carry it: `withProtoLocal`.

import type { Recording } from '../core/trace';
import { parseTraceJsonl, toTraceLines } from '../core/traceJsonl';
import { loadNodeEngine } from '../realEngine/node/node';

export const PROTOTYPE_NAMES_PROGRAM = [
  'import sys',
  '',
  'class Thing:',
  '    constructor = 1',
  '    valueOf = 2',
  '    def toString(self):',
  '        return "thing"',
  '',
  'def show(constructor, toString):',
  '    valueOf = [constructor]',
  '    hasOwnProperty = valueOf',
  '    sys._getframe().f_locals["g (global)"] = valueOf',
  '    del toString',
  '    return hasOwnProperty',
  '',
  'g = [1]',
  'globals()["g (global)"] = g',
  'constructor = Thing()',
  'toString = constructor.toString()',
  'valueOf = show(g, toString)',
  'hasOwnProperty = valueOf',
  'print("before \\u202edesrever\\u202c after")',
  '',
].join('\n');

/** The program's output: a right-to-left override and its end, raw. */
export const PROTOTYPE_NAMES_OUTPUT = 'before \u202edesrever\u202c after\n';

/** The program recorded with `objects` and `heap` (the views' identities and the app's heap), in this process's engine. */
export async function recordPrototypeNames(): Promise<Recording> {
  const engine = await loadNodeEngine();
  return engine.record(PROTOTYPE_NAMES_PROGRAM, '', { objects: true, heap: true });
}

/** The recording written as `ndb trace --json` lines and read back (core/traceJsonl.ts), with a
 * local `__proto__` (value `'p'`) added to every event of `fn` that has a local `hasOwnProperty`:
 * JSON.parse makes it an own property of the locals, as it does for any name. */
export function withProtoLocal(rec: Recording, fn: string): Recording {
  const lines = toTraceLines(rec).map((line) => {
    const text = JSON.stringify(line);
    if (line.event === 'exit' || line.function !== fn || !Object.prototype.hasOwnProperty.call(line.locals, 'hasOwnProperty')) return text;
    const locals = JSON.stringify(line.locals);
    return text.replace(locals, () => `${locals.slice(0, -1)},"__proto__":"'p'"}`);
  });
  return parseTraceJsonl(lines.join('\n'));
}
