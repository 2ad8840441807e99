// The first module main.ts imports, so that its body runs before the rest of the app is evaluated
// (about 200 ms of Svelte and the components): Python starts loading in its worker at once, and
// the model worker's code is fetched meanwhile. The clients take these workers when they start.

import { prestartModelWorker } from '../neuralEngine/modelClient';
import { prestartEngineWorker } from '../realEngine/browser/client';
import { modelTurnedOff } from './modelQuery';

/** Settles once Python's worker was told to start (main.ts waits for that before building the page). */
export const engineStarting = prestartEngineWorker();
if (!modelTurnedOff(location.search)) prestartModelWorker();
