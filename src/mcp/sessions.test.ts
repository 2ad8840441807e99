import { describe, expect, it } from 'vitest';
import type { LiveSession } from '../session/liveSession';
import { IDLE_MS, MAX_SESSIONS, SessionRegistry, ToolError } from './sessions';

let released = 0;
/** A session as the registry sees it: only its host's release is asked for. */
const session = { host: { release: async () => void released++ } } as unknown as LiveSession;

describe('SessionRegistry', () => {
  it('bounds the open sessions and forgets idle ones', () => {
    let now = 0;
    const registry = new SessionRegistry(() => now);
    const ids = Array.from({ length: MAX_SESSIONS }, () => registry.add(session));
    expect(new Set(ids).size).toBe(MAX_SESSIONS);
    expect(() => registry.add(session)).toThrow(/too many sessions/);
    now += IDLE_MS / 2;
    registry.get(ids[0]!); // used: stays
    now += IDLE_MS / 2 + 1;
    expect(registry.size).toBe(MAX_SESSIONS);
    registry.reserve();
    expect(registry.size).toBe(1);
    expect(released).toBe(MAX_SESSIONS - 1); // the idle ones' interpreters end with them
    expect(registry.get(ids[0]!)).toBe(session);
    expect(() => registry.get(ids[1]!)).toThrow(ToolError);
    registry.end(ids[0]!);
    expect(released).toBe(MAX_SESSIONS);
    expect(() => registry.end(ids[0]!)).toThrow(/unknown session/);
  });

  it('runs requests one at a time, in order, past failures', async () => {
    const registry = new SessionRegistry();
    const order: string[] = [];
    const slow = registry.serial(async () => {
      await new Promise((r) => setTimeout(r, 20));
      order.push('slow');
    });
    const failing = registry.serial(async () => {
      order.push('failing');
      throw new Error('bad');
    });
    const last = registry.serial(async () => order.push('last'));
    await Promise.allSettled([slow, failing, last]);
    await expect(failing).rejects.toThrow('bad');
    expect(order).toEqual(['slow', 'failing', 'last']);
  });
});
