// The states `ndb debug FILE --call C --actions … [--breakpoints …] --json` prints, taken from the
// session layer the CLI prints them from (tests never import the CLI): the DAP and MCP tests compare
// every stop with them.

import { readFileSync } from 'node:fs';
import { parseStepList } from '../core/actions';
import { loadPythonHost } from '../realEngine/pythonHost';
import { debugStates, recordOrThrow, rerunWith } from '../session/programSession';

export async function debugJsonStates(file: string, call: string, actions: readonly string[], breakpoints: readonly number[]): Promise<Array<Record<string, unknown>>> {
  const engine = await loadPythonHost();
  const rec = await recordOrThrow(engine, readFileSync(file, 'utf8'), call);
  const states = await debugStates(rec, parseStepList(actions.join(',')), breakpoints, rerunWith(engine, rec));
  // as printed: through JSON, so that what JSON leaves out (an undefined field) is left out here too
  return JSON.parse(JSON.stringify(states)) as Array<Record<string, unknown>>;
}
