// The real engine as the Node faces name it: the interface lives in engineProtocol.ts, the
// factories in nodeHosts.ts; this file only keeps the old import path of both.

export type { CodeLines, LocalsEvaluation, PythonHost } from './engineProtocol';
export { inProcessHost, loadInProcessHost, loadPythonHost, loadPythonPool } from './node/nodeHosts';
