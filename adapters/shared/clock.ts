/**
 * The monotonic clock every adapter supplies. It prefers `performance.now()` (immune to the player changing the
 * device clock); where a runtime has none it falls back to `Date.now()` held from going back.
 */

/** The clock over `perf` (the runtime's `performance`, read when the platform is created, never at import). */
export function monotonicClock(perf = (globalThis as { performance?: { now?: () => number } }).performance): () => number {
  if (typeof perf?.now === 'function') return () => perf.now!();
  let last = -Infinity;
  // assumed: without performance.now a clock set back stalls the duration rather than shortening it.
  return () => (last = Math.max(last, Date.now()));
}
