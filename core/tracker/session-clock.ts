/**
 * The running session: play time from the monotonic clock, paused in the background, and the record it
 * checkpoints to storage so a crash loses at most one checkpoint interval.
 * @see DESIGN section 5
 */
import type { TrackedSession } from './events.js';
import { isoTime } from '../iso-time.js';
import { definedOnly } from './options.js';

/** The fields a session carries besides its times. */
export interface SessionFields {
  sessionId: string;
  userId: string;
  campaignId?: string;
  creatorKey?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The write-ahead record of a running session, as stored under `{player prefix}running:{sessionId}`. Times are
 * elapsed spans, not monotonic stamps: the monotonic origin does not survive a restart.
 */
export interface RunningRecord extends SessionFields {
  /** The tracker instance that runs it (recovery waits until that instance is gone). */
  owner: string;
  /** Wall clock at start, ms since the epoch. */
  startedAtMs: number;
  /** Monotonic time from start to the checkpoint (play and pauses), ms. */
  spanMs: number;
  /** Play time at the checkpoint (background excluded), ms. */
  playedMs: number;
}

/** Measures one session. Every method takes the current `platform.monotonic()`. */
export interface SessionClock {
  /** How long the session has been paused, ms (0 when running). */
  pausedFor(nowMono: number): number;
  /** Stops counting play time (going to the background); false when it was already paused. */
  pause(nowMono: number): boolean;
  /** Counts play time again (back in the foreground within the timeout). */
  resume(nowMono: number): void;
  /** The checkpoint record at `nowMono` (the finished session at that moment: {@link recoveredSession} of it). */
  record(owner: string, nowMono: number): RunningRecord;
}

/**
 * The clock of a session started at `startedAtMs` (wall) and `startMono` (monotonic). Play time counts the
 * foreground stretches only, plus `carriedMs` (under 1 s: what the session it continues played beyond its whole
 * seconds, so splitting a session loses no play time to rounding); the span runs to now, or to the pause when paused (a session ending in the
 * background ended when it went there). `clockMoved` tells how far the device's wall clock has been moved
 * (see `clockWatch`): the start is moved with it, so records and the finished session are in the clock's
 * present frame.
 */
export function sessionClock(fields: SessionFields, startedAtMs: number, startMono: number, clockMoved: () => number, carriedMs: number): SessionClock {
  const movedAtStart = clockMoved();
  /** Play time before the current foreground stretch, ms. */
  let playedBeforeMs = carriedMs;
  /** Start of the current foreground stretch; undefined while paused. */
  let resumedAt: number | undefined = startMono;
  let pausedAt: number | undefined;
  const record = (owner: string, now: number): RunningRecord => ({
    ...fields,
    owner,
    startedAtMs: startedAtMs + clockMoved() - movedAtStart,
    spanMs: (pausedAt ?? now) - startMono,
    playedMs: playedBeforeMs + (resumedAt === undefined ? 0 : now - resumedAt),
  });
  return {
    pausedFor: (now) => (pausedAt === undefined ? 0 : now - pausedAt),
    pause(now) {
      if (resumedAt === undefined) return false;
      playedBeforeMs += now - resumedAt;
      resumedAt = undefined;
      pausedAt = now;
      return true;
    },
    resume(now) {
      if (pausedAt === undefined) return;
      pausedAt = undefined;
      resumedAt = now;
    },
    record,
  };
}

/** The spec's minimum session length, ms (`durationSeconds` at least 1): the tracker's first checkpoint, and the page exit's threshold. */
export const MIN_SESSION_MS = 1_000;

/**
 * A finished session from a record (a live one's, or a crashed run's: ended at its last checkpoint):
 * `endedAt = startedAt + span` (so `endedAt >= startedAt` whatever the device clock did) and
 * `durationSeconds = floor(played / 1000)`; a play time over Number.MAX_SAFE_INTEGER ms gives NaN, which the spec's
 * rules refuse (the session is dropped as invalid).
 */
export function recoveredSession(record: RunningRecord): TrackedSession {
  const startedAtMs = storedMs(record.startedAtMs);
  const playedMs = storedMs(record.playedMs);
  // One object, its undefined optional fields left out (the first five are always set).
  return definedOnly({
    sessionId: record.sessionId,
    userId: record.userId,
    // A play time past the safe integers is none this SDK writes: 2^53 + 1 ms was sent as 9,007,199,254,740 s, a whole
    // number the spec's rules pass (contract scenario kill-recovered-beyond-safe.json; C#: RunningRecord.FromJson).
    durationSeconds: playedMs <= Number.MAX_SAFE_INTEGER ? Math.floor(playedMs / 1000) : NaN,
    startedAt: isoMillis(startedAtMs),
    endedAt: isoMillis(startedAtMs + storedMs(record.spanMs)),
    campaignId: record.campaignId,
    creatorKey: record.creatorKey,
    metadata: record.metadata,
  }) as TrackedSession;
}

/**
 * A stored time, ms: a number, else NaN, so the session breaks the spec's rules and is dropped (`invalid`), as C#'s
 * `RunningRecord.FromJson` reads it: never converted by JavaScript's rules (`null` as 0, `true` as 1, `"20000"` as 20 s;
 * contract scenario kill-recovered-wrong-type.json).
 */
const storedMs = (value: unknown): number => (typeof value == 'number' ? value : NaN);

/** An impossible clock value gives a string the schema rejects (the session is dropped as invalid). */
export const isoMillis = (ms: number): string => isoTime(ms) ?? `invalid time ${ms}`;
