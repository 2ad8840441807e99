// The states `ndb debug FILE --call C --actions … [--breakpoints …] --json` prints, taken from the
// session layer the CLI prints them from, the road every face moves on (tests never import the
// CLI): the DAP and MCP tests compare every stop with them.

import { parseMoveStep } from '../core/actions';
import { loadPythonHost } from '../realEngine/pythonHost';
import { listStates } from '../session/actionList';
import { LiveSession } from '../session/liveSession';
import { projectOptions, readProject } from '../session/projectFiles';

export async function debugJsonStates(file: string, call: string, actions: readonly string[], breakpoints: readonly number[]): Promise<Array<Record<string, unknown>>> {
  const engine = await loadPythonHost();
  // as the CLI reads it: the file's folder is its project
  const project = readProject(file);
  const live = await LiveSession.start(engine, project.source, call, { engine: 'real', breakpoints, file: project.main, limits: projectOptions(project) });
  const states = await listStates(live, actions.map(parseMoveStep));
  // as printed: through JSON, so that what JSON leaves out (an undefined field) is left out here too
  return JSON.parse(JSON.stringify(states)) as Array<Record<string, unknown>>;
}
