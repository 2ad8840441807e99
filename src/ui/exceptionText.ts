// An exception as pupils know it from Python's tracebacks, `ValueError: bad value`, not as its
// repr, `ValueError('bad value')`. Read back from the repr the tracer recorded; anything it cannot
// read is shown as it is.

const CALL = /^([A-Za-z_][\w.]*)\(([\s\S]*)\)$/;
const ONE_STRING = /^(['"])((?:\\.|(?!\1)[^\\])*)\1$/;

function unescape(body: string): string {
  return body.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c === 't' ? '\t' : c));
}

/** `ValueError('bad')` → `ValueError: bad`; `StopIteration()` → `StopIteration`; `KeyError('k')`
 * → `KeyError: 'k'` (Python shows a missing key as its repr). */
export function exceptionText(repr: string): string {
  const call = CALL.exec(repr.trim());
  if (!call) return repr;
  const [, name, args] = call as unknown as [string, string, string];
  if (args.trim() === '') return name;
  const one = ONE_STRING.exec(args.trim());
  if (name === 'KeyError' || !one) return `${name}: ${args}`;
  return `${name}: ${unescape(one[2]!)}`;
}
