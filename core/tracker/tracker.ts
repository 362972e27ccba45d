/**
 * The offline playtime tracker: a game records play sessions on the device, offline or not, and they reach
 * the service exactly once through the game server's relay.
 * @see DESIGN section 5
 */
import type { Platform } from '../platform.js';
import { checkPlaytimeItem } from '../schema/playtime-rules.js';
import { TrackerEvents, type SessionEndReason, type TrackedSession, type TrackerErrorEvent, type TrackerEventMap, type TrackerListener } from './events.js';
import { Flusher, type FlushTrigger } from './flusher.js';
import { checkStartOptions, definedOnly, resolveTrackerOptions, type PlaytimeTrackerOptions, type ResolvedTrackerOptions, type StartSessionOptions } from './options.js';
import { SessionQueue } from './queue.js';
import { RunningStore, recoverCrashedSessions } from './running-store.js';
import { SessionClock, recoveredSession, type RunningRecord } from './session-clock.js';
import { SessionIds } from './session-id.js';

/** When the first checkpoint of a session is taken, ms: the spec's minimum session length. */
const FIRST_CHECKPOINT_MS = 1_000;

/**
 * Records play sessions and delivers them through the relay. Durations come from the monotonic clock;
 * the running session is written ahead and checkpointed; finished sessions wait in a persisted queue that
 * is flushed on a timer, at `flushAt`, on going to the background, when the network returns and at start-up.
 * Every session ends up either acknowledged (`flushed`) or reported (`dropped`).
 *
 * assumed: `start()` while a session runs ends that one first (reason `restart`). A session ended by a long
 * background is not restarted on return: `session:end` says `background-timeout` and the game calls
 * `start()` again if it wants; a background of exactly `backgroundTimeoutMs` counts as longer. `onUnload` is
 * treated as going to the background (checkpoint and keepalive flush); the session is recovered at the next
 * start-up if the page really went away. A bad argument to `start()` throws a `ValidationError` (a
 * programming error), while a finished session that breaks the rules is dropped (`invalid`).
 * @example
 * ```ts
 * const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: 'https://game.example/campaign' } });
 * tracker.on('dropped', ({ sessionId, reason }) => console.warn(sessionId, reason));
 * const sessionId = tracker.start({ campaignId: 'spring-event', creatorKey: 'ABCDE' });
 * await tracker.stop();
 * ```
 * @see DESIGN section 5
 */
export class PlaytimeTracker {
  readonly #options: ResolvedTrackerOptions;
  readonly #platform: Platform;
  readonly #events = new TrackerEvents();
  readonly #ids: SessionIds;
  readonly #instanceId: string;
  readonly #queue: SessionQueue;
  readonly #running: RunningStore;
  readonly #flusher: Flusher;
  /** The queue index is loaded: sessions may be queued. */
  readonly #loaded: Promise<void>;
  /** Start-up is done: queue loaded, crashed sessions recovered (or their recovery requested). */
  readonly #ready: Promise<void>;
  /** Finishing sessions (enqueue or drop, then delete the record): `stop()`, `flush()` and `dispose()` wait for them. */
  readonly #pending = new Set<Promise<void>>();
  readonly #unsubscribe: Array<() => void> = [];
  #releaseAlive: () => void = () => undefined;
  #clock: SessionClock | undefined;
  #inBackground = false;
  #checkpointTimer: ReturnType<typeof setInterval> | undefined;
  #firstCheckpointTimer: ReturnType<typeof setTimeout> | undefined;
  #backgroundTimer: ReturnType<typeof setTimeout> | undefined;
  #flushTimer: ReturnType<typeof setInterval> | undefined;
  #disposed: Promise<void> | undefined;

