// A small argument parser: `--flag value`, `--flag=value`, boolean flags, positionals.

export class UsageError extends Error {}

export interface ParsedArgs {
  positionals: string[];
  /** What came after `--` (also in `positionals`): the program's own arguments. */
  rest: string[];
  options: Map<string, string | true>;
}

export function parseArgs(argv: readonly string[], booleanFlags: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const rest: string[] = [];
  const options = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      rest.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (eq >= 0) options.set(name, arg.slice(eq + 1));
    else if (booleanFlags.includes(name)) options.set(name, true);
    else {
      const value = argv[i + 1];
      if (value === undefined) throw new UsageError(`--${name} needs a value`);
      options.set(name, value);
      i++;
    }
  }
  return { positionals, rest, options };
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const v = args.options.get(name);
  if (v === true) throw new UsageError(`--${name} needs a value`);
  return v;
}

export function checkKnown(args: ParsedArgs, known: readonly string[]): void {
  for (const name of args.options.keys()) {
    if (!known.includes(name)) throw new UsageError(`unknown option --${name}`);
  }
}

export function parseLineList(text: string | undefined, what: string): number[] {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((s) => {
    const n = Number(s.trim());
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`${what}: '${s}' is not a line number`);
    return n;
  });
}

/** `--breakpoints 12,pricing.py:6`: lines of the main file, or FILE:LINE for another file. */
export function parseBreakpointList(text: string | undefined): Array<{ file?: string; line: number }> {
  if (text === undefined || text.trim() === '') return [];
  return text.split(',').map((s) => {
    const item = s.trim();
    const colon = item.lastIndexOf(':');
    const file = colon > 0 ? item.slice(0, colon) : undefined;
    const n = Number(colon > 0 ? item.slice(colon + 1) : item);
    if (!Number.isInteger(n) || n < 1) throw new UsageError(`--breakpoints: '${item}' is not LINE or FILE:LINE`);
    return file === undefined ? { line: n } : { file, line: n };
  });
}
