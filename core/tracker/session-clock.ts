/**
 * The running session: play time from the monotonic clock, paused in the background, and the record it
 * checkpoints to storage so a crash loses at most one checkpoint interval.
 * @see DESIGN section 5
 */
import type { TrackedSession } from './events.js';

/** The fields a session carries besides its times. */
export interface SessionFields {
  sessionId: string;
  userId: string;
  campaignId?: string;
  creatorKey?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The write-ahead record of a running session, as stored under `{storageKey}:running:{sessionId}`. Times are
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
export class SessionClock {
  readonly fields: SessionFields;
  readonly startedAtMs: number;
  readonly #startMono: number;
  #playedBeforeMs = 0;
  /** Start of the current foreground stretch; undefined while paused. */
  #resumedAt: number | undefined;
  #pausedAt: number | undefined;

  constructor(fields: SessionFields, startedAtMs: number, nowMono: number) {
    this.fields = fields;
    this.startedAtMs = startedAtMs;
    this.#startMono = nowMono;
    this.#resumedAt = nowMono;
  }

  /** Whether the game is in the background (the clock stands still). */
  get paused(): boolean {
    return this.#pausedAt !== undefined;
  }

  /** How long the session has been paused, ms (0 when running). */
  pausedFor(nowMono: number): number {
    return this.#pausedAt === undefined ? 0 : nowMono - this.#pausedAt;
  }

  /** Stops counting play time (going to the background). */
  pause(nowMono: number): void {
    if (this.#resumedAt === undefined) return;
    this.#playedBeforeMs += nowMono - this.#resumedAt;
    this.#resumedAt = undefined;
    this.#pausedAt = nowMono;
  }

  /** Counts play time again (back in the foreground within the timeout). */
  resume(nowMono: number): void {
    if (this.#pausedAt === undefined) return;
    this.#pausedAt = undefined;
    this.#resumedAt = nowMono;
  }

  /** Play time so far, ms: foreground stretches only. */
  playedMs(nowMono: number): number {
    return this.#playedBeforeMs + (this.#resumedAt === undefined ? 0 : nowMono - this.#resumedAt);
  }

  /** Time from start to now, or to the pause when paused (a session ending in the background ended when it went there). */
  spanMs(nowMono: number): number {
    return (this.#pausedAt ?? nowMono) - this.#startMono;
  }

  /** The checkpoint record at `nowMono`. */
  record(owner: string, nowMono: number): RunningRecord {
    return { ...this.fields, owner, startedAtMs: this.startedAtMs, spanMs: this.spanMs(nowMono), playedMs: this.playedMs(nowMono) };
  }

  /** The finished session at `nowMono`. */
  finish(nowMono: number): TrackedSession {
    return toTrackedSession(this.fields, this.startedAtMs, this.spanMs(nowMono), this.playedMs(nowMono));
  }
}

/**
 * A finished session: `endedAt = startedAt + span` (so `endedAt >= startedAt` whatever the device clock did)
 * and `durationSeconds = floor(played / 1000)`.
 */
export function toTrackedSession(fields: SessionFields, startedAtMs: number, spanMs: number, playedMs: number): TrackedSession {
  const { sessionId, userId, campaignId, creatorKey, metadata } = fields;
  return {
    sessionId,
    userId,
    durationSeconds: Math.floor(playedMs / 1000),
    startedAt: isoMillis(startedAtMs),
    endedAt: isoMillis(startedAtMs + spanMs),
    ...(campaignId === undefined ? {} : { campaignId }),
    ...(creatorKey === undefined ? {} : { creatorKey }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/** The session recovered from a crashed run's record: ended at its last checkpoint. */
export function recoveredSession(record: RunningRecord): TrackedSession {
  return toTrackedSession(record, record.startedAtMs, record.spanMs, record.playedMs);
}

/** `YYYY-MM-DDTHH:mm:ss.sssZ`; an impossible clock value gives a string the schema rejects (the session is dropped as invalid). */
function isoMillis(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `invalid time ${ms}` : date.toISOString();
}
