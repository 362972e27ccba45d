/**
 * A tracker's start-up work on stored data other than its own player's queue: SDK 0.1.0's shared queue
 * migrated, crashed sessions recovered (after a page was left, the usual case on web portals), other players'
 * old sessions expired. It runs only when such data is stored; its code comes with the tracker's (a start-up
 * should not wait for a second download, DESIGN section 11).
 * @see ./tracker.ts, ./player-storage.ts, DESIGN section 5
 */
import type { KeyValueStorage, Platform } from '../platform.js';
import { DEFAULT_MAX_SESSION_AGE_MS } from '../relay/plausibility.js';
import type { DroppedEvent, TrackedSession } from './events.js';
import type { StorageLayout } from './player-storage.js';
import type { RunningStore } from './running-store.js';
import { recoveredSession, type RunningRecord } from './session-clock.js';
import { isUnreadable } from './unreadable.js';

/**
 * Moves what a tracker of SDK 0.1.0 stored in its one shared queue (`{storageKey}:queue:…`,
 * `{storageKey}:running:…`) under each session's own player, keeping each key's tail (queue order and
 * session id). Written before deleted: a run cut short in between leaves a copy, which the service's
 * de-duplication by sessionId makes harmless. assumed: an entry with no userId (not written by a tracker) is
 * left where it is.
 */
export async function migrateSharedQueue(storage: KeyValueStorage, layout: StorageLayout): Promise<void> {
  for (const part of [layout.queue, layout.running]) {
    const shared = layout.root + part;
    for (const key of await storage.keys(shared)) {
      const value = await storage.get<{ userId?: unknown }>(key);
      if (typeof value?.userId !== 'string') continue;
      await storage.set(layout.prefixOf(value.userId) + part + key.slice(shared.length), value);
      await storage.delete(key);
    }
  }
}

/**
 * Recovers every running record of this player (under `prefix`: its own prefix + `running:`) left by instances other than
 * `owner` (this tracker's instance id). `recover` ends one crashed session (queue or drop it, then delete its
 * record), inside the lock `alivePrefix + previousOwner`. Without `platform.lock` it resolves when they are
 * done; with it, each instance's records are recovered in the background once its lock is free (at once for a
 * crashed one), and it resolves after asking.
 * assumed: without `platform.lock` (a platform of the game's own), one tracker per store runs at a time, so every
 * record of another instance is a crashed one.
 */
export async function recoverCrashedSessions(
  platform: Platform,
  prefix: string,
  store: RunningStore,
  owner: string,
  alivePrefix: string,
  recover: (record: RunningRecord) => Promise<unknown>,
  onError: (error: unknown) => void,
): Promise<void> {
  const keys = (await platform.storage.keys(prefix).catch(onError)) ?? [];
  const byOwner = new Map<string, RunningRecord[]>();
  for (const record of await Promise.all(keys.map((key) => store.read(key.slice(prefix.length))))) {
    if (!record || record.owner === owner) continue;
    const previous = String(record.owner);
    byOwner.set(previous, [...(byOwner.get(previous) ?? []), record]);
  }
  const recoverAll = async (records: RunningRecord[]) => {
    for (const stale of records) {
      const record = await store.read(stale.sessionId); // its owner may have ended it while we waited
      if (record) await recover(record);
    }
  };
  const immediate: Promise<void>[] = [];
  // forEach, not a destructuring loop: Babel would add a helper call and a function per iteration.
  byOwner.forEach((records, previousOwner) => {
    if (platform.lock) platform.lock(alivePrefix + previousOwner, () => recoverAll(records)).catch(onError);
    else immediate.push(recoverAll(records));
  });
  await Promise.all(immediate);
}

/**
 * Deletes the sessions of players other than `layout.own`'s that are older than the relay's default maximum
 * age by the device's clock (the relay would refuse them), reporting each as `dropped` (reason `expired`):
 * queued ones oldest first, until one is young enough; running records of a crash while that player played
 * (made a session by `recoveredSession`, as the tracker ends a crashed one).
 * assumed: the relay's default age (30 days); a relay configured otherwise still judges by its own. No lock:
 * that player's own tracker sending the same session meanwhile (another tab) costs at most a second report.
 * A value that fails to read goes to `onError` and is passed over; one that no longer parses is also deleted
 * (./unreadable.ts), so it is reported once, not at every start-up of every player on the device. A session with no
 * `startedAt` to age it by (a damaged record: `startedAtMs` missing or no number) would wait for its player forever: it
 * is deleted and reported `invalid` at once, as its player's own start-up drops it (contract scenario
 * expiry-other-player-no-start.json). assumed: 1970-01-01T00:00:00.000Z exactly, also falsy, is reported `invalid`
 * too (deleted either way; no clock of a device that played is there).
 */
export async function expireOtherPlayers(
  storage: KeyValueStorage,
  layout: StorageLayout,
  nowMs: number,
  dropped: (event: DroppedEvent) => void,
  onError: (error: unknown) => void,
): Promise<void> {
  const { players, queue, running } = layout;
  /** Players whose queue reached a young session: the rest of their queue is younger still. */
  const young = new Set<string>();
  // Declared out of the loop: the `.catch` below closes over it, and a closure over a loop's own binding makes Babel
  // (React Native) wrap the whole loop body in a generator of its own (`yield*` at every key).
  let key: string;
  for (key of (await storage.keys(players)).sort()) {
    const prefix = key.slice(0, key.indexOf(':', players.length) + 1);
    const part = key.slice(prefix.length);
    const queued = part.startsWith(queue);
    if (prefix === layout.own || (queued ? young.has(prefix) : !part.startsWith(running))) continue;
    const value = await storage.get<TrackedSession & RunningRecord>(key).catch((error: unknown) => {
      onError(error);
      if (isUnreadable(error)) return storage.delete(key);
    });
    if (!value) continue;
    const session = queued ? value : recoveredSession({ ...value, sessionId: part.slice(running.length) });
    const startedAt = Date.parse(session.startedAt);
    if (!(startedAt >= nowMs - DEFAULT_MAX_SESSION_AGE_MS)) {
      await storage.delete(key);
      dropped({ sessionId: session.sessionId, reason: startedAt ? 'expired' : 'invalid', session });
    } else if (queued) young.add(prefix);
  }
}
