// asyncio inside the sandbox: asyncio.run drives the program's coroutines on an event loop of pure
// Python (sandbox.py), never on Pyodide's JavaScript-timed loop; sleeping takes no time, a loop
// with nothing left to run says so, and the loop's network doors stay shut.

import { beforeAll, describe, expect, it } from 'vitest';
import { loadInProcessHost, type PythonHost } from './pythonHost';

let host: PythonHost;
beforeAll(async () => {
  host = await loadInProcessHost();
}, 60_000);

const GATHER = [
  'import asyncio, time', //                          1
  '', //                                              2
  'async def double(x):', //                          3
  '    await asyncio.sleep(5)', //                    4
  '    return x * 2', //                              5
  '', //                                              6
  'async def main():', //                             7
  '    return await asyncio.gather(double(1), double(2))', // 8
  '', //                                              9
  'started = time.time()', //                         10
  'print(asyncio.run(main()), time.time() - started < 2)', // 11
].join('\n');

describe('asyncio in the sandbox', () => {
  it('runs coroutines and records their frames, with sleeps on a virtual clock', async () => {
    const rec = await host.record(GATHER, '');
    expect(rec.exit).toEqual({ status: 'normal' });
    expect(rec.stdout).toBe('[2, 4] True\n');
    const calls = rec.events.filter((e) => e.function === 'double' && e.event === 'call');
    // each coroutine is called, then resumed after its sleep
    expect(calls.map((e) => !!e.resume)).toEqual([false, false, true, true]);
    // and again: the engine's own loop came back after the run
    expect((await host.record(GATHER, '')).stdout).toBe('[2, 4] True\n');
  });

  it('says when every task waits forever, and keeps the network shut', async () => {
    const stuck = await host.record('import asyncio\n\nasync def wait():\n    await asyncio.Event().wait()\n\nasyncio.run(wait())\n', '');
    expect(stuck.exit.message).toMatch(/the event loop has nothing left to run/);
    const net = await host.record("import asyncio\n\nasync def go():\n    await asyncio.open_connection('example.com', 80)\n\nasyncio.run(go())\n", '');
    // the name lookup runs in a thread, which Pyodide cannot start; a socket's connect is refused
    expect(net.exit).toMatchObject({ status: 'exception', exc_type: 'RuntimeError' });
    expect(net.exit.message).toMatch(/thread/);
    const sock = await host.record("import asyncio, socket\n\nasync def go():\n    s = socket.socket()\n    s.setblocking(False)\n    await asyncio.get_running_loop().sock_connect(s, ('127.0.0.1', 80))\n\nasyncio.run(go())\n", '');
    expect(sock.exit.status).toBe('exception');
    expect(sock.exit.message).toMatch(/not available in ndb's sandbox|NotImplementedError|not supported/);
  });
});
