/**
 * The offline playtime tracker: a game records play sessions on the device, offline or not, and they reach
 * the service exactly once through the game server's relay.
 * @see DESIGN section 5
 */
import { summarize } from '../http/request-validation.js';
import { checkPlaytimeItem } from '../schema/playtime-rules.js';
import { clockWatch } from './clock-watch.js';
import { trackerEvents, type DropReason, type DroppedEvent, type SessionEndReason, type SessionStartEvent, type TrackedSession, type TrackerErrorEvent, type TrackerEventMap, type TrackerListener } from './events.js';
import { expireOtherPlayers, migrateSharedQueue, recoverCrashedSessions } from './housekeeping.js';
import { createFlusher, type FlushTrigger } from './flusher.js';
import { withLock } from './flush-tools.js';
import { checkStartOptions, definedOnly, resolveTrackerOptions, type PlaytimeTrackerOptions, type ResolvedTrackerOptions, type StartSessionOptions } from './options.js';
import type { StartPageExit } from './page-exit.js';
import { storageLayout } from './player-storage.js';
import { sessionQueue } from './queue.js';
import { runningStore } from './running-store.js';
import { isoMillis, MIN_SESSION_MS, recoveredSession, sessionClock, type RunningRecord, type SessionClock, type SessionFields } from './session-clock.js';
import { sessionIds } from './session-id.js';
import { isUnreadable } from './unreadable.js';
import { unref } from '../unref.js';

/**
 * Records play sessions and delivers them through the relay. Durations come from the monotonic clock;
 * the running session is written ahead and checkpointed; finished sessions wait in a persisted queue that
 * is flushed on a timer, at `flushAt`, on going to the background, when the network returns and at start-up.
 * Every session ends up either acknowledged (`flushed`) or reported (`dropped`). Each player's sessions are
 * stored apart and sent only by that player's tracker; the player may switch recording off (`setOptOut`)
 * and erase what is stored (`deleteStoredData`).
 *
 * assumed: `start()` while a session runs ends that one first (reason `restart`). A session ended by a long
 * background (`session:end` says `background-timeout`; a background of exactly `backgroundTimeoutMs` counts as
 * longer) is continued when the game comes back: a new session (`session:start` with `continues`), unless the
 * game stopped, erased or opted out meanwhile. `onUnload` is
 * treated as going to the background (checkpoint and keepalive flush); the session is recovered at the next
 * start-up if the page really went away. Where going to the background may be the last event
 * (`Lifecycle.pageExit`, a web page), the session ends there (`hidden`) and is sent at once,
 * and comes back as a new session (`session:start` with `continues`) when the page is shown again, after any
 * time hidden; a session under the 1 s minimum is paused instead, to continue as itself. A bad
 * argument to `start()` throws a `ValidationError` (a programming error), while a finished session that breaks
 * the rules is dropped (`invalid`).
 * @example
 * ```ts
 * const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: 'https://game.example/campaign' } });
 * tracker.on('dropped', ({ sessionId, reason }) => console.warn(sessionId, reason));
 * const sessionId = tracker.start({ campaignId: 'spring-event', creatorKey: 'ABCDE' });
 * await tracker.stop();
 * ```
 *
 * Its members are functions set on each instance (closures over that tracker's state), not prototype methods: a
 * subclass cannot override them (TypeScript refuses a method in their place); wrap a tracker rather than extend it.
 * @see DESIGN section 5
 * @sealed
 */
export class PlaytimeTracker {
  /** @throws ValidationError for a bad userId, relay url, default campaignId/creatorKey or timing option */
  constructor(options: PlaytimeTrackerOptions) {
    // The members below are one run's closures, set on the instance: no method forwarding to them in a game's bundle.
    Object.assign(this, runTracker(resolveTrackerOptions(options), this));
  }

  /**
   * Starts a session and returns its id (a UUIDv4). Ends the running session first, if any.
   * @throws ValidationError for a bad `creatorKey`, `campaignId` or `metadata`
   * @throws Error after `dispose()`
   */
  declare readonly start: (options?: StartSessionOptions) => string;

  /**
   * Switches recording and sending off (`true`) or back on (`false`) for this player, on this device, from now
   * and after restarts. Switching off ends the running session without recording it (`dropped`, reason
   * `opted-out`); sessions already queued stay on the device unsent until switched back on (or erased with
   * {@link PlaytimeTracker.deleteStoredData}). Resolves once the choice is stored.
   * @throws the storage's error when the choice could not be stored (it holds for this run regardless)
   */
  declare readonly setOptOut: (optOut: boolean) => Promise<void>;

