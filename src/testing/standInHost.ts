// A PythonHost for unit tests of what sits above the engine (the session, the app's stores): the
// test gives the questions it answers; any other question fails the test, naming itself.

import type { EngineInfo } from '../realEngine/browser/workerProtocol';
import { hostFromAsk, type Ask, type PythonHost } from '../realEngine/engineProtocol';

type Questions = Omit<PythonHost, 'ask' | 'forOwner' | 'release'>;

export const STAND_IN_INFO: EngineInfo = { loadMs: 1, pythonVersion: '3.14.2', interruptible: true };

/** The engine as the app sees it (`ready` too), answering with `answers`' methods. */
export function standInHost(answers: Partial<Questions>): PythonHost & { readonly ready: Promise<EngineInfo> } {
  const unasked: Ask = async (question) => {
    throw new Error(`the stand-in engine was not meant to be asked ${question.kind}`);
  };
  const host: PythonHost = {
    ...hostFromAsk(unasked, { forOwner: () => host, release: async () => undefined }),
    ...answers,
  };
  return Object.assign(host, { ready: Promise.resolve(STAND_IN_INFO) });
}
