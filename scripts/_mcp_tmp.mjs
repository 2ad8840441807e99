import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
const PROGRAM = 'def f(xs):\n    total = 0\n    for x in xs:\n        total += x\n    return total\n\n\nprint(f([1, 2, 3]))\n';
for (let i = 0; i < 4; i++) {
  const t = performance.now();
  const client = new Client({ name: 'b', version: '1' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: ['bin/ndb.mjs', 'mcp'], stderr: 'ignore' }));
  const c = performance.now();
  const r = await client.callTool({ name: 'start_session', arguments: { code: PROGRAM } });
  const s = performance.now();
  console.log(`connect ${Math.round(c - t)} start_session ${Math.round(s - c)} total ${Math.round(s - t)}`);
  await client.close();
}
