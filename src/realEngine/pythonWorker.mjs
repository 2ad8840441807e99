// The entry of the Python worker thread (workerHost.ts): TypeScript runs through tsx, as in
// bin/ndb.mjs, since a worker does not inherit the main thread's loader.
import { register } from 'tsx/esm/api';

register();
await import('./pythonWorker.ts');
