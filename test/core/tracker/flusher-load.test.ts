// The tracker's flusher (core/tracker/flusher.ts) is a chunk of its own, loaded while the tracker starts up: a game
// records sessions before it arrives, a failed load (a page gone offline, a chunk gone after a deploy) loses
// nothing and is tried again at the next flush, and a tracker disposed while it is on its way sends nothing.
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { advance, createHarness, eventsOf, settle, useFakeClock } from './harness.js';

type FlusherModule = typeof import('../../../core/tracker/flusher.js');

/**
 * The module as the tracker gets it, counting its loads: `flusherCode()` is where a load completes (in the
 * `<script>` bundle, where its sibling file loads), so failing or holding it stands for a chunk that did not
 * arrive or arrives late. Mocked for the whole file (hoisted), so every story sees the same module.
 */
const chunk = vi.hoisted(() => ({ loads: 0, fail: false, held: undefined as Promise<void> | undefined }));
vi.mock('../../../core/tracker/flusher.js', async (importOriginal) => {
  const original = await importOriginal<FlusherModule>();
  return {
    ...original,
    flusherCode: async () => {
      chunk.loads++;
      await chunk.held;
      if (chunk.fail) throw new Error('Failed to fetch dynamically imported module: flusher.js');
      return original.flusherCode();
    },
  };
});

/** Holds the chunk until the returned function is called. */
const holdChunk = () => {
  let arrive = () => {};
  chunk.held = new Promise<void>((resolve) => (arrive = resolve));
  return arrive;
};

// The mocked module's first import takes real time, which fake timers do not move: done once, before the stories.
beforeAll(async () => void (await import('../../../core/tracker/flusher.js')));
beforeEach(() => {
  useFakeClock();
  Object.assign(chunk, { loads: 0, fail: false, held: undefined });
});
afterEach(() => void vi.useRealTimers());

describe('the flusher chunk', () => {
  it('is loaded once, as the tracker starts up, before anything asks to send', async () => {
    const { tracker, relay } = createHarness();
    await settle();
    expect(chunk.loads).toBe(1);
    expect(relay.requests).toHaveLength(0);
    tracker.start();
    await advance(5_000);
    await tracker.stop();
    await tracker.flush();
    await tracker.flush();
    expect(chunk.loads).toBe(1);
    expect(relay.requests).toHaveLength(1);
    await tracker.dispose();
  });

  it('on its way: the game records and queues sessions, which are sent once it arrives', async () => {
    const arrive = holdChunk();
    const { tracker, relay, log, storage } = createHarness();
    const sessionId = tracker.start();
    await advance(5_000);
    await tracker.stop();
    expect(Object.keys(storage.snapshot()).filter((key) => key.includes(':queue:'))).toEqual([expect.stringContaining(sessionId)]);
    const flushed = tracker.flush();
    await settle();
    expect(relay.requests).toHaveLength(0);

    arrive();
    await flushed;
    expect(eventsOf(log, 'flushed').flatMap((event) => event.results.map((result) => result.sessionId))).toEqual([sessionId]);
    expect(storage.snapshot()).toEqual({});
    await tracker.dispose();
  });

  it('failing to load is reported once as a relay error; the sessions stay queued and a later flush loads it and sends them', async () => {
    chunk.fail = true;
    const { tracker, relay, log, storage } = createHarness();
    const sessionId = tracker.start();
    await advance(5_000);
    await tracker.stop();
    await tracker.flush();
    await tracker.flush();
    await advance(120_000); // interval flushes try again, quietly
    expect(eventsOf(log, 'error').map((event) => [event.kind, String(event.error)])).toEqual([['relay', expect.stringContaining('flusher.js')]]);
    expect(chunk.loads).toBeGreaterThanOrEqual(3);
    expect(relay.requests).toHaveLength(0);
    expect(Object.keys(storage.snapshot()).filter((key) => key.includes(':queue:'))).toEqual([expect.stringContaining(sessionId)]);

    chunk.fail = false;
    await tracker.flush();
    expect(eventsOf(log, 'flushed').flatMap((event) => event.results.map((result) => result.sessionId))).toEqual([sessionId]);
    expect(eventsOf(log, 'dropped')).toEqual([]);
    await tracker.dispose();
  });

  it('disposed while it is on its way: nothing is sent once it arrives, and the session waits for the next start-up', async () => {
    const arrive = holdChunk();
    const first = createHarness();
    first.tracker.start();
    await advance(5_000);
    await first.tracker.stop();
    const disposed = first.tracker.dispose();
    arrive();
    await disposed;
    await advance(120_000);
    expect(first.relay.requests).toHaveLength(0);

    const second = createHarness({}, { storage: first.storage, relay: first.relay });
    await second.tracker.flush();
    expect(eventsOf(second.log, 'flushed')).toHaveLength(1);
    await second.tracker.dispose();
  });
});
