// The app's warm start (pyodide.worker.ts): an interpreter restored from a memory snapshot taken
// after the tracer was imported keeps that tracer (installModule's keepLoaded) and records exactly
// as the interpreter the snapshot was taken from.
import { loadPyodide, type PyodideInterface } from 'pyodide';
import { describe, expect, it } from 'vitest';
import { engineSources } from './node/node';
import { installModule, RealEngine } from './realEngine';
import { packSnapshot, unpackSnapshot } from './snapshotPages';

type SnapshotLoad = Parameters<typeof loadPyodide>[0] & { _makeSnapshot?: boolean; _loadSnapshot?: Uint8Array };
type Snapshotting = PyodideInterface & { makeMemorySnapshot(): Uint8Array };

const PROGRAM = 'class Box:\n    def __init__(self, n):\n        self.n = n\n\ndef f(x):\n    b = Box(x)\n    b.n += 1\n    return b.n\n';

describe('memory snapshot start', () => {
  it('restores the tracer that was imported and records the same events', async () => {
    const sources = engineSources();
    const first = (await loadPyodide({ _makeSnapshot: true } as SnapshotLoad)) as Snapshotting;
    const plain = await RealEngine.create(first, sources);
    installModule(first, 'ndb_probe', 'VALUE = 1\n');
    first.pyimport('ndb_probe');
    const snapshot = first.makeMemorySnapshot();
    const expected = plain.record(PROGRAM, 'f(2)');

    // Stored without its zero pages (the app's Cache API entry), restored from what was stored.
    const packed = packSnapshot(snapshot);
    expect(packed.length).toBeLessThan(snapshot.length * 0.8);
    const restored = (await loadPyodide({ _loadSnapshot: unpackSnapshot(packed) } as SnapshotLoad)) as PyodideInterface;
    // keepLoaded: the module the snapshot holds is used as it is, even if the file now differs; the
    // file is written (a traceback reads its lines), with no Python run to write it.
    installModule(restored, 'ndb_probe', 'VALUE = 2\n', { keepLoaded: true });
    expect(restored.runPython('import ndb_probe; ndb_probe.VALUE')).toBe(1);
    expect(restored.runPython("open('/ndb/ndb_probe.py', encoding='utf-8').read()")).toBe('VALUE = 2\n');
    // Without it, the file is imported afresh.
    installModule(restored, 'ndb_probe', 'VALUE = 3\n');
    expect(restored.runPython('import ndb_probe; ndb_probe.VALUE')).toBe(3);

    const warm = await RealEngine.create(restored, sources, { keepLoaded: true });
    const got = warm.record(PROGRAM, 'f(2)');
    expect(got.exit).toEqual(expected.exit);
    expect(got.events.map((e) => [e.event, e.line, e.locals])).toEqual(expected.events.map((e) => [e.event, e.line, e.locals]));
    expect(got.events.some((e) => Object.values(e.locals).includes('Box(n=3)'))).toBe(true);
  }, 60_000);
});
