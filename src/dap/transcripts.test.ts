// Golden transcripts of `ndb dap`: four sessions recorded message by message and compared with
// fixtures/dap/*.json, so that a change of what the adapter says (a field, an event, their order)
// shows in review. Regenerate on purpose: NDB_UPDATE_DAP=1 npx vitest run src/dap/transcripts.test.ts

import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../util/repoRoot';
import { engineSandboxNotice } from '../realEngine/node/engineChild';
import { recordTranscript, type ScriptStep } from '../testing/dapTranscript';

const DIR = join(REPO_ROOT, 'fixtures/dap');
const SUM = join(DIR, 'sum.py');
const RAISES = join(DIR, 'raises.py');
const SHOP = join(REPO_ROOT, 'fixtures/project/shop');
const SHOP_MAIN = join(SHOP, 'main.py');
const SHOP_PRICING = join(SHOP, 'pricing.py');
const UPDATE = process.env.NDB_UPDATE_DAP === '1';

// the adapter says `initialized` right after its answer to initialize (Pyodide starts meanwhile)
const INIT: ScriptStep = { command: 'initialize', arguments: { adapterID: 'ndb', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' }, until: ['initialized'] };
const t = { threadId: 1 };
const MOVE = ['stopped', 'terminated'];

function launch(program: string, call: string, breakpoints: object[], extra: Record<string, unknown> = {}): ScriptStep[] {
  return [
    INIT,
    { command: 'launch', arguments: { program, call, ...extra } },
    { command: 'setBreakpoints', arguments: { source: { path: program }, breakpoints } },
    { command: 'configurationDone', until: MOVE },
  ];
}

const SESSIONS: Record<string, ScriptStep[]> = {
  // stepping forwards and back, the stack, scopes and locals
  steps: [
    ...launch(SUM, 'g(3)', [], { stopOnEntry: true }),
    { command: 'threads' },
    { command: 'stepIn', arguments: t, until: MOVE },
    { command: 'stepIn', arguments: t, until: MOVE },
    { command: 'stepIn', arguments: t, until: MOVE },
    { command: 'next', arguments: t, until: MOVE },
    { command: 'stackTrace', arguments: t },
    // frame 2 is f (called from g, frame 1); its Locals scope is variables reference 1000 (numbered per stop)
    { command: 'scopes', arguments: { frameId: 2 } },
    { command: 'variables', arguments: { variablesReference: 1000 } },
    { command: 'scopes', arguments: { frameId: 1 } },
    { command: 'stepOut', arguments: t, until: MOVE },
    { command: 'stepBack', arguments: t, until: MOVE },
    { command: 'continue', arguments: t, until: ['terminated'] },
    { command: 'disconnect' },
  ],
  // a conditional breakpoint, evaluate, a what-if edit, reverse continue, the program's output
  breakpoints: [
    ...launch(SUM, 'g(4)', [{ line: 4, condition: 'x == 2' }, { line: 5 }]),
    { command: 'stackTrace', arguments: t },
    { command: 'evaluate', arguments: { expression: 's + x', frameId: 2, context: 'watch' } },
    { command: 'evaluate', arguments: { expression: 's +', frameId: 2, context: 'watch' } },
    { command: 'scopes', arguments: { frameId: 2 } },
    { command: 'setVariable', arguments: { variablesReference: 1000, name: 's', value: '100' } },
    { command: 'variables', arguments: { variablesReference: 1000 } },
    { command: 'continue', arguments: t, until: MOVE },
    { command: 'scopes', arguments: { frameId: 2 } },
    { command: 'variables', arguments: { variablesReference: 1000 } },
    { command: 'reverseContinue', arguments: t, until: MOVE },
    { command: 'continue', arguments: t, until: MOVE },
    { command: 'continue', arguments: t, until: ['terminated'] },
    { command: 'disconnect' },
  ],
  // a project of two files (fixtures/project/shop): a breakpoint in the imported module set before
  // configurationDone, a stack over both files, a dict made in main.py (by json) unfolded in
  // pricing.py's frame, evaluate there (a global of pricing.py, unfolded too), Step Out as pdb's
  // `return` (first the return of line_total, then main.py), the breakpoint hit again, then cleared
  // and the program run to its end with its exit code
  project: [
    INIT,
    { command: 'launch', arguments: { program: SHOP_MAIN, args: ['order.json'] } },
    { command: 'setBreakpoints', arguments: { source: { path: SHOP_PRICING }, breakpoints: [{ line: 7 }] } },
    { command: 'configurationDone', until: MOVE },
    { command: 'stackTrace', arguments: t },
    // frame 2 is line_total in pricing.py (called from main.py's module, frame 1)
    { command: 'scopes', arguments: { frameId: 2 } },
    { command: 'variables', arguments: { variablesReference: 1000 } },
    { command: 'variables', arguments: { variablesReference: 1001 } },
    { command: 'evaluate', arguments: { expression: 'price * item["qty"]', frameId: 2, context: 'watch' } },
    { command: 'evaluate', arguments: { expression: 'DISCOUNTS', frameId: 2, context: 'repl' } },
    { command: 'variables', arguments: { variablesReference: 1002 } },
    // pdb's `return`: the stop at line_total's return, with its value
    { command: 'stepOut', arguments: t, until: MOVE },
    { command: 'stackTrace', arguments: t },
    { command: 'scopes', arguments: { frameId: 2 } },
    { command: 'variables', arguments: { variablesReference: 1000 } },
    // then out of it: main.py's loop, the total added to
    { command: 'stepOut', arguments: t, until: MOVE },
    { command: 'stackTrace', arguments: t },
    { command: 'scopes', arguments: { frameId: 1 } },
    { command: 'variables', arguments: { variablesReference: 1000 } },
    { command: 'continue', arguments: t, until: MOVE },
    { command: 'stackTrace', arguments: t },
    { command: 'setBreakpoints', arguments: { source: { path: SHOP_PRICING }, breakpoints: [] } },
    { command: 'continue', arguments: t, until: ['terminated'] },
    { command: 'disconnect' },
  ],
  // a launch that cannot start, then a program that ends in an exception
  errors: [
    INIT,
    { command: 'launch', arguments: { program: join(DIR, 'missing.py') } },
    { command: 'launch', arguments: { program: RAISES, call: 'main()' } },
    { command: 'setBreakpoints', arguments: { source: { path: RAISES }, breakpoints: [{ line: 99 }] } },
    { command: 'configurationDone', until: MOVE },
    { command: 'stackTrace', arguments: t },
    { command: 'disconnect' },
  ],
};

describe('ndb dap transcripts (fixtures/dap)', () => {
  for (const [name, script] of Object.entries(SESSIONS)) {
    it(`${name}: the adapter says what it said when the transcript was recorded`, async () => {
      // a machine without the OS sandbox says so at each launch: not part of the protocol's story
      const notice = engineSandboxNotice();
      // what differs by machine: the sandbox notice where there is no bubblewrap, and the line said
      // when a request waits for an engine still loading (a loaded machine, a cold start)
      const byMachine = (m: Record<string, unknown>) =>
        (notice !== null && JSON.stringify(m).includes(JSON.stringify(notice).slice(1, -1))) ||
        (m.type === 'event' && m.event === 'output' && /^ndb: waiting for an engine \(\d+ s\)\n$/.test(String((m.body as { output?: unknown } | undefined)?.output)));
      const transcript = await recordTranscript(script, { [REPO_ROOT.replace(/\/$/, '')]: '<repo>' }, byMachine);
      // nothing of this machine is left: its folders, a temporary folder, the home folder
      const text = JSON.stringify(transcript);
      for (const place of [REPO_ROOT, tmpdir(), homedir()].filter((p) => p.length > 1)) expect(text).not.toContain(place);
      const file = join(DIR, `${name}.json`);
      if (UPDATE) writeFileSync(file, `${JSON.stringify(transcript, null, 1)}\n`);
      // a missing transcript fails: it is recorded on purpose, never made up by the run it checks
      expect(existsSync(file), `${file} is missing: NDB_UPDATE_DAP=1 records it`).toBe(true);
      const golden: unknown = JSON.parse(readFileSync(file, 'utf8'));
      expect(transcript).toEqual(golden);
    }, 180_000);
  }
});
