/**
 * Tracker rows: what `stop()` (ending the session and enqueueing it, one storage write) costs at 0, 1 000
 * and 10 000 queued sessions, on the memory platform and on IndexedDB; and the heap 10 000 queued sessions
 * hold, the tracker's own part apart from the store's.
 */
import { Bench } from 'tinybench';
import { PlaytimeTracker, type KeyValueStorage } from '../core/index.js';
import { createMemoryStorage } from '../core/testing.js';
import { benchPlatform, type BenchPlatform } from './fixtures.js';
import { settledHeap, MB } from './heap.js';
import 'fake-indexeddb/auto';
import { createIdbStorage } from '../adapters/browser/storage.js';
import { latency } from './latency.js';
import type { BenchRow } from './report.js';

const SECTION = 'tracker';
const QUEUE_LENGTHS = [0, 1_000, 10_000] as const;
/** Timed stops per queue length; the queue grows by these (and the warm-up) while they run. */
const ITERATIONS = 400;
const WARM_UP = 50;
/** assumed: "O(1) in queue length" (DESIGN 11) read as: the p50 at 1 000 and 10 000 queued is at most this many times the p50 at 0. */
const FLAT_FACTOR = 2;

/** A tracker that never flushes while measured: offline, no threshold, no timer, no cap in reach. */
function quietTracker({ platform }: BenchPlatform, storageKey = 'bench'): PlaytimeTracker {
  return new PlaytimeTracker({
    platform,
    userId: 'bench-player',
    relay: { url: 'http://127.0.0.1:9/campaign' },
    storageKey,
    flushAt: 1_000_000,
    maxQueue: 1_000_000,
    flushIntervalMs: 24 * 3600_000,
  });
}

/** Plays `count` sessions of 2 s each (untimed): the queue grows by `count`. */
async function play(tracker: PlaytimeTracker, bench: BenchPlatform, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    tracker.start();
    bench.advance(2_000);
    await tracker.stop();
  }
}

/**
 * Runs the same code on a throw-away tracker and store first, so the first row (0 queued) is measured with
 * the code as optimised as for the later rows, and its queue stays empty.
 */
async function warmUp(platformOptions: { storage?: KeyValueStorage }): Promise<void> {
  const bench = benchPlatform({ online: false, ...platformOptions });
  const tracker = quietTracker(bench, 'warm-up');
  await tracker.flush();
  await play(tracker, bench, 2_000);
  await tracker.dispose();
}

/** p50 and p99 of `stop()` on `storage` at each queue length, filling the queue between measurements. */
async function stopCosts(label: string, platformOptions: { storage?: KeyValueStorage }): Promise<BenchRow[]> {
  await warmUp(platformOptions.storage ? { storage: createIdbStorage({ dbName: `bench-warm-up-${process.pid}` }) } : {});
  const bench = benchPlatform({ online: false, ...platformOptions });
  const tracker = quietTracker(bench);
  let dropped = 0;
  tracker.on('dropped', () => dropped++);
  await tracker.flush(); // start-up done (offline: nothing is sent)
  const rows: BenchRow[] = [];
  let queued = 0;
  let p50AtZero = 0;
  for (const length of QUEUE_LENGTHS) {
    await play(tracker, bench, length - queued);
    queued = length;
    const run = new Bench({ iterations: ITERATIONS, time: 0, warmupIterations: WARM_UP, warmupTime: 0, throws: true });
    run.add(`stop ${label} ${length}`, () => tracker.stop(), {
      async: true,
      beforeEach() {
        tracker.start();
        bench.advance(2_000);
      },
    });
    await run.run();
    const { p50, p99, samples } = latency(run.tasks[0]!);
    queued += samples + WARM_UP;
    if (length === 0) p50AtZero = p50;
    const span = `${length.toLocaleString('en-US')}-${queued.toLocaleString('en-US')} queued while measured; ${samples} samples`;
    rows.push({
      section: SECTION,
      name: `stop() + enqueue p50, ${label}, ${length.toLocaleString('en-US')} queued`,
      value: p50 * 1000,
      unit: 'µs',
      detail: span,
      ...(length === 0 ? {} : { budget: { op: '<=', limit: p50AtZero * 1000 * FLAT_FACTOR, source: `flat: ${FLAT_FACTOR}x the p50 at 0 queued` } }),
    });
    rows.push({ section: SECTION, name: `stop() + enqueue p99, ${label}, ${length.toLocaleString('en-US')} queued`, value: p99 * 1000, unit: 'µs' });
  }
  await tracker.dispose();
  if (dropped > 0) throw new Error(`tracker bench: ${dropped} sessions were dropped; the figures would not be those of enqueueing`);
  return rows;
}

/** Fills `store` with 10 000 queued sessions; returns the heap while the tracker and its platform are live. */
async function heapWhileQueued(store: KeyValueStorage): Promise<number> {
  const bench = benchPlatform({ online: false, memoryStore: store });
  const tracker = quietTracker(bench);
  await tracker.flush();
  await play(tracker, bench, 10_000);
  const heap = await settledHeap();
  await tracker.dispose();
  return heap;
}

/**
 * Heap with 10 000 queued on the memory platform: the tracker's own part (its queue index and everything it
 * keeps, the memory platform with it) is what dropping the tracker and its platform frees; the store's part
 * is what the store still holds then. (Both hold the same key strings: they count as the store's.)
 */
async function queuedHeap(): Promise<BenchRow[]> {
  const start = await settledHeap();
  const store = createMemoryStorage();
  const withTracker = await heapWhileQueued(store);
  const storeOnly = await settledHeap();
  const queued = (await store.keys('bench:player:bench-player:queue:')).length;
  if (queued !== 10_000) throw new Error(`tracker bench: expected 10 000 queued sessions, the store holds ${queued}`);
  return [
    { section: SECTION, name: "tracker's own heap, 10 000 queued (storage contents excluded)", value: (withTracker - storeOnly) / MB, unit: 'MB', budget: { op: '<=', limit: 2 } },
    { section: SECTION, name: 'memory store holding 10 000 queued sessions', value: (storeOnly - start) / MB, unit: 'MB' },
    { section: SECTION, name: '10 000 queued in memory: tracker + store', value: (withTracker - start) / MB, unit: 'MB', budget: { op: '<=', limit: 5 } },
  ];
}

export async function trackerRows(): Promise<BenchRow[]> {
  return [
    ...(await stopCosts('memory platform', {})),
    ...(await stopCosts('IndexedDB (fake-indexeddb)', { storage: createIdbStorage({ dbName: `bench-${process.pid}` }) })),
    ...(await queuedHeap()),
  ];
}
