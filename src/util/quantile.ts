// Order statistics for timings (medians and tails of milliseconds per state).

/** The value at or below which a share `q` of the sorted values lie (nearest rank); 0 for none. */
export function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}
