// A memory snapshot of the interpreter is about half zero pages (31 MB, 15 of them not zero, when
// Pyodide has just started): kept without them, a warm start reads half the bytes from the
// browser's storage. Layout: a header of six little-endian u32 (magic, version, the snapshot's
// length, the page size, the page count, a checksum of what follows), one bit per page (set: the
// page is stored), then the stored pages in order; the last page may be short. The checksum lets
// the worker refuse damaged bytes before it restores them (it has no crypto.subtle; the page checks
// the SHA-256 digest too, but in parallel with the restore, and memory restored from damaged bytes
// could do anything, hang included).

const MAGIC = 0x5a42444e; // "NDBZ"
const VERSION = 1;
const PAGE = 4096;
const HEADER = 24;

function pageIsZero(bytes: Uint8Array, start: number, end: number): boolean {
  // Eight bytes at a time where the page is aligned (every page but a short last one).
  if ((bytes.byteOffset + start) % 8 === 0 && (end - start) % 8 === 0) {
    const words = new BigUint64Array(bytes.buffer, bytes.byteOffset + start, (end - start) / 8);
    for (let i = 0; i < words.length; i++) if (words[i] !== 0n) return false;
    return true;
  }
  for (let i = start; i < end; i++) if (bytes[i] !== 0) return false;
  return true;
}

/** FNV-1a over 32-bit words (then the bytes left): fast, and enough to tell damaged bytes. */
function checksum(bytes: Uint8Array): number {
  let h = 0x811c9dc5;
  const whole = bytes.length - (bytes.length % 4);
  const words = (bytes.byteOffset % 4 === 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset, whole / 4) : new Uint32Array(bytes.slice(0, whole).buffer));
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i]!, 0x01000193);
  for (let i = whole; i < bytes.length; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/** The snapshot without its zero pages. */
export function packSnapshot(bytes: Uint8Array): Uint8Array {
  const pages = Math.ceil(bytes.length / PAGE);
  const bitmap = new Uint8Array(Math.ceil(pages / 8));
  let kept = 0;
  for (let p = 0; p < pages; p++) {
    const start = p * PAGE;
    const end = Math.min(start + PAGE, bytes.length);
    if (pageIsZero(bytes, start, end)) continue;
    bitmap[p >> 3]! |= 1 << (p & 7);
    kept += end - start;
  }
  const out = new Uint8Array(HEADER + bitmap.length + kept);
  const header = new DataView(out.buffer);
  out.set(bitmap, HEADER);
  let at = HEADER + bitmap.length;
  for (let p = 0; p < pages; p++) {
    if (!(bitmap[p >> 3]! & (1 << (p & 7)))) continue;
    const page = bytes.subarray(p * PAGE, Math.min((p + 1) * PAGE, bytes.length));
    out.set(page, at);
    at += page.length;
  }
  [MAGIC, VERSION, bytes.length, PAGE, pages, checksum(out.subarray(HEADER))].forEach((v, i) => header.setUint32(i * 4, v, true));
  return out;
}

/** The snapshot `packSnapshot` kept; throws on bytes that are not one (a stored entry of an older
 * layout, or cut short), so that the caller starts Python the plain way. */
export function unpackSnapshot(packed: Uint8Array): Uint8Array {
  if (packed.length < HEADER) throw new Error('not a packed snapshot: too short');
  const header = new DataView(packed.buffer, packed.byteOffset, HEADER);
  const [magic, version, length, page, pages, sum] = [0, 1, 2, 3, 4, 5].map((i) => header.getUint32(i * 4, true)) as [number, number, number, number, number, number];
  if (magic !== MAGIC || version !== VERSION || page !== PAGE || pages !== Math.ceil(length / PAGE)) throw new Error('not a packed snapshot');
  if (checksum(packed.subarray(HEADER)) !== sum) throw new Error('packed snapshot damaged: its checksum differs');
  const bitmapEnd = HEADER + Math.ceil(pages / 8);
  if (packed.length < bitmapEnd) throw new Error('packed snapshot cut short');
  const bitmap = packed.subarray(HEADER, bitmapEnd);
  const out = new Uint8Array(length);
  let at = bitmapEnd;
  for (let p = 0; p < pages; p++) {
    if (!(bitmap[p >> 3]! & (1 << (p & 7)))) continue;
    const size = Math.min(PAGE, length - p * PAGE);
    if (at + size > packed.length) throw new Error('packed snapshot cut short');
    out.set(packed.subarray(at, at + size), p * PAGE);
    at += size;
  }
  if (at !== packed.length) throw new Error('packed snapshot has bytes left over');
  return out;
}
