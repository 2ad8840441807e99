import { describe, expect, it } from 'vitest';
import { packSnapshot, unpackSnapshot } from './snapshotPages';

/** Bytes with runs of zero pages, pages with one byte set, and a short last page. */
function sample(length: number, seed: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let x = seed;
  for (let p = 0; p * 4096 < length; p++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 1;
    const kind = x % 4;
    const start = p * 4096;
    const end = Math.min(start + 4096, length);
    if (kind === 1) bytes[start + (x % (end - start))] = 1 + (x % 255);
    if (kind === 2) for (let i = start; i < end; i++) bytes[i] = (i * 7 + x) % 256;
    if (kind === 3) bytes[end - 1] = 9;
  }
  return bytes;
}

describe('packSnapshot', () => {
  it('gives back the same bytes, for whole pages and a short last page', () => {
    for (const length of [0, 1, 4095, 4096, 4097, 40 * 4096, 40 * 4096 + 123]) {
      const bytes = sample(length, length + 1);
      expect(unpackSnapshot(packSnapshot(bytes))).toEqual(bytes);
    }
  });

  it('keeps only the pages that are not zero', () => {
    const bytes = new Uint8Array(100 * 4096);
    bytes[5 * 4096 + 17] = 3;
    bytes[99 * 4096] = 4;
    const packed = packSnapshot(bytes);
    expect(packed.length).toBe(24 + Math.ceil(100 / 8) + 2 * 4096);
    expect(unpackSnapshot(packed)).toEqual(bytes);
  });

  it('reads bytes that do not start on an 8-byte boundary', () => {
    const bytes = sample(9 * 4096, 7);
    const shifted = new Uint8Array(bytes.length + 3);
    shifted.set(bytes, 3);
    expect(unpackSnapshot(packSnapshot(shifted.subarray(3)))).toEqual(bytes);
  });

  it('refuses damaged bytes', () => {
    const packed = packSnapshot(sample(10 * 4096, 5));
    for (const at of [24, 30, packed.length - 1]) {
      const damaged = packed.slice();
      damaged[at]! ^= 0x10;
      expect(() => unpackSnapshot(damaged)).toThrow(/damaged/);
    }
  });

  it('refuses what is not a packed snapshot, or is cut short or too long', () => {
    const packed = packSnapshot(sample(10 * 4096, 3));
    expect(packed.length).toBeGreaterThan(4096);
    expect(() => unpackSnapshot(new Uint8Array(31 * 4096))).toThrow(/not a packed snapshot/);
    expect(() => unpackSnapshot(packed.subarray(0, 10))).toThrow(/too short/);
    expect(() => unpackSnapshot(packed.subarray(0, 25))).toThrow(/damaged|cut short/);
    expect(() => unpackSnapshot(packed.subarray(0, packed.length - 1))).toThrow(/damaged|cut short/);
    const longer = new Uint8Array(packed.length + 1);
    longer.set(packed);
    expect(() => unpackSnapshot(longer)).toThrow(/damaged|left over/);
  });
});
