// A host of several owners (processHost.ts: one interpreter per owner; processPool.ts: processes
// shared out by owner) answers a question that names no owner as its default owner does.

import { hostFromAsk, type Ask, type PythonHost } from '../engineProtocol';

export interface DefaultOwnerHost extends PythonHost {}

export abstract class DefaultOwnerHost {
  /** The view of DEFAULT_OWNER, made once the subclass can make views. */
  protected abstract readonly byDefault: PythonHost;

  abstract forOwner(owner: string): PythonHost;

  constructor() {
    // The question methods, each asked of the default owner when it is called (the subclass makes
    // byDefault after this runs).
    const ask: Ask = (question) => this.byDefault.ask(question);
    const { forOwner: _forOwner, ...questions } = hostFromAsk(ask, {
      forOwner: (owner) => this.forOwner(owner),
      release: () => this.byDefault.release(),
    });
    Object.assign(this, questions);
  }
}
