// The URL hash holds the whole session: the code (gzip + base64url), the call, the breakpoints
// (with their conditions), the watch expressions and the position, so that a link reproduces what
// its sender saw. What-if edits are not carried.

import type { BreakCondition } from '../core/navigator';

export interface SharedState {
  source: string;
  call: string;
  breakpoints: number[];
  position: number;
  /** Conditions and hit counts by breakpoint line. */
  conditions: Record<number, BreakCondition>;
  watches: string[];
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

/** `#code=…&call=…&bp=3,5&pos=12`, plus `cond={"5":{"condition":"i > 2"}}` and
 * `watch=["total"]` (JSON) when there are any. */
export async function encodeHash(state: SharedState): Promise<string> {
  const params = new URLSearchParams();
  params.set('code', await compressText(state.source));
  params.set('call', state.call);
  if (state.breakpoints.length > 0) params.set('bp', [...state.breakpoints].sort((a, b) => a - b).join(','));
  params.set('pos', String(state.position));
  if (Object.keys(state.conditions).length > 0) params.set('cond', JSON.stringify(state.conditions));
  if (state.watches.length > 0) params.set('watch', JSON.stringify(state.watches));
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
    breakpoints: lines,
    position: Number.isInteger(pos) ? pos : 0,
    conditions: parseConditions(params.get('cond'), lines),
    watches: parseWatches(params.get('watch')),
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
