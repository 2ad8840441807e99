// Taps and long presses of a finger (or a pen) on the editor's gutter: a tap toggles a breakpoint,
// a long press asks for its condition, as a right-click does with a mouse. Mouse input is left to
// the editor's own handlers; while a finger is down `touching` tells them to stand back (a touch
// also produces mouse events and, after a long press, a context menu).

/** How long a press must last to be a long press (Android's and iOS's own is about 500 ms). */
export const LONG_PRESS_MS = 500;
/** How far a finger may move and still press (farther: it scrolls). */
const SLOP_PX = 10;

export interface PressHandlers {
  tap: (line: number) => void;
  long: (line: number) => void;
}

export class LongPress {
  /** A finger or pen is down on the gutter, or just lifted from it. */
  touching = false;
  private line: number | null = null;
  private start = { x: 0, y: 0 };
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Ends `touching` a while after a finger is lifted; a new press cancels it, or it would end the
   * new press's `touching` between its pointerup and its mouse events (a second tap soon after a
   * first toggled twice, so not at all). */
  private release: ReturnType<typeof setTimeout> | undefined;
  private fired = false;
  private readonly listeners: Array<[string, EventListener]> = [];

  constructor(
    private readonly target: HTMLElement,
    /** The gutter line under a point of the screen (null: not on the gutter). */
    private readonly lineAt: (x: number, y: number) => number | null,
    private readonly on: PressHandlers,
  ) {
    this.listen('pointerdown', (ev) => this.down(ev as PointerEvent));
    this.listen('pointermove', (ev) => this.move(ev as PointerEvent));
    this.listen('pointerup', (ev) => this.up(ev as PointerEvent));
    this.listen('pointercancel', () => this.cancel());
    // The browser's own long-press menu would cover the dialog.
    this.listen('contextmenu', (ev) => {
      if (this.touching) ev.preventDefault();
    });
  }

  dispose(): void {
    this.cancel();
    for (const [type, fn] of this.listeners) this.target.removeEventListener(type, fn, true);
  }

  private listen(type: string, fn: EventListener): void {
    this.target.addEventListener(type, fn, true);
    this.listeners.push([type, fn]);
  }

  private down(ev: PointerEvent): void {
    if (ev.pointerType === 'mouse') return;
    const line = this.lineAt(ev.clientX, ev.clientY);
    if (line === null) return;
    this.cancel();
    this.touching = true;
    this.line = line;
    this.fired = false;
    this.start = { x: ev.clientX, y: ev.clientY };
    this.timer = setTimeout(() => {
      this.fired = true;
      this.on.long(line);
    }, LONG_PRESS_MS);
  }

  private move(ev: PointerEvent): void {
    if (this.line === null || ev.pointerType === 'mouse') return;
    if (Math.hypot(ev.clientX - this.start.x, ev.clientY - this.start.y) > SLOP_PX) this.cancel();
  }

  private up(ev: PointerEvent): void {
    if (this.line === null || ev.pointerType === 'mouse') return;
    clearTimeout(this.timer);
    const line = this.line;
    this.line = null;
    if (!this.fired) this.on.tap(line);
    // The mouse events a touch produces come after pointerup: they must not toggle again.
    this.release = setTimeout(() => (this.touching = false), 400);
  }

  private cancel(): void {
    clearTimeout(this.timer);
    clearTimeout(this.release);
    this.line = null;
    this.touching = false;
  }
}
