// A frame as the Call stack names it, with its arguments: `fact(n=6)`. The parameters are the
// locals at the frame's call event (nothing else is bound yet there), less the
// variables a closure shares with its enclosing function (and a generator expression's hidden `.0`).

import { hasOwnName, own } from './names';
import type { Position, Recording, TraceEvent } from './trace';

/** Longest value written in a frame's name; longer ones end in "…". */
export const MAX_ARG_CHARS = 24;

function capped(text: string): string {
  return text.length > MAX_ARG_CHARS ? `${text.slice(0, MAX_ARG_CHARS - 1)}…` : text;
}

/** The arguments of each frame alive at `pos` (frame id → `n=6, xs=[1, 2]`): the parameters of
 * its first call event (a generator's resumptions are not calls), each with its value at the
 * frame's latest stop, as Variables shows it. A caller's latest stop is before its callee ran: an
 * object (recorded with `objects`) is shown as it was last seen under any name, so a list a callee
 * appended to reads the same in every frame. The module has none. */
export function frameArguments(rec: Recording, pos: Position): Map<number, string> {
  const params = new Map<number, string[]>();
  const latest = new Map<number, TraceEvent>();
  const lastSeen = new Map<number, string>();
  const end = Math.min(pos, rec.events.length - 1);
  for (let j = 0; j <= end; j++) {
    const e = rec.events[j]!;
    latest.set(e.frame, e);
    for (const [name, id] of Object.entries(e.ids ?? {})) if (hasOwnName(e.locals, name)) lastSeen.set(id, e.locals[name]!);
    for (const [name, id] of Object.entries(e.global_ids ?? {})) {
      const value = own(e.globals, name);
      if (value !== undefined) lastSeen.set(id, value);
    }
    if (e.event !== 'call' || e.resume || params.has(e.frame) || e.function === '<module>') continue;
    const free = new Set(rec.codes[e.code]?.free ?? []);
    params.set(
      e.frame,
      Object.keys(e.locals).filter((name) => !free.has(name) && !name.startsWith('.')),
    );
  }
  const args = new Map<number, string>();
  for (const [frame, names] of params) {
    const e = latest.get(frame);
    const now = e?.locals ?? {};
    const value = (name: string): string => {
      const id = own(e?.ids, name);
      return (id !== undefined ? lastSeen.get(id) : undefined) ?? own(now, name)!;
    };
    args.set(frame, names.filter((name) => hasOwnName(now, name)).map((name) => `${name}=${capped(value(name))}`).join(', '));
  }
  return args;
}

/** `fact(n=6)`; the module, or a frame whose call was not recorded, by its name alone. */
export function frameTitle(fn: string, args: string | undefined): string {
  return args === undefined ? fn : `${fn}(${args})`;
}
