// The URL hash holds the whole session: the code (gzip + base64url), the call, the input, the breakpoints
// (with their conditions), the watch expressions, the what-if edits in force and the position, so
// that a link reproduces what its sender saw.

import type { BreakCondition } from '../core/navigator';
import { isVariableName, type Edit } from '../core/whatIf';

export interface SharedState {
  source: string;
  call: string;
  /** What input() reads (the Input field). */
  input: string;
  breakpoints: number[];
  position: number;
  /** Conditions and hit counts by breakpoint line. */
  conditions: Record<number, BreakCondition>;
  watches: string[];
  /** The what-if edits in force, oldest first (each made in the recording of the ones before). */
  edits: Edit[];
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const bin = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

async function pipe(bytes: Uint8Array<ArrayBuffer>, transform: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(transform);
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function compressText(text: string): Promise<string> {
  return toBase64Url(await pipe(new TextEncoder().encode(text), new CompressionStream('gzip')));
}

export async function decompressText(encoded: string): Promise<string> {
  return new TextDecoder().decode(await pipe(fromBase64Url(encoded), new DecompressionStream('gzip')));
}

/** `#code=…&call=…&bp=3,5&pos=12`, plus `in=…` (the input) when there is any, and `cond={"5":{"condition":"i > 2"}}`, `watch=["total"]`
 * and `edit=[{"at":7,"name":"n","expr":"10"}]` (JSON) when there are any. */
export async function encodeHash(state: SharedState): Promise<string> {
  const params = new URLSearchParams();
  params.set('code', await compressText(state.source));
  params.set('call', state.call);
  if (state.input !== '') params.set('in', state.input);
  if (state.breakpoints.length > 0) params.set('bp', [...state.breakpoints].sort((a, b) => a - b).join(','));
  params.set('pos', String(state.position));
  if (Object.keys(state.conditions).length > 0) params.set('cond', JSON.stringify(state.conditions));
  if (state.watches.length > 0) params.set('watch', JSON.stringify(state.watches));
  if (state.edits.length > 0) params.set('edit', JSON.stringify(state.edits.map(({ at, name, expr }) => ({ at, name, expr }))));
  return `#${params.toString()}`;
}

/** Null when the hash holds no code (or code that cannot be decoded). */
export async function decodeHash(hash: string): Promise<SharedState | null> {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('code');
  if (code === null) return null;
  let source: string;
  try {
    source = await decompressText(code);
  } catch {
    return null;
  }
  const breakpoints = (params.get('bp') ?? '')
    .split(',')
    .map((s) => Number.parseInt(s, 10))
    .filter((n) => Number.isInteger(n) && n > 0);
  const pos = Number.parseInt(params.get('pos') ?? '0', 10);
  const lines = [...new Set(breakpoints)];
  return {
    source,
    call: params.get('call') ?? '',
    input: params.get('in') ?? '',
    breakpoints: lines,
    position: Number.isInteger(pos) ? pos : 0,
    conditions: parseConditions(params.get('cond'), lines),
    watches: parseWatches(params.get('watch')),
    edits: parseEdits(params.get('edit')),
  };
}

function parseJson(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Whatever a hand-edited link holds, only well-formed conditions of its breakpoints are kept. */
function parseConditions(text: string | null, lines: readonly number[]): Record<number, BreakCondition> {
  const raw = parseJson(text);
  const out: Record<number, BreakCondition> = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    const line = Number.parseInt(key, 10);
    if (!lines.includes(line) || !value || typeof value !== 'object') continue;
    const { condition, hitCount } = value as { condition?: unknown; hitCount?: unknown };
    const c: BreakCondition = {};
    if (typeof condition === 'string' && condition.trim() !== '') c.condition = condition;
    if (typeof hitCount === 'number' && Number.isInteger(hitCount) && hitCount > 1) c.hitCount = hitCount;
    if (c.condition !== undefined || c.hitCount !== undefined) out[line] = c;
  }
  return out;
}

function parseWatches(text: string | null): string[] {
  const raw = parseJson(text);
  if (!Array.isArray(raw)) return [];
  return [...new Set(raw.filter((w): w is string => typeof w === 'string' && w.trim() !== ''))];
}

/** More would mean as many runs of the program before the link is usable. */
export const MAX_LINKED_EDITS = 50;

/** Edits build on one another, so a malformed one ends the list: only the well-formed edits before
 * it are kept (positions never go back: an edit before an earlier one would have undone it). */
function parseEdits(text: string | null): Edit[] {
  const raw = parseJson(text);
  if (!Array.isArray(raw)) return [];
  const out: Edit[] = [];
  for (const item of raw.slice(0, MAX_LINKED_EDITS)) {
    if (!item || typeof item !== 'object') break;
    const { at, name, expr } = item as { at?: unknown; name?: unknown; expr?: unknown };
    if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at < (out[out.length - 1]?.at ?? 0)) break;
    if (typeof name !== 'string' || !isVariableName(name)) break;
    if (typeof expr !== 'string' || expr.trim() === '') break;
    out.push({ at, name, expr });
  }
  return out;
}
