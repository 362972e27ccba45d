/**
 * Storage belongs to the game. Games share storage more often than one would think: itch.io serves every
 * uploaded HTML game from one host, portals and studios put several games on one origin, and there every game's
 * IndexedDB database, Web Storage keys and Web Locks are one namespace. So the facade's tracker keeps its data
 * and takes its locks under the game's own `storageKey`, `game-campaign.<CLIENT_KEY_ID>`, and what the release
 * before stored under the shared `game-campaign` is moved into it once, on first start.
 * assumed: the Client key's id (the part before `:`, spec "Authentication" rule 2) is the game's identity: it
 * ships in the game, is stable across its releases, and differs between games and between Sandbox and Live.
 * @see DESIGN section 5; docs/decisions.md "Storage belongs to the game"
 */
import { apiEndpoint } from '../http/environment.js';
import type { KeyValueStorage, Platform } from '../platform.js';
import { TRACKER_DEFAULTS } from './options.js';
import { isUnreadable } from './unreadable.js';

/** The namespace every game shared before (the tracker's default `storageKey`, the browser's database name). */
export const SHARED_NAMESPACE = TRACKER_DEFAULTS.storageKey;

const SHARED_ROOT = `${SHARED_NAMESPACE}:`;

/** Where the release before stored, and the lock that keeps two games (or tabs) from moving it at once. */
export interface SharedNamespaceStore {
  storage: KeyValueStorage;
  lock?: Platform['lock'];
}

/**
 * The game's own namespace: `game-campaign.<CLIENT_KEY_ID>`. It never begins with `game-campaign:`, so no
 * listing of the shared namespace finds a game's keys.
 * @throws TypeError for a malformed Client key
 */
export function gameStorageKey(clientKey: string): string {
  apiEndpoint(clientKey, 'Client');
  return `${SHARED_NAMESPACE}.${clientKey.slice(0, clientKey.indexOf(':'))}`;
}

/**
 * `platform.storage` for the game whose namespace is `storageKey`: every call waits until what the release before
 * stored in `shared()` (without `shared`: in the platform's own storage, under its lock when it has one) has been moved
 * in (once per game: a `{storageKey}.moved` key records it; `shared()` resolves to nothing when there is nothing to
 * look at; a full disk that cannot record that nothing was there is no failure). When the move fails (the old database cannot be read) the first read rejects with why, so the tracker
 * reports it once as an `error` (kind `storage`), and the move is tried again on the next start; nothing is lost
 * meanwhile. When its lock cannot be taken at all, the move is simply tried again on the next start (the tracker's
 * own lock reports that as kind `lock`).
 */
export function movedStorage(platform: SharedNamespaceStore, storageKey: string, shared?: () => Promise<SharedNamespaceStore | undefined>): KeyValueStorage {
  const { storage } = platform;
  const movedKey = `${storageKey}.moved`;
  let failure: unknown;
  let moving: Promise<void> | undefined;
  const move = async () => {
    try {
      if (await wasMoved(storage, movedKey)) return;
      const from = shared ? await shared() : platform;
      if (from && (await from.storage.keys(SHARED_ROOT)).length) {
        let started = false;
        const run = () => ((started = true), moveSharedNamespace(from.storage, storage, storageKey, movedKey));
        // A lock that cannot be taken at all (the `<script>` bundle's lease-lock sibling not served, on a page without
        // Web Locks) is not the storage's failure: the move waits for a start that can take it, the shared data stays
        // where it is, and the tracker's own lock reports why (`error` kind `lock`, naming the file).
        await (from.lock ? from.lock(`${SHARED_NAMESPACE}:move`, run) : run()).catch((error: unknown) => {
          if (started) throw error;
        });
      } else await storage.set(movedKey, true).catch(() => {}); // nothing to move: unrecorded, the next start looks again
    } catch (error) {
      failure = error;
    }
  };
  // `.then`, not async functions: an app's Babel lowers each of those to a generator in a wrapper (the Metro row).
  const ready = (read?: boolean) =>
    (moving ??= move()).then(() => {
      const error = failure;
      if (read) failure = undefined;
      if (read && error) throw error;
    });
  return {
    get: <T>(key: string) => ready(true).then(() => storage.get<T>(key)),
    set: (key, value) => ready().then(() => storage.set(key, value)),
    delete: (key) => ready().then(() => storage.delete(key)),
    keys: (prefix) => ready(true).then(() => storage.keys(prefix)),
  };
}

/**
 * Whether the move is recorded. The marker is written last, so one that is there but no longer parses (a write
 * cut short on a text store) still says the move was done: it is written again, not met at every start-up.
 */
async function wasMoved(storage: KeyValueStorage, movedKey: string): Promise<boolean> {
  try {
    return !!(await storage.get(movedKey));
  } catch (error) {
    if (!isUnreadable(error)) throw error;
    await storage.set(movedKey, true).catch(() => {}); // a full disk: still moved, written again at the next start
    return true;
  }
}

/**
 * Moves what the release before stored under the shared namespace (`game-campaign:`) into this game's
 * `storageKey` in `to`, keeping each key's tail (player, queue order, session id), then records `movedKey` in `to`:
 * the game moves it once. Each key is written before it is deleted, and `movedKey` is written last, so a run cut
 * short at any point leaves every session in `from` or `to` (or both, under the same key and sessionId) and the next
 * start finishes the move before the tracker reads: nothing is lost, and nothing is sent again as another session.
 * Only the tracker's keys move (`player:`, and 0.1.0's `queue:` and `running:`, which the tracker's housekeeping then
 * spreads per player). Run under a lock every game takes.
 */
async function moveSharedNamespace(from: KeyValueStorage, to: KeyValueStorage, storageKey: string, movedKey: string): Promise<void> {
  if (await wasMoved(to, movedKey)) return; // another tab of this game moved it while this one waited for the lock
  for (const key of await from.keys(SHARED_ROOT)) {
    const tail = key.slice(SHARED_ROOT.length);
    if (!/^(player|queue|running):/.test(tail)) continue;
    const value = await from.get(key);
    if (value !== undefined) await to.set(`${storageKey}:${tail}`, value);
    await from.delete(key);
  }
  await to.set(movedKey, true);
}
