// The model's modes as the app names them: the session layer's engines (src/session), with the
// words the Mode select shows.

import type { EngineName } from '../session/liveSession';

/** `both`: each prediction beside the truth from the real history; `neural`: the model goes on
 * from its own predictions; `real`: no model. */
export type Mode = EngineName;

export const MODES: readonly { value: Mode; label: string }[] = [
  { value: 'both', label: 'Compare' },
  { value: 'neural', label: 'Neural only' },
  { value: 'real', label: 'Real only' },
];

/** A saved mode, including the name Compare had before the app shared the session's names. */
export function modeOf(saved: unknown): Mode | undefined {
  if (saved === 'compare') return 'both';
  return MODES.some((m) => m.value === saved) ? (saved as Mode) : undefined;
}
