/**
 * Write-ahead records of running sessions, and their recovery after a crash.
 *
 * Each tracker instance holds the lock `{storageKey}:alive:{instanceId}` for as long as it lives (a crashed
 * tab's Web Locks are released by the browser). A new tracker that finds a running record of another
 * instance recovers it inside that instance's lock: at once when the instance is gone, only after it ended
 * when it still runs (another tab), by which time its owner has queued it and deleted the record.
 * assumed: without `platform.lock` (React Native, Cocos), one tracker per store runs at a time, so every
 * record of another instance is a crashed one.
 * @see DESIGN section 5
 */
import type { KeyValueStorage, Platform } from '../platform.js';
import type { RunningRecord } from './session-clock.js';

/** The running-session records under `{player prefix}running:`; writes are applied in the order they were asked for. */
export interface RunningStore {
  /** Writes (or overwrites) the record of a running session: at start, at each checkpoint, on going to the background. */
  save(record: RunningRecord): Promise<void>;
  /** Deletes the record once its session is queued or dropped. */
  remove(sessionId: string): Promise<void>;
  /** The record of one session, if still stored (the session id always taken from the key). */
  read(sessionId: string): Promise<RunningRecord | undefined>;
}

/** The {@link RunningStore} under `prefix`; a failed storage call goes to `onError` (a read then finds nothing). */
export function runningStore(storage: KeyValueStorage, prefix: string, onError: (error: unknown) => void): RunningStore {
  let writes = Promise.resolve();
  const write = (operation: () => Promise<void>) => (writes = writes.then(operation).catch(onError));
  return {
    save: (record) => write(() => storage.set(prefix + record.sessionId, record)),
    remove: (sessionId) => write(() => storage.delete(prefix + sessionId)),
    read: (sessionId) =>
      storage.get<RunningRecord>(prefix + sessionId).then(
        (record) => record && { ...record, sessionId },
        (error: unknown) => void onError(error),
      ),
  };
}

/**
 * Recovers every running record (under `prefix`, the player's `running:` keys) of instances other than `owner` (this
 * tracker's instance id). `recover` ends one crashed session (queue or drop it, then delete its record), inside
 * the lock `aliveLockName(previousOwner)`. Without `platform.lock` it resolves when they are done; with it, each
 * instance's records are recovered in the background once its lock is free (at once for a crashed one), and it
 * resolves after asking. Positional parameters: a bundler shortens them, not an options object's names.
 */
export async function recoverCrashedSessions(
  platform: Platform,
  storage: KeyValueStorage,
  store: RunningStore,
  prefix: string,
  owner: string,
  aliveLockName: (owner: string) => string,
  recover: (record: RunningRecord) => Promise<void>,
  onError: (error: unknown) => void,
): Promise<void> {
  let keys: string[] = [];
  try {
    keys = await storage.keys(prefix);
  } catch (error) {
    onError(error);
  }
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
  for (const [previousOwner, records] of byOwner) {
    if (platform.lock) platform.lock(aliveLockName(previousOwner), () => recoverAll(records)).catch(onError);
    else immediate.push(recoverAll(records));
  }
  await Promise.all(immediate);
}
