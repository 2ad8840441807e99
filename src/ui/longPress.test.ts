// A finger on the editor's gutter: a tap toggles a breakpoint, a long press asks for its condition
// and toggles nothing; moving away is a scroll; the mouse is left to the editor.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONG_PRESS_MS, LongPress } from './longPress';

/** Stands in for the editor's element: records the listeners, lets the test fire events. */
class FakeTarget {
  listeners = new Map<string, (ev: unknown) => void>();
  addEventListener(type: string, fn: (ev: unknown) => void): void {
    this.listeners.set(type, fn);
  }
  removeEventListener(type: string): void {
    this.listeners.delete(type);
  }
  fire(type: string, ev: Partial<PointerEvent> & { preventDefault?: () => void } = {}): void {
    this.listeners.get(type)?.({ pointerType: 'touch', clientX: 5, clientY: 50, preventDefault: () => undefined, ...ev });
  }
}

function setup() {
  const target = new FakeTarget();
  const log: string[] = [];
  // The gutter is x < 40; line = y / 20.
  const press = new LongPress(target as unknown as HTMLElement, (x, y) => (x < 40 ? Math.floor(y / 20) : null), {
    tap: (line) => log.push(`tap ${line}`),
    long: (line) => log.push(`long ${line}`),
  });
  return { target, log, press };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('LongPress', () => {
  it('takes a short touch as a tap on its line', () => {
    const { target, log, press } = setup();
    target.fire('pointerdown');
    expect(press.touching).toBe(true);
    vi.advanceTimersByTime(100);
    target.fire('pointerup');
    expect(log).toEqual(['tap 2']);
    // The mouse events the touch produces are told to stand back for a moment.
    expect(press.touching).toBe(true);
    vi.advanceTimersByTime(500);
    expect(press.touching).toBe(false);
  });

  it('takes a long press as a request for the condition, and no tap', () => {
    const { target, log } = setup();
    target.fire('pointerdown', { clientY: 90 });
    vi.advanceTimersByTime(LONG_PRESS_MS + 10);
    expect(log).toEqual(['long 4']);
    let prevented = false;
    target.fire('contextmenu', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    target.fire('pointerup', { clientY: 90 });
    expect(log).toEqual(['long 4']);
  });

  it('ignores a finger that moves (a scroll), the text, and the mouse', () => {
    const { target, log } = setup();
    target.fire('pointerdown');
    target.fire('pointermove', { clientY: 80 });
    target.fire('pointerup', { clientY: 80 });
    target.fire('pointerdown', { clientX: 200 });
    target.fire('pointerup', { clientX: 200 });
    target.fire('pointerdown', { pointerType: 'mouse' });
    target.fire('pointerup', { pointerType: 'mouse' });
    vi.advanceTimersByTime(2 * LONG_PRESS_MS);
    expect(log).toEqual([]);
  });

  it("keeps a second tap's mouse events from toggling again when it comes just before the first tap's wait ends", () => {
    const { target, log, press } = setup();
    target.fire('pointerdown');
    target.fire('pointerup');
    vi.advanceTimersByTime(390);
    target.fire('pointerdown');
    target.fire('pointerup');
    expect(log).toEqual(['tap 2', 'tap 2']);
    // The first tap's wait ends here; the second tap's mouse events are still to come.
    vi.advanceTimersByTime(20);
    expect(press.touching).toBe(true);
    vi.advanceTimersByTime(400);
    expect(press.touching).toBe(false);
  });
});
