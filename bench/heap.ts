/**
 * Heap figures for the bench and the heap tests' child processes (test/core/fixtures): the used heap after pending
 * work settled and a full collection. Needs `node --expose-gc` (`npm run bench` and those tests pass it).
 */
const gc = (globalThis as { gc?: () => void }).gc;

/** Lets pending reactions and I/O callbacks run, then collects, a few times over; returns the used heap in bytes. */
export async function settledHeap(): Promise<number> {
  if (!gc) throw new Error('heap figures need node --expose-gc (npm run bench passes it)');
  for (let pass = 0; pass < 4; pass++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

export const MB = 1024 * 1024;