  /**
   * Deletes every session this player has stored on this device: the running session and the queue (each
   * reported as `dropped`, reason `erased`). The opt-out choice is kept. Other players' data is untouched.
   */
  declare readonly deleteStoredData: () => Promise<void>;

  /** Ends the running session and queues it (or drops it, with `dropped`); resolves once that is stored. No session: no-op. */
  declare readonly stop: () => Promise<void>;

  /** Sends every queued session now (joins a flush in progress). Resolves when done; outcomes arrive as events. */
  declare readonly flush: () => Promise<void>;

  /**
   * Ends the running session (queued for the next start-up), stops every timer and listener and aborts a flush's
   * request in flight, without waiting on the network. assumed: no final flush; the queue is persisted. On a web
   * page (`Lifecycle.pageExit`) a dispose may be the page's end (in `beforeunload`, before a Quit button navigates
   * away, a single-page app unmounting the game), and the page's own exit then never comes: the session it ends and
   * those held in memory go out as that exit sends them (that session alone, then the rest), in keepalive requests
   * before it returns. No dispose aborts such an exit request, this one or the page's own.
   */
  declare readonly dispose: () => Promise<void>;

  /** Listens to an event: `session:start`, `session:end`, `flushed`, `dropped` or `error`. */
  declare readonly on: <K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>) => this;

  /** Like {@link PlaytimeTracker.on}, for the next event only. */
  declare readonly once: <K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>) => this;

  /** Removes a listener added with `on` or `once`. */
  declare readonly off: <K extends keyof TrackerEventMap>(name: K, listener: TrackerListener<K>) => this;
}

/**
 * One tracker's state and behaviour. Closures over local variables rather than private fields: a bundler
 * shortens local names but keeps `this.` before every field, so closures are the smaller bundle.
 */
