// `ndb eval trajectories --frame-names both` and `ndb eval jumps --action` (issue 45 items 4 and
// 5), on the shipped model (int8) and a two-item set made from the first gallery program.
import { describe, expect, it } from 'vitest';
import { loopSumSet, runCli as run } from './testCli';

const set = loopSumSet('total([3, 1])');

describe('ndb eval: what the name constraint and composition gain', () => {
  it('decodes with and without the frame names on the same states, beside the trivial answer', async () => {
    const { code, lines } = await run('eval', 'trajectories', set, '--frame-names', 'both', '--dtype', 'int8', '--json');
    expect(code).toBe(0);
    const [on, off] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(on).toMatchObject({ decoder: 'constrained', frame_names: true, n: 5 });
    expect(off).toMatchObject({ decoder: 'constrained', frame_names: false, n: 5 });
    expect(on!.trivial).toEqual(off!.trivial);
    expect(on!.trivial).toMatchObject({ n: 5 });
    expect((await run('eval', 'trajectories', set, '--frame-names', 'maybe', '--json')).code).toBe(2);
  }, 120_000);

  it('asks Continue as a class does, at once and composed', async () => {
    const { code, lines } = await run('eval', 'jumps', set, '--action', 'continue', '--max-steps', '3', '--dtype', 'int8', '--json');
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    const r = JSON.parse(lines[0]!) as { action: string; source: string; n: number; programs: number; presses: number; breakpoints: Record<string, number[]>; trivial: number };
    expect(r).toMatchObject({ action: 'continue', source: 'class', programs: 1, max_steps: 3 });
    expect(r.n).toBe(r.presses);
    expect(r.n).toBeGreaterThan(1);
    expect(Object.values(r.breakpoints)[0]!.length).toBeGreaterThan(0);
    expect(typeof r.trivial).toBe('number');
    expect((await run('eval', 'jumps', set, '--action', 'jump', '--json')).code).toBe(2);
  }, 180_000);
});
