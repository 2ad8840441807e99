// Programs for the tests of issue 47's first item in every face (CLI, prompt, DAP, MCP): programs
// that end through SystemExit, a project whose objects are of a class in its other module, and a
// program whose evaluated expression counts how often it runs. Written into a fresh temporary
// folder (the faces read a program's folder as its project).

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Each program ending through SystemExit, and the exit code Python ends it with. */
export const EXIT_PROGRAMS = {
  /** `sys.exit(0)` after some output. */
  exit0: { code: 0, source: 'import sys\n\nprint("done")\nsys.exit(0)\n' },
  /** `sys.exit(3)` inside a function. */
  exit3: { code: 3, source: 'import sys\n\n\ndef fail():\n    print("failing")\n    sys.exit(3)\n\n\nfail()\n' },
  /** The usual `sys.exit(main())` with a main that returns None. */
  exitMain: { code: 0, source: 'import sys\n\n\ndef main():\n    print("in main")\n\n\nif __name__ == "__main__":\n    sys.exit(main())\n' },
  /** A message: written to stderr, exit code 1. */
  exitMessage: { code: 1, source: 'print("checking")\nraise SystemExit("bad input")\n' },
} as const;

export type ExitProgram = keyof typeof EXIT_PROGRAMS;

/** The project whose `Order` lives in its other module (`shapes.py`); `t` is a standard library
 * object without a `__repr__` of its own, which stays as Python writes it. */
export const OBJECT_PROJECT = {
  'main.py': [
    'import string',
    'from shapes import Order',
    '',
    '',
    'def total(order):',
    '    return sum(order.items)', // line 6
    '',
    '',
    'o = Order(7, [3, 4])',
    't = string.Template("$x")',
    'print(total(o))',
    '',
  ].join('\n'),
  'shapes.py': ['class Order:', '    def __init__(self, number, items):', '        self.number = number', '        self.items = items', ''].join('\n'),
};
export const OBJECT_STOP_LINE = 6;
export const ORDER_SHOWN = 'Order(number=7, items=[3, 4])';

/** A loop that stops at its breakpoint line (`total += i`); `hits` is the program's own list, which
 * an evaluated expression appends to; `fill` changes its caller's list as it runs. */
export const COUNT_PROGRAM = [
  'hits = []',
  '',
  '',
  'def fill(out, n):',
  '    total = 0',
  '    for i in range(n):',
  '        total += i', // line 7: the breakpoint
  '        out.append(i)',
  '    return total',
  '',
  '',
  'def main():',
  '    got = []',
  '    return fill(got, 5)',
  '',
  '',
  'print(main())',
  '',
].join('\n');
export const COUNT_STOP_LINE = 7;
/** Evaluated once, it appends once: 1. Evaluated at every event where `hits` exists, more. */
export const COUNTING_EXPRESSION = 'hits.append(1) or len(hits)';

export interface EndPrograms {
  /** The folder that holds them all (an MCP server's root). */
  root: string;
  /** Each SystemExit program, in a folder of its own. */
  exits: Record<ExitProgram, string>;
  /** The main file of the object project. */
  objects: string;
  /** The counting program. */
  count: string;
}

export function writeEndPrograms(): EndPrograms {
  const root = mkdtempSync(join(tmpdir(), 'ndb-ends-'));
  const place = (folder: string, files: Record<string, string>, main: string): string => {
    const dir = join(root, folder);
    mkdirSync(dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    return join(dir, main);
  };
  const exits = Object.fromEntries(
    (Object.keys(EXIT_PROGRAMS) as ExitProgram[]).map((name) => [name, place(name, { [`${name}.py`]: EXIT_PROGRAMS[name].source }, `${name}.py`)]),
  ) as Record<ExitProgram, string>;
  return {
    root,
    exits,
    objects: place('objects', OBJECT_PROJECT, 'main.py'),
    count: place('count', { 'count.py': COUNT_PROGRAM }, 'count.py'),
  };
}
