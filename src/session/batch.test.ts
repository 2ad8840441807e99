// A batch of debugging requests: each in an interpreter of its own, a bad one failing only itself.

import { describe, expect, it } from 'vitest';
import { loadPythonHost } from '../realEngine/pythonHost';
import { POISONING_PROGRAM } from '../testing/hostilePrograms';
import { answerBatch, type BatchAnswer } from './batch';

const FILES: Record<string, string> = {
  'poison.py': POISONING_PROGRAM,
  'printer.py': 'def f():\n    print("seen")\n    return 1\n',
};

async function answers(requests: Array<object | string>): Promise<BatchAnswer[]> {
  const engine = await loadPythonHost();
  const all: BatchAnswer[] = [];
  // a string is a line as it stands
  const text = requests.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n');
  const readProgram = (file: string): string => {
    const source = FILES[file];
    if (source === undefined) throw new Error(`no file ${file}`);
    return source;
  };
  for await (const a of answerBatch(text, engine, { readProgram, session: { engine: 'real' } })) all.push(a);
  return all;
}

describe('answerBatch', () => {
  it("never lets one request's program change another request's states", async () => {
    const [, second] = await answers([{ id: 1, file: 'poison.py' }, { id: 2, file: 'printer.py', call: 'f()', actions: ['step_return'] }]);
    expect(second!.id).toBe(2);
    expect(JSON.stringify(second)).not.toContain('FORGED');
    expect('states' in second! && (second.states.at(-1) as { stdout?: string }).stdout).toBe('seen\n');
  }, 120_000);

  it('answers a bad request with its line and error, and goes on', async () => {
    const out = await answers([{ id: 'a', call: 'f()' }, 'not json', '[1]', { id: 'c', file: 'missing.py' }, { id: 'd', file: 'printer.py', call: 'f()', actions: ['step_over'] }]);
    expect(out.map((a) => ('error' in a ? `${a.line}: ${a.error}` : 'states'))).toEqual([
      '1: a request needs "file"',
      expect.stringMatching(/^2: .*JSON/),
      '3: a request is a JSON object: {"file": …, "call": …, "actions": […]}',
      '4: no file missing.py',
      'states',
    ]);
  }, 120_000);
});
