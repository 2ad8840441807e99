// A frame as the Call stack names it, with the arguments it was called with: `fact(n=6)`. The
// arguments are the locals at the frame's call event (nothing else is bound yet there), less the
// variables a closure shares with its enclosing function (and a generator expression's hidden `.0`).

import type { Position, Recording } from './trace';

/** Longest value written in a frame's name; longer ones end in "…". */
export const MAX_ARG_CHARS = 24;

function capped(text: string): string {
  return text.length > MAX_ARG_CHARS ? `${text.slice(0, MAX_ARG_CHARS - 1)}…` : text;
}

/** The arguments of each frame alive at `pos` (frame id → `n=6, xs=[1, 2]`): from its first call
 * event (a generator's resumptions keep the arguments it was first called with). The module has
 * none. */
export function frameArguments(rec: Recording, pos: Position): Map<number, string> {
  const args = new Map<number, string>();
  const end = Math.min(pos, rec.events.length - 1);
  for (let j = 0; j <= end; j++) {
    const e = rec.events[j]!;
    if (e.event !== 'call' || e.resume || args.has(e.frame) || e.function === '<module>') continue;
    const free = new Set(rec.codes[e.code]?.free ?? []);
    args.set(
      e.frame,
      Object.entries(e.locals)
        .filter(([name]) => !free.has(name) && !name.startsWith('.'))
        .map(([name, value]) => `${name}=${capped(value)}`)
        .join(', '),
    );
  }
  return args;
}

/** `fact(n=6)`; the module, or a frame whose call was not recorded, by its name alone. */
export function frameTitle(fn: string, args: string | undefined): string {
  return args === undefined ? fn : `${fn}(${args})`;
}