  /** @throws ValidationError for a bad userId, relay url, default campaignId/creatorKey or timing option */
  constructor(options: PlaytimeTrackerOptions) {
    this.#options = resolveTrackerOptions(options);
    const { platform, storageKey } = this.#options;
    this.#platform = platform;
    const storageError = (error: unknown) => this.#error({ kind: 'storage', error });
    this.#ids = new SessionIds(platform.crypto, (error) => this.#error({ kind: 'crypto', error }));
    this.#instanceId = this.#ids.next();
    this.#holdAliveLock();
    this.#queue = new SessionQueue(platform.storage, `${storageKey}:queue:`, this.#options.maxQueue, {
      dropped: (event) => this.#events.emit('dropped', event),
      storageError,
    });
    this.#running = new RunningStore(platform.storage, `${storageKey}:running:`, storageError);
    const { relay, isTest } = this.#options;
    this.#flusher = new Flusher({ platform, queue: this.#queue, relay, isTest, lockName: `${storageKey}:flush`, events: this.#events });
    this.#listen();
    this.#loaded = this.#queue.sync();
    this.#ready = this.#init();
  }

  /**
   * Starts a session and returns its id (a UUIDv4). Ends the running session first, if any.
   * @throws ValidationError for a bad `creatorKey`, `campaignId` or `metadata`
   * @throws Error after `dispose()`
   */
  start(options: StartSessionOptions = {}): string {
    if (this.#disposed) throw new Error('PlaytimeTracker: start() was called after dispose()');
    const { campaignId, creatorKey, metadata } = checkStartOptions(options);
    if (this.#clock) this.#end('restart');
    const sessionId = this.#ids.next();
    const fields = {
      sessionId,
      userId: this.#options.userId,
      ...definedOnly({ campaignId: campaignId ?? this.#options.campaignId, creatorKey: creatorKey ?? this.#options.creatorKey, metadata }),
    };
    const now = this.#platform.monotonic();
    const clock = new SessionClock(fields, this.#platform.now(), now);
    this.#clock = clock;
    if (this.#inBackground) this.#pause(clock, now);
    else {
      this.#checkpointTimer = setInterval(() => this.#checkpoint(), this.#options.checkpointMs);
      // One early checkpoint: a crash within the first interval still leaves a session of the 1 s minimum.
      this.#firstCheckpointTimer = setTimeout(() => this.#checkpoint(), Math.min(FIRST_CHECKPOINT_MS, this.#options.checkpointMs));
    }
    void this.#running.save(clock.record(this.#instanceId, now));
    const start = clock.finish(now);
    this.#events.emit('session:start', { sessionId, startedAt: start.startedAt, ...definedOnly({ campaignId: start.campaignId, creatorKey: start.creatorKey }) });
    return sessionId;
  }

  /** Ends the running session and queues it (or drops it, with `dropped`); resolves once that is stored. No session: no-op. */
  async stop(): Promise<void> {
    if (this.#clock) this.#end('stop');
    await this.#settled();
  }

  /** Sends every queued session now (joins a flush in progress). Resolves when done; outcomes arrive as events. */
  async flush(): Promise<void> {
    await this.#ready;
    await this.#settled();
    await this.#flusher.flush('manual');
  }

  /**
   * Ends the running session (queued for the next start-up), stops every timer and listener and aborts a
   * request in flight, without waiting on the network. assumed: no final flush; the queue is persisted.
   */
  dispose(): Promise<void> {
    this.#disposed ??= (async () => {
      for (const unsubscribe of this.#unsubscribe.splice(0)) unsubscribe();
      clearInterval(this.#flushTimer);
      if (this.#clock) this.#end('dispose');
      await this.#flusher.dispose();
      await this.#ready;
      await this.#settled();
      this.#releaseAlive();
      this.#events.removeAll();
    })();
    return this.#disposed;
  }

  /** Listens to an event: `session:start`, `session:end`, `flushed`, `dropped` or `error`. */
  on<K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>): this {
    this.#events.on(name, listener);
    return this;
  }

  /** Like {@link PlaytimeTracker.on}, for the next event only. */
  once<K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>): this {
    this.#events.on(name, listener, true);
    return this;
  }

  /** Removes a listener added with `on` or `once`. */
  off<K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>): this {
    this.#events.off(name, listener);
    return this;
  }

  async #init(): Promise<void> {
    await this.#loaded;
    await recoverCrashedSessions({
      platform: this.#platform,
      store: this.#running,
      owner: this.#instanceId,
      aliveLockName: (owner) => `${this.#options.storageKey}:alive:${owner}`,
      recover: (record) => this.#recover(record),
      onError: (error) => this.#error({ kind: 'storage', error }),
    });
    this.#requestFlush('startup');
  }

  #holdAliveLock(): void {
    const platform = this.#platform;
    if (!platform.lock) return;
    const alive = new Promise<void>((resolve) => (this.#releaseAlive = resolve));
    platform.lock(`${this.#options.storageKey}:alive:${this.#instanceId}`, () => alive).catch((error: unknown) => this.#error({ kind: 'storage', error }));
  }

  #listen(): void {
    const { lifecycle, network } = this.#platform;
    this.#unsubscribe.push(lifecycle.onBackground(() => this.#toBackground()));
    this.#unsubscribe.push(lifecycle.onForeground(() => this.#toForeground()));
    if (lifecycle.onUnload) this.#unsubscribe.push(lifecycle.onUnload(() => this.#toBackground()));
    if (network) this.#unsubscribe.push(network.onChange((online) => online && this.#requestFlush('network')));
    this.#flushTimer = setInterval(() => this.#requestFlush('interval'), this.#options.flushIntervalMs);
  }

  #toBackground(): void {
    this.#inBackground = true;
    clearInterval(this.#flushTimer);
    if (this.#clock) this.#pause(this.#clock, this.#platform.monotonic());
    this.#requestFlush('background');
  }

  #toForeground(): void {
    if (!this.#inBackground) return;
    this.#inBackground = false;
    clearInterval(this.#flushTimer);
    this.#flushTimer = setInterval(() => this.#requestFlush('interval'), this.#options.flushIntervalMs);
    const clock = this.#clock;
    if (!clock) return;
    const now = this.#platform.monotonic();
    if (clock.pausedFor(now) >= this.#options.backgroundTimeoutMs) return this.#end('background-timeout');
    clearTimeout(this.#backgroundTimer);
    clock.resume(now);
    this.#checkpointTimer = setInterval(() => this.#checkpoint(), this.#options.checkpointMs);
  }

  /** Stops the clock, checkpoints, and ends the session if the background outlasts the timeout. */
  #pause(clock: SessionClock, now: number): void {
    if (clock.paused) return;
    clock.pause(now);
    this.#stopCheckpoints();
    void this.#running.save(clock.record(this.#instanceId, now));
    clearTimeout(this.#backgroundTimer);
    this.#backgroundTimer = setTimeout(() => this.#clock === clock && this.#end('background-timeout'), this.#options.backgroundTimeoutMs);
  }

  #stopCheckpoints(): void {
    clearInterval(this.#checkpointTimer);
    clearTimeout(this.#firstCheckpointTimer);
  }

  #checkpoint(): void {
    if (this.#clock) void this.#running.save(this.#clock.record(this.#instanceId, this.#platform.monotonic()));
  }

  /** Ends the running session now (at its pause, when paused) and queues it in the background. */
  #end(reason: SessionEndReason): void {
    const clock = this.#clock!;
    this.#clock = undefined;
    this.#stopCheckpoints();
    clearTimeout(this.#backgroundTimer);
    const session = clock.finish(this.#platform.monotonic());
    this.#events.emit('session:end', { sessionId: session.sessionId, reason, session });
    this.#track(this.#finish(session));
  }

  async #recover(record: RunningRecord): Promise<void> {
    if (this.#disposed) return;
    if (this.#queue.has(record.sessionId)) return this.#running.remove(record.sessionId); // queued just before the crash
    const session = recoveredSession(record);
    this.#events.emit('session:end', { sessionId: session.sessionId, reason: 'recovered', session });
    const finished = this.#finish(session);
    this.#track(finished);
    await finished;
    this.#requestFlush('startup');
  }

  /** Queues a finished session, or drops it when it is under 1 s or breaks the spec's rules; then deletes its record. */
  async #finish(session: TrackedSession): Promise<void> {
    await this.#loaded;
    const { sessionId } = session;
    if (session.durationSeconds < 1) {
      this.#events.emit('dropped', { sessionId, reason: 'too-short', session, error: 'durationSeconds must be at least 1' });
    } else {
      const details = checkPlaytimeItem(session);
      if (details.length) {
        const error = details.map((detail) => `${detail.path} ${detail.message}`).join('; ');
        this.#events.emit('dropped', { sessionId, reason: 'invalid', session, error, details });
      } else {
        await this.#queue.enqueue(session);
        if (this.#queue.size >= this.#options.flushAt) this.#requestFlush('threshold');
      }
    }
    await this.#running.remove(sessionId);
  }

  #requestFlush(trigger: FlushTrigger): void {
    void this.#flusher.flush(trigger);
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#error({ kind: 'storage', error }));
    this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.delete(tracked));
  }

  async #settled(): Promise<void> {
    while (this.#pending.size) await Promise.all(this.#pending);
  }

  #error(event: TrackerErrorEvent): void {
    this.#events.emit('error', event);
  }
}
