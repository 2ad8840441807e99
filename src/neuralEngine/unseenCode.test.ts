// Where the model cannot know the next state (issue 45): it reads the main file's source only, so
// in a program of several files a jump, a step into a call, and any step from a stop in another
// module are held to "a guess" (an agent's six projects: 33 "sure" answers of Continue to a
// breakpoint in another module, none right).

import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { confidenceWords } from '../core/confidence';
import { sourceLines } from '../core/format';
import { fileIndexOf } from '../core/location';
import type { Recording } from '../core/trace';
import { loadInProcessHost } from '../realEngine/pythonHost';
import { REPO_ROOT } from '../util/repoRoot';
import { projectOptions, readProject } from '../session/projectFiles';
import { UNSEEN_CONFIDENCE, unseenCode } from './neuralSession';

let shop: Recording;
let single: Recording;

beforeAll(async () => {
  const host = await loadInProcessHost();
  const project = readProject(join(REPO_ROOT, 'fixtures/project/shop/main.py'));
  shop = await host.record(project.source, '', { ...projectOptions(project), argv: ['order.json'] });
  single = await host.record('def f(x):\n    y = len(x)\n    return y\n', 'f([1, 2])');
}, 120_000);

describe('unseenCode', () => {
  it('says nothing of a program of one file', () => {
    for (let at = 0; at < single.events.length; at++) {
      for (const kind of ['step_into', 'step_over', 'step_return', 'continue', 'inv_step_call'] as const) {
        expect(unseenCode(single, at, { kind }, sourceLines(single.source))).toBeNull();
      }
    }
  });

  it("holds jumps, steps into calls and every step from another module's stop to a guess", () => {
    const lines = sourceLines(shop.source);
    const inMain = shop.events.findIndex((e) => fileIndexOf(shop, e) === 0 && e.event === 'line' && /\w\s*\(/.test(lines[e.line - 1] ?? ''));
    const plain = shop.events.findIndex((e) => fileIndexOf(shop, e) === 0 && e.event === 'line' && !/\w\s*\(/.test(lines[e.line - 1] ?? ''));
    const inPricing = shop.events.findIndex((e) => fileIndexOf(shop, e) === 1);
    expect(Math.min(inMain, plain, inPricing)).toBeGreaterThanOrEqual(0);
    expect(unseenCode(shop, inMain, { kind: 'continue' }, lines)).toMatch(/other modules/);
    expect(unseenCode(shop, inMain, { kind: 'step_over' }, lines)).toMatch(/other modules/);
    expect(unseenCode(shop, inMain, { kind: 'step_into' }, lines)).toMatch(/calls something/);
    expect(unseenCode(shop, plain, { kind: 'step_into' }, lines)).toBeNull();
    expect(unseenCode(shop, inPricing, { kind: 'step_into' }, lines)).toMatch(/not shown/);
    expect(unseenCode(shop, null, { kind: 'inv_step_into' }, lines)).toMatch(/not shown/);
    expect(confidenceWords(UNSEEN_CONFIDENCE)).toBe('a guess');
  });
});
