// The prompt's command lines: pdb's names and short forms, ndb's additions, and the lines that are
// no command (each refused with a message that says what would be).

import { describe, expect, it } from 'vitest';
import { commandName, helpTopic, HELP_TEXT, parsePdbCommand, PdbSyntaxError } from './pdbCommands';

describe('parsePdbCommand', () => {
  it("reads pdb's moves by every name", () => {
    for (const [words, move] of [
      [['s', 'step'], 'step_into'],
      [['n', 'next'], 'step_over'],
      [['r', 'return'], 'step_return'],
      [['c', 'cont', 'continue'], 'continue'],
      [['rs', 'reverse-step'], 'inv_step_into'],
      [['rn', 'reverse-next'], 'inv_step_over'],
      [['rc', 'reverse-continue'], 'inv_continue'],
      [['rf', 'reverse-finish'], 'inv_step_call'],
    ] as const) {
      for (const w of words) expect(parsePdbCommand(`  ${w} `), w).toEqual({ kind: 'move', move });
    }
    expect(parsePdbCommand('unt')).toEqual({ kind: 'until' });
    expect(parsePdbCommand('until 7')).toEqual({ kind: 'until', line: 7 });
  });

  it('reads breakpoints: a line, a file and a line, a function, a condition after the comma', () => {
    expect(parsePdbCommand('b')).toEqual({ kind: 'break', temporary: false });
    expect(parsePdbCommand('b 4')).toEqual({ kind: 'break', temporary: false, at: { line: 4 } });
    expect(parsePdbCommand('break prog.py:4, x > 1 and y == "a,b"')).toEqual({
      kind: 'break',
      temporary: false,
      at: { file: 'prog.py', line: 4 },
      condition: 'x > 1 and y == "a,b"',
    });
    expect(parsePdbCommand('tbreak total')).toEqual({ kind: 'break', temporary: true, at: { name: 'total' } });
    expect(parsePdbCommand('cl')).toEqual({ kind: 'clear', targets: [] });
    expect(parsePdbCommand('clear 1 2')).toEqual({ kind: 'clear', targets: ['1', '2'] });
    expect(parsePdbCommand('condition 2 n < 3')).toEqual({ kind: 'condition', number: 2, condition: 'n < 3' });
    expect(parsePdbCommand('condition 2')).toEqual({ kind: 'condition', number: 2 });
    expect(parsePdbCommand('disable 1, 3')).toEqual({ kind: 'disable', numbers: [1, 3] });
  });

  it('reads the commands that look around', () => {
    expect(parsePdbCommand('p xs[0] + 1')).toEqual({ kind: 'print', expr: 'xs[0] + 1', pretty: false });
    expect(parsePdbCommand('pp d')).toEqual({ kind: 'print', expr: 'd', pretty: true });
    expect(parsePdbCommand('!x')).toEqual({ kind: 'exec', code: 'x' });
    expect(parsePdbCommand('display s')).toEqual({ kind: 'display', expr: 's' });
    expect(parsePdbCommand('undisplay')).toEqual({ kind: 'undisplay' });
    for (const w of ['w', 'where', 'bt']) expect(parsePdbCommand(w)).toEqual({ kind: 'where' });
    expect(parsePdbCommand('u')).toEqual({ kind: 'up', count: 1 });
    expect(parsePdbCommand('down 2')).toEqual({ kind: 'down', count: 2 });
    expect(parsePdbCommand('l')).toEqual({ kind: 'list' });
    expect(parsePdbCommand('l .')).toEqual({ kind: 'list', here: true });
    expect(parsePdbCommand('list 3, 8')).toEqual({ kind: 'list', first: 3, last: 8 });
    expect(parsePdbCommand('list 3, 2')).toEqual({ kind: 'list', first: 3, last: 5 }); // pdb: a count
    expect(parsePdbCommand('ll')).toEqual({ kind: 'longlist' });
    expect(parsePdbCommand('a')).toEqual({ kind: 'args' });
    expect(parsePdbCommand('rv')).toEqual({ kind: 'retval' });
    expect(parsePdbCommand('h n')).toEqual({ kind: 'help', topic: 'n' });
    for (const w of ['q', 'quit', 'exit', 'EOF']) expect(parsePdbCommand(w)).toEqual({ kind: 'quit' });
  });

  it("reads ndb's what-if edits and predictions", () => {
    expect(parsePdbCommand('set total = [1, 2]')).toEqual({ kind: 'set', name: 'total', expr: '[1, 2]' });
    expect(parsePdbCommand('!s=100')).toEqual({ kind: 'set', name: 's', expr: '100' });
    expect(parsePdbCommand('predict')).toEqual({ kind: 'predict', move: 'step_into' });
    expect(parsePdbCommand('predict rf')).toEqual({ kind: 'predict', move: 'inv_step_call' });
  });

  it('refuses what is no command, saying what is', () => {
    const refused = (text: string) => {
      try {
        parsePdbCommand(text);
      } catch (err) {
        expect(err).toBeInstanceOf(PdbSyntaxError);
        return (err as Error).message;
      }
      throw new Error(`'${text}' was read as a command`);
    };
    // pdb's rule: a line whose first word is no command is Python
    expect(parsePdbCommand('frobnicate')).toEqual({ kind: 'exec', code: 'frobnicate' });
    expect(parsePdbCommand('print(x)')).toEqual({ kind: 'exec', code: 'print(x)' });
    expect(parsePdbCommand('import traceback')).toEqual({ kind: 'exec', code: 'import traceback' });
    expect(parsePdbCommand('total = 5')).toEqual({ kind: 'set', name: 'total', expr: '5' });
    expect(parsePdbCommand('p(x)')).toEqual({ kind: 'print', expr: '(x)', pretty: false });
    expect(parsePdbCommand('b pricing.line_total')).toEqual({ kind: 'break', temporary: false, at: { name: 'pricing.line_total' } });
    expect(parsePdbCommand('b pricing.py:7, qty > 1')).toEqual({ kind: 'break', temporary: false, at: { file: 'pricing.py', line: 7 }, condition: 'qty > 1' });
    expect(parsePdbCommand('exceptions raised')).toEqual({ kind: 'exceptions', mode: 'raised' });
    expect(parsePdbCommand('exceptions')).toEqual({ kind: 'exceptions' });
    expect(refused('exceptions some')).toMatch(/not raised, uncaught or none/);
    expect(refused('jump 3')).toMatch(/no 'jump'.*rs, rn, rc and rf go back/);
    expect(refused('restart')).toMatch(/rc goes back to the start/);
    expect(refused('b 4,')).toMatch(/nothing after the comma/);
    expect(refused('b x.1')).toMatch(/neither a line number nor a function/);
    expect(refused('b 0')).toMatch(/not a line number/);
    expect(refused('p')).toMatch(/needs an expression/);
    expect(refused('n 3')).toMatch(/takes no arguments/);
    expect(refused('set x == 1')).toMatch(/NAME = EXPR/);
    expect(refused('predict rc')).toMatch(/no move the model makes/);
    // a word of the table's object is no move either
    expect(refused('predict toString')).toMatch(/no move the model makes/);
    expect(refused('enable')).toMatch(/which breakpoints/);
    expect(refused('disable one')).toMatch(/'one' is not a breakpoint number/);
  });
});

describe('help', () => {
  it("lists pdb's commands and ndb's additions, and explains each by any of its names", () => {
    const text = HELP_TEXT.join('\n');
    for (const w of ['s(tep)', 'n(ext)', 'unt(il)', 'tbreak', 'condition', 'display', 'retval', 'rs, reverse-step', 'rc, reverse-continue', 'rf, reverse-finish', 'set NAME = EXPR', 'predict']) {
      expect(text).toContain(w);
    }
    expect(helpTopic('rn')).toMatch(/back to the previous line/);
    expect(helpTopic('bt')).toBe(helpTopic('where'));
    expect(helpTopic('nonsense')).toBeUndefined();
    expect(commandName('cont')).toBe('continue');
  });
});
