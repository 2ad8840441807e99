// Where the app's model runs: the page's, or a test's.

import type { ModelWorkerFactory } from '../neuralEngine/modelClient';

export interface NeuralEnvironment {
  /** The page's query string (modelLoader.svelte.ts: queryOptions). */
  query: string;
  /** The absolute URL the app is served from: the model folders lie under it. */
  baseUrl: string;
  /** A WebGPU adapter, if the browser offers one. */
  requestAdapter(): Promise<unknown>;
  /** Whether the browser has WebGPU at all (an adapter may still be refused). */
  hasWebGpu?: boolean;
  /** Where the model worker comes from (the app's own by default; tests give a stand-in that
   * speaks the same messages). */
  modelWorker?: ModelWorkerFactory;
}
