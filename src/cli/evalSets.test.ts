// `ndb eval trajectories` with several sets and `ndb eval early-stop`, on the shipped model and a
// two-item set made from the first gallery program.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { loopSumSet, runCli as run } from './testCli';

const set = loopSumSet('total([3, 1, 4, 1, 5])');
const dir = dirname(set);


describe('ndb eval on several sets', () => {
  it('reports each file on its own line, named by --label or the file name', async () => {
    const { code, lines } = await run('eval', 'trajectories', set, set, '--label', 'gallery,again', '--dtype', 'int8', '--json');
    expect(code).toBe(0);
    const [a, b] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(a).toMatchObject({ set: 'gallery', file: set, n: 5, items: 2 });
    expect(b).toMatchObject({ set: 'again', n: 5 });
    expect(a!.exact_match).toBe(b!.exact_match);
    expect(a!.ms_per_state_median as number).toBeGreaterThan(0);
    const named = await run('eval', 'trajectories', set, '--limit', '1', '--dtype', 'int8', '--json');
    expect(JSON.parse(named.lines[0]!)).toMatchObject({ set: 'gallery', n: 3 });
    expect((await run('eval', 'trajectories', set, set, '--label', 'one', '--json')).code).toBe(2);
  }, 120_000);

  it('fits the calibration and writes it into the model folder, --write anywhere among the options', async () => {
    const shipped = join(REPO_ROOT, 'public/models/ndb-cpu-6m');
    const model = join(dir, 'model');
    mkdirSync(join(model, 'onnx'), { recursive: true });
    for (const f of readdirSync(shipped).filter((f) => f.endsWith('.json'))) copyFileSync(join(shipped, f), join(model, f));
    copyFileSync(join(shipped, 'onnx/model_int8.onnx'), join(model, 'onnx/model_int8.onnx'));
    const { code, lines } = await run('eval', 'calibrate', set, '--label', 'gallery', '--write', '--model', model, '--dtype', 'int8', '--json');
    expect(code).toBe(0);
    const result = JSON.parse(lines[0]!) as { dtype: string; written: string; calibration: Record<string, { a: number; b: number }>; after: Record<string, { n: number }> };
    expect(result).toMatchObject({ dtype: 'int8', written: join(model, 'config.json') });
    expect(result.after.state!.n).toBe(5);
    const config = JSON.parse(readFileSync(join(model, 'config.json'), 'utf8')) as { ndb_calibration?: Record<string, unknown> };
    expect(config.ndb_calibration?.int8).toEqual(result.calibration);
  }, 120_000);

  it('measures the early stop beside no early stop, and both predict the same', async () => {
    const { code, lines } = await run('eval', 'early-stop', set, '--dtype', 'int8', '--json');
    expect(code).toBe(0);
    const r = JSON.parse(lines[0]!) as {
      before: Record<string, number>;
      after: Record<string, number>;
      finished_readable_before: number;
      finished_readable_identical: number;
    };
    expect(r).toMatchObject({ set: 'gallery', states: 5 });
    expect(r.after.exact_match).toBe(r.before.exact_match);
    expect(r.finished_readable_identical).toBe(r.finished_readable_before);
    for (const key of ['ms_median', 'ms_p95', 'ms_slowest_5pct_mean']) expect(r.before[key]!).toBeGreaterThan(0);
  }, 120_000);
});
