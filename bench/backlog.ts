/**
 * Backlog rows: a player's tracker that queued 10 000 sessions offline comes back online and drains them
 * through the relay into the local emulator (loopback HTTP); how long that takes, and what the heap keeps
 * afterwards (the emulator's recorded data cleared), which would show any per-call retention.
 */
import { PlaytimeTracker } from '../core/index.js';
import { createMemoryStorage } from '../core/testing.js';
import { benchPlatform } from './fixtures.js';
import { MB, settledHeap } from './heap.js';
import type { BenchRow } from './report.js';
import { startLoopback, USER_HEADER } from './servers.js';

const SECTION = 'backlog';
const BACKLOG = 10_000;

export async function backlogRows(): Promise<BenchRow[]> {
  const loopback = await startLoopback();
  try {
    const bench = benchPlatform({ online: false, memoryStore: createMemoryStorage(), fetch: (input, init) => fetch(input, init) });
    const tracker = new PlaytimeTracker({ platform: bench.platform, userId: 'bench-backlog', relay: { url: loopback.relayUrl, headers: { [USER_HEADER]: 'bench-backlog' } } });
    let flushed = 0;
    let dropped = 0;
    tracker.on('flushed', ({ results }) => (flushed += results.length));
    tracker.on('dropped', () => dropped++);
    const fillAndDrain = async (count: number) => {
      for (let i = 0; i < count; i++) {
        tracker.start();
        bench.advance(2_000);
        await tracker.stop();
      }
      flushed = 0;
      const started = performance.now();
      bench.setOnline(true); // the tracker's own trigger starts the drain; flush() joins it
      await tracker.flush();
      const seconds = (performance.now() - started) / 1000;
      bench.setOnline(false);
      const recorded = loopback.emulator.state().sessions.length;
      if (flushed !== count || dropped !== 0 || recorded !== count) throw new Error(`backlog bench: ${flushed} flushed, ${dropped} dropped, ${recorded} recorded of ${count}`);
      loopback.emulator.reset();
      return seconds;
    };
    await tracker.flush(); // start-up done (offline: nothing is sent)
    // Warm-up: the first requests load and compile the HTTP stack, which the heap rows must not count.
    await fillAndDrain(1_000);
    const before = await settledHeap();
    const seconds = await fillAndDrain(BACKLOG);
    const kept = (await settledHeap()) - before;
    await tracker.dispose();
    return [
      { section: SECTION, name: 'drain of a 10 000-session backlog, tracker -> relay -> emulator', value: seconds, unit: 's', budget: { op: '<=', limit: 3 }, detail: 'loopback HTTP, all in one process; 10 requests of 1000' },
      {
        section: SECTION,
        name: 'heap kept after 10 000 queued and drained',
        value: kept / MB,
        unit: 'MB',
        budget: { op: '<=', limit: 2, source: "assumed: the tracker's budget; nothing is queued any more" },
        detail: 'tracker and its memory platform alive, emulator data cleared',
      },
    ];
  } finally {
    await loopback.close();
  }
}
