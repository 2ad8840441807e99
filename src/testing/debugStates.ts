// The states `ndb debug FILE --call C --actions … [--breakpoints …] --json` prints, taken from the
// session layer the CLI prints them from (tests never import the CLI): the DAP and MCP tests compare
// every stop with them.

import { loadPythonHost } from '../realEngine/pythonHost';
import { debugStates, parseRunSteps, recordOrThrow, rerunWith } from '../session/programSession';
import { projectOptions, readProject } from '../session/projectFiles';

export async function debugJsonStates(file: string, call: string, actions: readonly string[], breakpoints: readonly number[]): Promise<Array<Record<string, unknown>>> {
  const engine = await loadPythonHost();
  // as the CLI reads it: the file's folder is its project
  const project = readProject(file);
  const run = projectOptions(project);
  const rec = await recordOrThrow(engine, project.source, call, undefined, undefined, run);
  const states = await debugStates(rec, parseRunSteps(actions.join(',')), breakpoints, rerunWith(engine, rec, undefined, run));
  // as printed: through JSON, so that what JSON leaves out (an undefined field) is left out here too
  return JSON.parse(JSON.stringify(states)) as Array<Record<string, unknown>>;
}
