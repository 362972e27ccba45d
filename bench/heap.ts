/**
 * Heap figures for the bench: the used heap after pending work settled and a full collection. Needs
 * `node --expose-gc` (`npm run bench` passes it).
 */
const gc = (globalThis as { gc?: () => void }).gc;

/** Lets pending reactions and I/O callbacks run, then collects, a few times over; returns the used heap in bytes. */
export async function settledHeap(): Promise<number> {
  if (!gc) throw new Error('the bench needs node --expose-gc for its heap rows (run it with npm run bench)');
  for (let pass = 0; pass < 4; pass++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return process.memoryUsage().heapUsed;
}

export const MB = 1024 * 1024;