function runTracker(config: ResolvedTrackerOptions, self: PlaytimeTracker): PlaytimeTracker {
  const { platform, storageKey, checkpointMs } = config;
  const events = trackerEvents();
  const error = (kind: TrackerErrorEvent['kind'], cause: unknown) => events.emit('error', { kind, error: cause });
  /** Storage failing since a session was last stored: reported once, not at every checkpoint (a full device). */
  let storageFailing = false;
  const storageError = (cause: unknown) => {
    if (!storageFailing) error('storage', cause);
    storageFailing = true;
  };
  const { storage, lifecycle } = platform;
  const monotonic = () => platform.monotonic();
  const watch = clockWatch(platform);
  const clockMoved = watch.moved;
  const emitDropped = (event: DroppedEvent) => events.emit('dropped', event);
  const nextId = sessionIds(platform, (cause) => error('crypto', cause));
  const instanceId = nextId();
  /** What the lock an instance holds while it lives is named: this, then its instance id. */
  const alivePrefix = `${storageKey}:alive:`;
  let releaseAlive = () => {};
  /**
   * Resolves once this instance holds its alive lock (or its request failed): running records are written only then,
   * or another tab would recover a live session as a crashed one. A prerendered page (speculation rules) gets no Web
   * Lock until it is shown (Chromium defers `navigator.locks.request` there): its session was reported `dropped` by
   * another tab and recorded by this one.
   */
  const holdsAlive =
    platform.lock &&
    new Promise((held) => {
      const alive = new Promise<void>((resolve) => (releaseAlive = resolve));
      platform.lock!(alivePrefix + instanceId, () => (held(0), alive))
        .catch((cause: unknown) => error('lock', cause))
        .then(held);
    });
  const layout = storageLayout(storageKey, config.userId);
  const prefix = layout.own;
  const queuePrefix = prefix + layout.queue;
  const optOutKey = `${prefix}opt-out`;
  /** The player's choice; the option's default until the stored choice is loaded. */
  let optedOut = config.optOut ?? false;
  /**
   * The write of this tracker's last own switch (`setOptOut`). One storage refused stays rejected: the switch holds for
   * the run, and no stored choice (the one before it) is taken after it.
   */
  let switchStored: Promise<unknown> = Promise.resolve();
  const runningPrefix = prefix + layout.running;
  const running = runningStore(storage, runningPrefix, storageError, holdsAlive);
  /**
   * Where going to the background may be the page's last event: the session ends there and is sent at once. The
   * platform supplies that code (./page-exit.ts), so that hosts without it do not carry it.
   */
  const exit = (lifecycle.pageExit as StartPageExit | undefined)?.(platform, config, instanceId, running, clockMoved);
  // A session held in memory only (its write failed) keeps its running record until it leaves the queue.
  const queue = sessionQueue(storage, queuePrefix, config.maxQueue, emitDropped, storageError, clockMoved, running.remove, exit);
  /**
   * Until start-up has looked for crashed sessions, nothing is sent: a session queued just before a crash (its
   * running record not yet deleted) must still be in the queue when recovery asks, or it would be recovered
   * and end a second time.
   */
  let starting = true;
  const flushLock = (task: () => Promise<void>) => withLock(platform, `${prefix}flush`, task);
  // Each flush reads the player's choice first: another tab may have switched it. `@__NOINLINE__`: terser (the IIFE)
  // otherwise pastes createFlusher into this function, whose many names then mangle it longer (15 B gzip, p36).
  const flusher = /* @__NOINLINE__ */ createFlusher(platform, queue, exit?.relay ?? config.relay, config.isTest, exit?.keepalive, (task) => flushLock(() => syncChoice().then(task)), events, clockMoved, () => !starting && !optedOut);
  /** Finishing sessions (enqueue or drop, then delete the record): `stop()`, `flush()` and `dispose()` wait for them. */
  const pending = new Set<Promise<void>>();
  const unsubscribe: Array<() => void> = [];
  let clock: SessionClock | undefined;
  let inBackground = false;
  let checkpointTimer: ReturnType<typeof setInterval> | undefined;
  let firstCheckpointTimer: ReturnType<typeof setTimeout> | undefined;
  let backgroundTimer: ReturnType<typeof setTimeout> | undefined;
  /**
   * The record of the session that going to the background ended (`hidden`: a page's exit; `background-timeout`), and
   * the part second it carries, continued as `begin(...continuation)` when the game comes back: the player is playing again, as an analytics session time-out
   * starts the next session at the next activity. A hidden page's part second is carried (it splits often); the
   * time-out's is not. The game's own `start()`, `stop()`, `deleteStoredData()`, `dispose()` and the opt-out let it go.
   */
  let continuation: [like: RunningRecord, carriedMs: number] | undefined;
  let flushTimer: ReturnType<typeof setInterval> | undefined;
  let disposed: Promise<void> | undefined;
  /** Start-up has loaded the queue and the player's choice: a session ending now is queued synchronously. */
  let isLoaded = false;

  // Opted out, nothing is sent: the stored choice is read instead, which another tab may have switched back on.
  const requestFlush = (trigger: FlushTrigger) => void (disposed || (optedOut ? syncChoice() : flusher.flush(trigger)));
  const flushEvery = () => {
    clearInterval(flushTimer);
    flushTimer = unref(setInterval(() => requestFlush('interval'), config.flushIntervalMs));
  };
  // Each checkpoint also asks for the relay headers the page exit would send (./page-exit.ts `warmHeaders`), and writes
  // again a session held in memory (its write failed): storage with room again keeps it past a crash in the foreground.
  const checkpoint = () => void (clock && (exit?.warmHeaders(), running.save(clock.record(instanceId, monotonic())), queue.persistHeld()));
  /** When the checkpoint interval last ran (monotonic), on a page: see `checkpointEvery`. */
  let lastTick = 0;
  /**
   * Checkpoints every `checkpointMs` in the foreground. On a page (`exit`) each tick also checks that the page ran
   * since the last: a device asleep with the game in front (a laptop's lid closed on a visible tab) announces no
   * background, and Windows' clocks count the sleep (Chromium and Firefox there: w3c/hr-time#115), so hours
   * asleep were play. assumed: a tick more than two intervals after the last means the page did not run since the
   * last; that span is background time (play from the last tick on is lost, at most one interval, as in a crash),
   * and one of `backgroundTimeoutMs` or more ends the session there (`background-timeout`), continued at once.
   * Also once more as the session's play reaches the 1 s minimum when it has not yet (`playedMs`): a crash then still
   * leaves a session, also when it started in the background or went there in its first second.
   */
  const checkpointEvery = (playedMs: number) => {
    lastTick = monotonic();
    checkpointTimer = setInterval(() => {
      const now = monotonic();
      const asleep = clock && exit && now - lastTick > 2 * checkpointMs ? clock : undefined;
      if (asleep) {
        asleep.pause(lastTick);
        if (now - lastTick < config.backgroundTimeoutMs) asleep.resume(now);
        else {
          end('background-timeout');
          begin(...continuation!);
          continuation = undefined;
        }
      }
      lastTick = now;
      checkpoint();
      void syncChoice();
    }, checkpointMs);
    if (playedMs < MIN_SESSION_MS) firstCheckpointTimer = setTimeout(checkpoint, Math.min(MIN_SESSION_MS - playedMs, checkpointMs));
  };
  const stopTimers = () => {
    clearInterval(checkpointTimer);
    clearTimeout(firstCheckpointTimer);
    clearTimeout(backgroundTimer);
  };

  /** Stops the clock, checkpoints, and ends the session if the background outlasts the timeout. */
  const pause = (paused: SessionClock, now: number) => {
    if (!paused.pause(now)) return;
    stopTimers();
    void running.save(paused.record(instanceId, now));
    backgroundTimer = setTimeout(() => clock === paused && end('background-timeout'), config.backgroundTimeoutMs);
  };

  const toBackground = () => {
    inBackground = true;
    watch.background(true);
    clearInterval(flushTimer);
    const now = monotonic();
    if (clock) {
      if (exit?.leaves(clock, now)) end('hidden');
      else pause(clock, now);
    }
    // The exit goes out now, from memory; the flush sends the rest of the queue after it, as keepalive too.
    exit?.send(queue, flusher, !starting && !optedOut);
    requestFlush('background');
    // The app may be killed out here: a session held in memory (its write failed) is written if storage takes it now.
    track(queue.persistHeld());
  };

  const toForeground = () => {
    if (!inBackground) return;
    inBackground = false;
    watch.background(false);
    flushEvery();
    void syncChoice();
    const now = monotonic();
    if (clock && clock.pausedFor(now) >= config.backgroundTimeoutMs) end('background-timeout');
    const resumed = continuation;
    continuation = undefined;
    if (resumed && !clock && !optedOut) return void begin(...resumed);
    if (!clock) return;
    clearTimeout(backgroundTimer);
    clock.resume(now);
    checkpointEvery(clock.record(instanceId, now).playedMs);
  };

  /**
   * Ends the running session now (at its pause, when paused) and queues it in the background, or drops it
   * as `discard` (the player opted out or erased their data).
   */
  const end = (reason: SessionEndReason, discard?: DropReason) => {
    const record = clock!.record(instanceId, monotonic());
    clock = undefined;
    continuation = reason === 'hidden' ? [record, record.playedMs % 1000] : reason === 'background-timeout' ? [record, 0] : undefined;
    stopTimers();
    endRecord(record, reason, discard);
  };

  /** Tells `session:end` of `record`'s session (a live one's, or a crashed run's), then finishes it (tracked). */
  const endRecord = (record: RunningRecord, reason: SessionEndReason, discard?: DropReason) => {
    const session = recoveredSession(record);
    events.emit('session:end', { sessionId: session.sessionId, reason, session });
    const finished = finish(session, record, discard);
    track(finished);
    return finished;
  };

  /** The game's own call (or dispose) ends the running session, if any; a session the background ended is not continued. */
  const endByCall = (reason: SessionEndReason, discard?: DropReason) => {
    if (clock) end(reason, discard);
    continuation = undefined;
  };

  /**
   * Reads the player's choice again: another tab or window of the game on this device (one storage) may have switched
   * it. Switched off there, the running session is dropped (`opted-out`) and nothing more is sent; switched on, this
   * tracker records again. Read at each flush (before anything is sent), each checkpoint and when the game comes
   * back; while opted out, at each trigger of a flush instead of the flush (a choice switched back on then flushes).
   * A choice read while this tracker stores its own switch is not taken (it may be the one before).
   * assumed: a tab meets another's switch within a checkpoint interval; one closed sooner sends the session it ran.
   */
  const syncChoice = async () => {
    // Storage failing (a full disk, a native module that never answers): nothing to read, and a read would hold the flush.
    if (storageFailing) return;
    const seen = switchStored;
    const choice = await seen.then(() => storage.get(optOutKey)).catch(() => undefined);
    if (seen === switchStored && typeof choice === 'boolean' && choice !== optedOut) {
      optedOut = choice;
      if (choice) endByCall('stop', 'opted-out');
      else requestFlush('manual');
    }
  };

  /**
   * Queues a finished session, or drops it when it is under 1 s, breaks the spec's rules or the player opted
   * out; then deletes its record. When the queue write fails, the record (as the session ended) is kept
   * instead, until the session leaves the queue: a restart then recovers what this run could not send.
   * A recovered record's drop (a crashed run's: another owner) is reported only once its delete succeeded.
   */
  const finish = async (session: TrackedSession, record: RunningRecord, discard?: DropReason) => {
    // Not `await loaded` once it is: the session must be queued (held in memory) before `end()` returns.
    if (!isLoaded) await loaded;
    const { sessionId } = session;
    const details = checkPlaytimeItem(session);
    // Under 1 s breaks the `durationSeconds` rule too; it has a reason of its own, as the commonest case.
    const drop: DroppedEvent | 0 =
      discard || optedOut
        ? { sessionId, reason: discard ?? 'opted-out', session }
        : details.length && { sessionId, reason: session.durationSeconds < 1 ? 'too-short' : 'invalid', session, error: summarize(details), details };
    if (drop) record.owner != instanceId || emitDropped(drop);
    else {
      const stored = await queue.enqueue(session);
      if (queue.size() >= config.flushAt) requestFlush('threshold');
      if (!stored) return void (queue.has(sessionId) && running.save(record));
      storageFailing = false;
    }
    // A recovered record (another owner's) that its delete cannot remove was kept only because a delete failed: the run
    // that dropped it reported it (storage that stays read-only: once; writable again: a second time, by this start-up).
    if ((await running.remove(sessionId)) && drop && record.owner != instanceId) {
      await expired;
      emitDropped(drop);
    }
  };

  /**
   * Other players' expired sessions dropped, at a start-up with other data stored (`tidy`). A recovered session's drop
   * is told after it, so a start-up's `dropped` events come in one order, as C#'s (docs/decisions.md "Start-up drops:
   * expired, then recovered"). Only that event waits: the recovery itself and the start-up's flush go on as before (a
   * wait there held the start-up behind storage that hangs, and the recovery of a portal's removed game behind the scan).
   */
  let expired: Promise<void> | undefined;

  /**
   * Ends a crashed run's session, unless it is queued: just before the crash, or by another window of this player
   * (one closed before its record's delete landed), which this start-up's index may not show yet, hence the sync.
   */
  const recover = async (record: RunningRecord) => {
    await queue.sync();
    if (queue.has(record.sessionId)) return running.remove(record.sessionId);
    // The player whose storage holds it, as its key names the session: a record edited to name another player was sent
    // as theirs, refused by the relay (another player's) with an `auth` error at every retry.
    record.userId = config.userId;
    if (!disposed) await endRecord(record, 'recovered');
    requestFlush('startup');
  };

  /** Keeps `work` among what `settled` waits for; returns it with its error reported (never rejecting). */
  const track = (work: Promise<void>) => {
    const tracked = work.catch(storageError);
    pending.add(tracked);
    void tracked.finally(() => pending.delete(tracked));
    return tracked;
  };

  const settled = async () => {
    while (pending.size) await Promise.all(Array.from(pending)); // an array: Hermes 0.12's Promise.all reads a Set as empty
  };

  unsubscribe.push(lifecycle.onBackground(toBackground), lifecycle.onForeground(toForeground));
  if (lifecycle.onUnload) unsubscribe.push(lifecycle.onUnload(toBackground));
  if (platform.network) unsubscribe.push(platform.network.onChange((online) => online && requestFlush('network')));
  flushEvery();
  // A page loaded in a background tab is not being played: a session it starts waits, paused, until it is shown.
  if (lifecycle.isInBackground?.()) toBackground();
  /**
   * Whether something other than this player's queue and choice is stored (0.1.0's shared queue, a running
   * record, another player's data): only then does start-up run the housekeeping (./housekeeping.ts).
   */
  let tidy = false;
  /** Storage of an earlier release migrated, the queue index and the player's choice loaded: sessions may be queued. */
  const loaded = (async () => {
    // Keys not listed (a call refused at launch): the housekeeping runs, or a crashed session waits for another start.
    const keys = await storage.keys(layout.root).catch(storageError);
    tidy = !keys || keys.some((key) => !key.startsWith(queuePrefix) && key !== optOutKey);
    if (tidy) await migrateSharedQueue(storage, layout).catch(storageError);
    await queue.sync();
    // A choice that no longer parses is set aside (./unreadable.ts): reported once, not at every start-up; the option decides.
    // Read twice before it is given up: a choice not read leaves the option's default, and the queue of a player who
    // switched off would be sent (one call refused or timed out on a phone busy at launch). assumed: one retry.
    const choice = await storage.get(optOutKey).catch(() => storage.get(optOutKey)).catch((cause: unknown) => {
      storageError(cause);
      if (isUnreadable(cause)) return storage.delete(optOutKey).catch(storageError);
    });
    if (typeof choice === 'boolean') optedOut = choice;
    isLoaded = true;
  })();
  /** Start-up is done: queue loaded, crashed sessions recovered (or their recovery requested). */
  const ready = (async () => {
    await loaded;
    if (tidy) expired = track(expireOtherPlayers(storage, layout, platform.now(), emitDropped, storageError));
    try {
      if (tidy) await recoverCrashedSessions(platform, runningPrefix, running, instanceId, alivePrefix, recover, storageError);
    } finally {
      starting = false;
    }
    requestFlush('startup');
  })();

  /**
   * Starts a session with `like`'s campaign, creator and metadata under a new id: the game's `start()` (`like` has no
   * sessionId), or the continuation of the session `like` is the record of, which going to the background ended
   * (`carriedMs`: what it played beyond its whole seconds).
   */
  const begin = (like: Omit<SessionFields, 'sessionId' | 'userId'> & { sessionId?: string }, carriedMs = 0): string => {
    const { campaignId, creatorKey } = like;
    const continues = like.sessionId;
    const sessionId = nextId();
    const fields = definedOnly({ sessionId, userId: config.userId, campaignId, creatorKey, metadata: like.metadata }) as SessionFields;
    const now = monotonic();
    const startedAtMs = platform.now();
    const started = sessionClock(fields, startedAtMs, now, clockMoved, carriedMs);
    clock = started;
    exit?.warmHeaders();
    if (inBackground) pause(started, now);
    else checkpointEvery(carriedMs);
    void running.save(started.record(instanceId, now));
    events.emit('session:start', definedOnly({ sessionId, startedAt: isoMillis(startedAtMs), continues, campaignId, creatorKey }) as SessionStartEvent);
    return sessionId;
  };

  return {
    start(options = {}) {
      if (disposed) throw new Error('PlaytimeTracker: start() after dispose()');
      const checked = checkStartOptions(options);
      endByCall('restart');
      if (optedOut) return '';
      return begin({ campaignId: checked.campaignId ?? config.campaignId, creatorKey: checked.creatorKey ?? config.creatorKey, metadata: checked.metadata });
    },

    async stop() {
      endByCall('stop');
      await settled();
    },

    async setOptOut(optOut) {
      optedOut = optOut;
      if (optOut) endByCall('stop', 'opted-out'); // a session the background ended is not continued either
      await (switchStored = settled().then(() => storage.set(optOutKey, optOut)));
      if (!optOut) requestFlush('manual');
    },

    async deleteStoredData() {
      endByCall('stop', 'erased');
      await ready;
      await settled();
      await flushLock(async () => {
        await queue.sync();
        await queue.erase();
        for (const key of await storage.keys(runningPrefix)) await storage.delete(key);
      });
    },

    async flush() {
      await ready;
      await settled();
      if (!disposed) await flusher.flush('manual');
    },

    dispose() {
      return (disposed ??= (async () => {
        for (const stopListening of unsubscribe.splice(0)) stopListening();
        clearInterval(flushTimer);
        endByCall('dispose');
        // On a page this may be its end, and its listeners are gone: the page's exit goes out now.
        exit?.send(queue, flusher, !starting && !optedOut);
        await flusher.dispose();
        await ready;
        await settled();
        await queue.persistHeld(); // a session held in memory outlives this run if storage takes it now (never rejects)
        releaseAlive();
        events.clear();
      })());
    },

    on: (name, listener) => (events.on(name, listener), self),
    once: (name, listener) => (events.on(name, listener, true), self),
    off: (name, listener) => (events.off(name, listener), self),
  };
}
