/**
 * The two clocks every adapter supplies. `monotonic` prefers `performance.now()` (immune to the player
 * changing the device clock); where a runtime has none it falls back to `Date.now()` held from going back.
 */

/** The global `performance` when it has a `now()`, read when the platform is created (never at import). */
export function monotonicClock(perf: { now(): number } | undefined): () => number {
  if (perf && typeof perf.now === 'function') return () => perf.now();
  let last = -Infinity;
  // assumed: without performance.now a clock set back stalls the duration rather than shortening it.
  return () => (last = Math.max(last, Date.now()));
}

/** The runtime's `performance`, if any. */
export function hostPerformance(): { now(): number } | undefined {
  const perf = (globalThis as { performance?: { now?: unknown } }).performance;
  return perf && typeof perf.now === 'function' ? (perf as { now(): number }) : undefined;
}
