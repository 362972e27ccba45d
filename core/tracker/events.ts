/**
 * What a {@link PlaytimeTracker} tells its listeners, and a typed emitter whose listeners cannot break it.
 * @see DESIGN section 5
 */
import mitt from 'mitt';
import type { RelaySession } from '../relay/protocol.js';
import type { ErrorDetail } from '../schema/errors.js';
import type { PlaytimeItemResult } from '../schema/playtime.js';

/** A finished session as the tracker sends it (a bulk playtime item). */
export type TrackedSession = RelaySession;

/**
 * Why a session ended. `restart`: `start()` was called while it ran. `background-timeout`: the game stayed
 * in the background longer than `backgroundTimeoutMs` (a `session:start` whose `continues` names it follows when
 * the game comes back). `recovered`: the previous run crashed; the session
 * ended at its last checkpoint. `hidden`: the page was hidden or left where that may be the last event it gets
 * (a web page, whose lifecycle passes `Lifecycle.pageExit`); the session was sent at once, and a `session:start` whose
 * `continues` names it follows when the page is shown again, however long it was hidden.
 */
export type SessionEndReason = 'stop' | 'restart' | 'background-timeout' | 'dispose' | 'recovered' | 'hidden';

/**
 * Why a session will never reach the service. `too-short`: under 1 s of play. `invalid`: it breaks the
 * spec's rules (found locally, or isolated by bisecting a batch the relay rejected). `rejected`: the
 * service answered FAILED for it. `overflow`: the queue was full and it was the oldest. `too-large`: alone
 * it is larger than the relay accepts (413). `expired`: another player's session waited on this device
 * longer than the relay's maximum session age. `opted-out`: it ended while the player had recording
 * switched off. `erased`: the player deleted their stored data.
 */
export type DropReason = (typeof DROP_REASONS)[number];

/** Every {@link DropReason} (the one list the Unity types are generated from). */
export const DROP_REASONS = ['too-short', 'invalid', 'rejected', 'overflow', 'too-large', 'expired', 'opted-out', 'erased'] as const;

/** Payload of `session:start`. */
export interface SessionStartEvent {
  sessionId: string;
  /**
   * Set when the tracker started this session itself, continuing the one named here: that one ended `hidden`
   * (sent at once) and the page was shown again, or ended `background-timeout` and the game came back. Same
   * campaign, creator and metadata, a new sessionId: the service records a sessionId once, so a sent session
   * cannot grow.
   */
  continues?: string;
  startedAt: string;
  campaignId?: string;
  creatorKey?: string;
}

/** Payload of `session:end`; `session` holds its final fields (its duration may be under the 1 s minimum). */
export interface SessionEndEvent {
  sessionId: string;
  reason: SessionEndReason;
  session: TrackedSession;
}

/**
 * Payload of `flushed`, once per relay answer: the service acknowledged these sessions (`SUCCESS`, or
 * `SKIPPED`: it had them already). assumed: FAILED results are not listed here but in `dropped` (reason
 * `rejected`), so each session appears in exactly one of the two.
 */
export interface FlushedEvent {
  results: PlaytimeItemResult[];
}

/** Payload of `dropped`: a session that will never be sent again, and why. */
export interface DroppedEvent {
  sessionId: string;
  reason: DropReason;
  /** The session, when the tracker could still read it. */
  session?: TrackedSession;
  /** Why, in words: the service's per-item error (`rejected`), the rule broken (`invalid`, `too-short`) or the relay's answer (`too-large`). */
  error?: string;
  /** Field problems (`invalid`). */
  details?: ErrorDetail[];
}

/**
 * Payload of `error`: something the game should know about; no session is lost by it. `auth`: the relay
 * refused the game's credentials (a `RelayAuthError`; data kept, retried on the next trigger). `headers`: the `relay.headers`
 * function threw. `storage`: a storage call failed. `relay`: the relay answered something unexpected.
 * `crypto`: `platform.crypto.randomBytes` failed (session ids then come from `Math.random`). `lock`:
 * `platform.lock` failed, so that flush did not run. `listener`: one of your listeners threw.
 */
export interface TrackerErrorEvent {
  kind: 'auth' | 'headers' | 'storage' | 'crypto' | 'relay' | 'lock' | 'listener';
  error: unknown;
  /** HTTP status, when the relay answered. */
  status?: number;
}

/** Every event of the tracker and its payload. */
export interface TrackerEventMap {
  'session:start': SessionStartEvent;
  'session:end': SessionEndEvent;
  flushed: FlushedEvent;
  dropped: DroppedEvent;
  error: TrackerErrorEvent;
}

/** A listener of one tracker event. */
export type TrackerListener<K extends keyof TrackerEventMap> = (event: TrackerEventMap[K]) => unknown;

/** Typed events where each listener runs on its own (see {@link trackerEvents}). */
export interface TrackerEvents {
  /** Adds a guarded listener (`once`: for the next event only). */
  on<K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>, once?: boolean): void;
  /** Removes a listener added with `on` (every time it was added). */
  off<K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>): void;
  /** Calls every listener of `name` with `event`. */
  emit<K extends keyof TrackerEventMap>(name: K, event: TrackerEventMap[K]): void;
  /** Forgets every listener (on dispose). */
  clear(): void;
}

/**
 * Typed events where each listener runs on its own: one that throws or rejects neither stops the others nor
 * the tracker; its error is emitted as `error` (kind `listener`). An `error` listener that throws is
 * re-thrown from a timer (it would loop otherwise), so it surfaces as an uncaught error of the host.
 * mitt (ESM, ~200 B) rather than eventemitter3 (CommonJS, ~1 KB in every consumer's bundle); closures rather
 * than a class: bundlers do not shorten property names, they do shorten local names.
 */
export function trackerEvents(): TrackerEvents {
  const emitter = mitt<Record<keyof TrackerEventMap, unknown>>();
  const { all } = emitter;
  const events: TrackerEvents = {
    on(name, listener, once) {
      const report = (error: unknown) =>
        name === 'error'
          ? setTimeout(() => {
              throw error;
            })
          : events.emit('error', { kind: 'listener', error });
      const wrapped: Wrapped = (event) => {
        if (once) emitter.off(name, wrapped);
        try {
          const result = (listener as (event: unknown) => unknown)(event);
          if (typeof (result as PromiseLike<unknown> | undefined)?.then === 'function') (result as PromiseLike<unknown>).then(undefined, report);
        } catch (error) {
          report(error);
        }
      };
      wrapped.listener = listener;
      emitter.on(name, wrapped);
    },
    // mitt's `off` drops one handler; a listener added twice is removed whole.
    off: (name, listener) => void all.set(name, ((all.get(name) ?? []) as Wrapped[]).filter((handler) => handler.listener !== listener)),
    emit: emitter.emit,
    clear: () => all.clear(),
  };
  return events;
}

/** A guarded listener as mitt holds it, with the game's listener it wraps (what `off` looks for). */
type Wrapped = ((event: unknown) => void) & { listener?: (event: never) => unknown };
