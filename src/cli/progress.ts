// A progress bar on stderr for long CLI work (left alone when stderr is not a terminal, except
// for a line every 10%).

export class Progress {
  private lastDecile = -1;
  private readonly started = Date.now();

  constructor(
    private readonly total: number,
    private readonly label: string,
    private readonly stream: NodeJS.WriteStream = process.stderr,
  ) {}

  update(done: number, note = ''): void {
    const frac = this.total > 0 ? done / this.total : 1;
    const secs = (Date.now() - this.started) / 1000;
    const eta = done > 0 ? (secs / done) * (this.total - done) : 0;
    const text = `${this.label} [${'#'.repeat(Math.round(frac * 30)).padEnd(30, '.')}] ${done}/${this.total} ${secs.toFixed(0)}s eta ${eta.toFixed(0)}s ${note}`;
    if (this.stream.isTTY) {
      this.stream.write(`\r${text.slice(0, (this.stream.columns ?? 120) - 1)}`);
      if (done >= this.total) this.stream.write('\n');
    } else {
      const decile = Math.floor(frac * 10);
      if (decile !== this.lastDecile) {
        this.lastDecile = decile;
        this.stream.write(`${text}\n`);
      }
    }
  }
}
