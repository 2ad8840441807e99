// npx tsx scripts/bench-heap.ts [TRACER.py] [REPS]
//
// What the heap walk (tracer.py, `_Objects._heap`; docs/trace.md, `heap`) costs a run, in Pyodide
// as the faces run it: four loops of 2,000 events (a nested list, 20 instances and a dict of 50,
// two lists of 1,000 items, a linked list of 100 nodes), each recorded without `objects` (`plain`),
// with `objects` but the walk left out (`ids`) and with `objects` (`heap`; `walk`: the walk's own
// time in that run), the best of REPS runs (default 3); then each loop for 10,000 events under the
// faces' default time limit (8 s), to show where the walk's share of the time limit stops it
// (`heap_stopped`). TRACER.py: another tracer to measure (an older one: `git show
// REV:src/realEngine/python/tracer.py > /tmp/old.py`), else this checkout's. On a busy machine compare
// `walk`: the whole runs' times move with the load.
import { readFileSync } from 'node:fs';
import { loadPyodide } from 'pyodide';
import { engineSources } from '../src/realEngine/node/node';
import { RealEngine, sandboxJsGlobals } from '../src/realEngine/realEngine';

const PROGRAMS: Record<string, string> = {
  grid: 'grid = [[0] * 3 for _ in range(3)]\nfor i in range(100000):\n    grid[i % 3][(i // 3) % 3] += 1\n',
  instances: 'class Pet:\n    def __init__(self, i):\n        self.i = i\n        self.n = 0\n\npets = [Pet(i) for i in range(20)]\nd = {i: i for i in range(50)}\nfor k in range(100000):\n    pets[k % 20].n += 1\n    d[k % 50] += 1\n',
  biglists: 'a = list(range(1000))\nb = [0] * 1000\nfor i in range(100000):\n    a[i % 1000] += 1\n    b[i % 1000] = a[i % 1000]\n',
  linked: 'class Node:\n    def __init__(self, v, nxt):\n        self.v = v\n        self.next = nxt\n\nhead = None\nfor i in range(100):\n    head = Node(i, head)\nnode = head\nfor i in range(100000):\n    node.v += 1\n    node = node.next or head\n',
};

const tracerPath = process.argv[2];
const reps = Number(process.argv[3] ?? 3);
const pyodide = await loadPyodide({ jsglobals: sandboxJsGlobals() });
const sources = engineSources();
const engine = await RealEngine.create(pyodide, tracerPath ? { ...sources, ndb_tracer: readFileSync(tracerPath, 'utf8') } : sources);
// The walk's own time (`walk`): _Objects._heap wrapped in a clock; `ids`: the walk left out.
pyodide.runPython(
  [
    'import time, ndb_tracer',
    '_ndb_heap = ndb_tracer._Objects._heap',
    '_ndb_walk = [0.0]',
    'def _ndb_timed(self, record, roots):',
    '    started = time.perf_counter()',
    '    try:',
    '        return _ndb_heap(self, record, roots)',
    '    finally:',
    '        _ndb_walk[0] += time.perf_counter() - started',
  ].join('\n'),
);
const mode = (m: string): void => pyodide.runPython(m === 'ids' ? 'ndb_tracer._Objects._heap = lambda self, record, roots: None' : m === 'heap' ? 'ndb_tracer._Objects._heap = _ndb_timed' : 'ndb_tracer._Objects._heap = _ndb_heap');
console.log(`loop         plain     ids    heap    walk  (best of ${reps}, s; Pyodide ${pyodide.version})`);
for (const [name, source] of Object.entries(PROGRAMS)) {
  const best: Record<string, number> = {};
  for (const m of ['plain', 'ids', 'heap']) {
    mode(m);
    for (let r = 0; r < reps; r++) {
      pyodide.runPython('_ndb_walk[0] = 0.0');
      const t = performance.now();
      const rec = engine.record(source, '', { objects: m !== 'plain', heap: m !== 'plain', maxEvents: 2000, timeLimit: 30 });
      const s = (performance.now() - t) / 1000;
      if (rec.events.length !== 2000) throw new Error(`${name}: ${rec.events.length} events`);
      best[m] = Math.min(best[m] ?? Infinity, s);
      if (m === 'heap') best.walk = Math.min(best.walk ?? Infinity, Number(pyodide.runPython('_ndb_walk[0]')));
    }
  }
  mode('plain');
  // the default time limit of the faces (8 s): 10,000 events
  const t = performance.now();
  const rec = engine.record(source.replace('100000', '1000000'), '', { objects: true, heap: true, maxEvents: 10_000, timeLimit: 8 });
  const s8 = (performance.now() - t) / 1000;
  const k = rec.events.findIndex((e) => e.heap_stopped);
  const cols = ['plain', 'ids', 'heap', 'walk'].map((m) => best[m]!.toFixed(3).padStart(7)).join(' ');
  console.log(`${name.padEnd(10)}  ${cols}   10,000 events, 8 s limit: ${rec.events.length} events in ${s8.toFixed(2)} s, exit ${rec.exit.status}, heap stopped at ${k}`);
}
