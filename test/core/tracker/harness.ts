/**
 * Shared set-up for the tracker tests: fake timers at a fixed instant, a memory platform over a shared store,
 * a fake relay, and a log of every event a tracker emits.
 */
import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage, type MemoryPlatform, type MemoryStorage } from '../../../core/memory-platform.js';
import type { TrackerEventMap } from '../../../core/tracker/index.js';
import { PlaytimeTracker, type PlaytimeTrackerOptions } from '../../../core/tracker/index.js';
import { createFakeRelay, type FakeRelay } from './fake-relay.js';

export const RELAY_URL = 'https://game.example/campaign';
export const PLAYTIME_URL = `${RELAY_URL}/playtime/sessions`;
/** 2025-01-01T12:00:00.000Z: the wall clock at the start of every test. */
export const T0 = Date.UTC(2025, 0, 1, 12, 0, 0);
export const iso = (ms: number) => new Date(ms).toISOString();

/** The storage key of the `seq`-th queued session of the default tracker. */
export const key = (seq: number, sessionId: string) => `game-campaign:player:player-1:queue:${String(seq).padStart(12, '0')}:${sessionId}`;

/** A valid queued session of player-1, a minute long, ended a minute before T0. */
export const item = (sessionId: string, extra: Partial<BulkPlaytimeItem> = {}): BulkPlaytimeItem => ({
  sessionId,
  userId: 'player-1',
  durationSeconds: 60,
  startedAt: iso(T0 - 120_000),
  endedAt: iso(T0 - 60_000),
  ...extra,
});

export type EventLog = Array<{ [K in keyof TrackerEventMap]: [K, TrackerEventMap[K]] }[keyof TrackerEventMap]>;

/** Every event of `tracker`, in order. */
export function recordEvents(tracker: PlaytimeTracker): EventLog {
  const log: EventLog = [];
  for (const name of ['session:start', 'session:end', 'flushed', 'dropped', 'error'] as const) {
    tracker.on(name, (event) => void log.push([name, event] as EventLog[number]));
  }
  return log;
}

/** The payloads of one event type in `log`. */
export function eventsOf<K extends keyof TrackerEventMap>(log: EventLog, name: K): Array<TrackerEventMap[K]> {
  return log.filter((entry) => entry[0] === name).map((entry) => entry[1] as TrackerEventMap[K]);
}

export interface Harness {
  storage: MemoryStorage;
  relay: FakeRelay;
  platform: MemoryPlatform;
  tracker: PlaytimeTracker;
  log: EventLog;
}

/** A tracker on a memory platform (over `storage`, new by default) talking to `relay` (new by default). */
export function createHarness(options: Partial<PlaytimeTrackerOptions> = {}, shared: { storage?: MemoryStorage; relay?: FakeRelay; backgroundMayBeFinal?: boolean } = {}): Harness {
  const storage = shared.storage ?? createMemoryStorage();
  const relay = shared.relay ?? createFakeRelay();
  const platform = createMemoryPlatform({ storage, fetch: relay.fetch, backgroundMayBeFinal: shared.backgroundMayBeFinal });
  const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL }, ...options });
  return { storage, relay, platform, tracker, log: recordEvents(tracker) };
}

/** Fake timers at {@link T0}. */
export function useFakeClock(): void {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
}

/** Lets every pending promise chain (storage, fetch, response bodies) run to its end without moving time. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await vi.advanceTimersByTimeAsync(0);
}

/** Moves time forward by `ms`, firing timers on the way, then settles. */
export async function advance(ms: number): Promise<void> {
  await vi.advanceTimersByTimeAsync(ms);
  await settle();
}
