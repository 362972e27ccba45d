/**
 * Where a tracker keeps its player's sessions: under `{storageKey}:player:{userId}:` (the userId URI-encoded,
 * so it never contains the `:` that ends it). One device may serve several players (a shared tablet, a family
 * console, a guest who then signs in): each player's queue and running records are sent only by a tracker of
 * that player, with that player's credentials. Another player's sessions wait for their own player and expire
 * after the relay's maximum session age.
 * @see DESIGN section 5; docs/guides/tracker.md ("One device, several players")
 */
import type { KeyValueStorage } from '../platform.js';
import { DEFAULT_MAX_SESSION_AGE_MS } from '../relay/plausibility.js';
import type { DroppedEvent, TrackedSession } from './events.js';
import { recoveredSession, type RunningRecord } from './session-clock.js';

/** What follows a player's prefix: the queue's keys, the running records' keys. */
export const QUEUE = 'queue:';
export const RUNNING = 'running:';

/** The prefix of every player's data. */
const playersPrefix = (storageKey: string) => `${storageKey}:player:`;

/** The prefix of every key and lock name of `userId`'s data. */
export function playerPrefix(storageKey: string, userId: string): string {
  return `${playersPrefix(storageKey)}${encodeURIComponent(userId)}:`;
}

/**
 * Moves what a tracker of SDK 0.1.0 stored in its one shared queue (`{storageKey}:queue:…`,
 * `{storageKey}:running:…`) under each session's own player, keeping each key's tail (queue order and
 * session id). Written before deleted: a run cut short in between leaves a copy, which the service's
 * de-duplication by sessionId makes harmless. assumed: an entry with no userId (not written by a tracker) is
 * left where it is.
 */
export async function migrateSharedQueue(storage: KeyValueStorage, storageKey: string): Promise<void> {
  for (const part of [QUEUE, RUNNING]) {
    const shared = `${storageKey}:${part}`;
    for (const key of await storage.keys(shared)) {
      const value = await storage.get<{ userId?: unknown }>(key);
      if (typeof value?.userId !== 'string') continue;
      await storage.set(playerPrefix(storageKey, value.userId) + part + key.slice(shared.length), value);
      await storage.delete(key);
    }
  }
}

/**
 * Deletes the sessions of players other than `ownPrefix`'s that are older than the relay's default maximum
 * age by the device's clock (the relay would refuse them), reporting each as `dropped` (reason `expired`):
 * queued ones oldest first, until one is young enough; running records of a crash while that player played.
 * assumed: the relay's default age (30 days); a relay configured otherwise still judges by its own. No lock:
 * that player's own tracker sending the same session meanwhile (another tab) costs at most a second report.
 */
export async function expireOtherPlayers(storage: KeyValueStorage, storageKey: string, ownPrefix: string, nowMs: number, dropped: (event: DroppedEvent) => void): Promise<void> {
  const players = playersPrefix(storageKey);
  /** Players whose queue reached a young session: the rest of their queue is younger still. */
  const young = new Set<string>();
  for (const key of (await storage.keys(players)).sort()) {
    const prefix = key.slice(0, key.indexOf(':', players.length) + 1);
    const part = key.slice(prefix.length);
    const queued = part.startsWith(QUEUE);
    if (prefix === ownPrefix || (queued ? young.has(prefix) : !part.startsWith(RUNNING))) continue;
    const value = await storage.get<TrackedSession & RunningRecord>(key);
    if (!value) continue;
    const session = queued ? value : recoveredSession({ ...value, sessionId: part.slice(RUNNING.length) });
    if (Date.parse(session.startedAt) < nowMs - DEFAULT_MAX_SESSION_AGE_MS) {
      await storage.delete(key);
      dropped({ sessionId: session.sessionId, reason: 'expired', session });
    } else if (queued) young.add(prefix);
  }
}
