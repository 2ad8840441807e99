// A factory whose first product can be made early and handed to the first caller that asks: the
// page starts its workers on its first line, before the code that uses them has loaded.

export class Spare<T> {
  private early: T | null = null;

  constructor(private readonly make: () => T) {}

  /** Makes one now, unless one is already waiting; either way, the one waiting. */
  prepare(): T {
    return (this.early ??= this.make());
  }

  /** The one made early, else a new one. */
  take(): T {
    const made = this.early ?? this.make();
    this.early = null;
    return made;
  }
}
