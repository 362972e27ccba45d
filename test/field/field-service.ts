/**
 * The field-conditions suite's world: the emulator behind a real relay (the game server's own auth binds each
 * request to its player by token), and devices on the memory platform whose storage outlives a game's run.
 * Time is faked (Date, timers, performance): the relay and the emulator read the true time, a device's wall
 * clock may be set off it (`platform.setWallClock`), as a player does.
 */
import { vi } from 'vitest';
import { createMemoryPlatform, type MemoryPlatform } from '../../core/memory-platform.js';
import type { FetchLike, KeyValueStorage } from '../../core/platform.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { PlaytimeTracker, type PlaytimeTrackerOptions, type TrackerEventMap } from '../../core/tracker/index.js';
import { createEmulator, DEMO_ACTIVE_CAMPAIGN_ID, type Emulator } from '../../emulator/index.js';

export const RELAY_URL = 'http://game.local/campaign';
const API_URL = 'http://emulator.local';
/** 2026-03-10T12:00:00.000Z: the true time when each story begins. */
export const T0 = Date.parse('2026-03-10T12:00:00.000Z');
export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
export const iso = (ms: number) => new Date(ms).toISOString();

/** Starts faked time at {@link T0}; call in `beforeEach`, with `vi.useRealTimers()` in `afterEach`. */
export function useFieldClock(): void {
  vi.useFakeTimers({ now: T0, toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
}

/** Days pass with the game closed: the clocks move on without running every timer on the way. */
export const closedFor = (ms: number) => vi.setSystemTime(Date.now() + ms);

/** Lets timers, the relay's coalescing window and every promise chain run (`ms` of true time pass). */
export const pass = (ms = 1_000) => vi.advanceTimersByTimeAsync(ms);

/** The service side: the emulator behind the game server's relay, and the game's own sign-in. */
export interface FieldService {
  emulator: Emulator;
  /** What a request from a device reaches (the relay, or the emulator for the rest). */
  fetch: FetchLike;
  /** Signs `userId` in: a new token the relay maps to that player. */
  signIn(userId: string): string;
  /** The game server stops accepting `token` (it expired). */
  expire(token: string): void;
  /** Sessions the service recorded (of `userId`, when given), as stored. */
  recorded(userId?: string): Array<{ sessionId: string; userId: string; durationSeconds: number; startedAt: string; endedAt: string }>;
}

export function fieldService(): FieldService {
  const emulator = createEmulator();
  const tokens = new Map<string, string>();
  let signIns = 0;
  // Sent without the device's signal: the game server runs elsewhere, with its own.
  const serverFetch: FetchLike = (input, init) => emulator.fetch(input, { ...init, signal: undefined });
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: API_URL }, fetch: serverFetch, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => {
    const userId = tokens.get(request.headers.get('authorization') ?? '');
    return userId ? { userId } : null;
  } });
  return {
    emulator,
    fetch: async (input, init) => {
      const request = new Request(input, init);
      return request.url.startsWith(RELAY_URL) ? relay.fetch(request) : emulator.fetch(request);
    },
    signIn(userId) {
      const token = `Bearer ${userId}-${++signIns}`;
      tokens.set(token, userId);
      return token;
    },
    expire: (token) => void tokens.delete(token),
    recorded: (userId) => emulator.state().sessions.filter((session) => userId === undefined || session.userId === userId),
  };
}

export type EventLog = Array<{ [K in keyof TrackerEventMap]: [K, TrackerEventMap[K]] }[keyof TrackerEventMap]>;

/** One run of the game on `storage`, signed in as `userId`: its platform, tracker and every event it emitted. */
export interface GameRun {
  platform: MemoryPlatform;
  tracker: PlaytimeTracker;
  log: EventLog;
  /** The token the game sends now (signed in at start; `refreshToken` signs in again). */
  token: string;
  refreshToken(): void;
  /** Plays one session of `ms` (start, play, stop). */
  play(ms: number): Promise<string>;
  /** Events of one kind. */
  events<K extends keyof TrackerEventMap>(name: K): Array<TrackerEventMap[K]>;
}

/** Starts the game on a device (a new process on `storage`). */
export function startGame(
  service: FieldService,
  storage: KeyValueStorage,
  userId: string,
  options: { online?: boolean; wallClockOffsetMs?: number; tracker?: Partial<PlaytimeTrackerOptions>; page?: boolean } = {},
): GameRun {
  // `page`: a browser tab (going to the background may be its last event: the session is sent as it is hidden).
  const platform = createMemoryPlatform({ storage, fetch: service.fetch, online: options.online ?? true, backgroundMayBeFinal: options.page ?? false });
  if (options.wallClockOffsetMs) platform.setWallClock(options.wallClockOffsetMs);
  const run = {
    platform,
    token: service.signIn(userId),
    log: [] as EventLog,
    refreshToken: () => void (run.token = service.signIn(userId)),
  };
  const tracker = new PlaytimeTracker({
    platform,
    userId,
    relay: { url: RELAY_URL, headers: () => ({ authorization: run.token }) },
    campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
    ...options.tracker,
  });
  for (const name of ['session:start', 'session:end', 'flushed', 'dropped', 'error'] as const) {
    tracker.on(name, (event) => void run.log.push([name, event] as EventLog[number]));
  }
  return Object.assign(run, {
    tracker,
    async play(ms: number) {
      const sessionId = tracker.start();
      await pass(ms);
      await tracker.stop();
      return sessionId;
    },
    events: <K extends keyof TrackerEventMap>(name: K) => run.log.filter(([event]) => event === name).map(([, payload]) => payload as TrackerEventMap[K]),
  });
}

/** Delivers what `run` has queued now: a manual flush with time for the relay's coalescing window. */
export async function flushNow(run: GameRun): Promise<void> {
  const done = run.tracker.flush();
  await pass(1_000);
  await done;
}
