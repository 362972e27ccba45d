/**
 * Write-ahead records of running sessions, and their recovery after a crash.
 *
 * Each tracker instance holds the lock `{storageKey}:alive:{instanceId}` for as long as it lives (a crashed
 * tab's Web Locks are released by the browser). A new tracker that finds a running record of another
 * instance recovers it inside that instance's lock: at once when the instance is gone, only after it ended
 * when it still runs (another tab), by which time its owner has queued it and deleted the record
 * (`recoverCrashedSessions` in ./housekeeping.ts).
 * @see DESIGN section 5
 */
import type { KeyValueStorage } from '../platform.js';
import type { RunningRecord } from './session-clock.js';
import { isUnreadable } from './unreadable.js';

/** The running-session records under `{player prefix}running:`; writes are applied in the order they were asked for. */
export interface RunningStore {
  /** Writes (or overwrites) the record of a running session: at start, at each checkpoint, on going to the background. */
  save(record: RunningRecord): Promise<void>;
  /** Deletes the record once its session is queued or dropped: `1` once deleted, `undefined` when the delete failed. */
  remove(sessionId: string): Promise<1 | void>;
  /**
   * The record of one session, if still stored (the session id always taken from the key). A record that no
   * longer parses is reported and set aside (./unreadable.ts): no later start-up meets it again. A value that parses
   * but is no record (null, a number, a string, an array) has none of its fields: its session breaks the spec's rules
   * and is dropped (`invalid`) once its key is deleted (contract scenarios kill-recovered-not-an-object.json,
   * kill-recovered-null-or-falsy.json).
   */
  read(sessionId: string): Promise<RunningRecord | undefined>;
}

/**
 * The {@link RunningStore} under `prefix`; a failed storage call goes to `onError` (a read then finds nothing). Writes
 * start once `held` resolves: the tracker's alive lock is held (./tracker.ts).
 */
export function runningStore(storage: KeyValueStorage, prefix: string, onError: (error: unknown) => void, held?: Promise<unknown>): RunningStore {
  let writes = Promise.resolve(held) as Promise<unknown>;
  const write = <T>(operation: () => Promise<T>) => (writes = writes.then(operation).catch(onError));
  const remove = (sessionId: string) => write(() => storage.delete(prefix + sessionId).then(() => 1 as const));
  return {
    save: (record) => write(() => storage.set(prefix + record.sessionId, record)),
    remove,
    read: (sessionId) =>
      storage.get<RunningRecord>(prefix + sessionId).then(
        // Any value stored (null, 0, "" and false too: no record, dropped as invalid by its recovery), undefined when none.
        (record) => (record === undefined ? record : { ...record, sessionId }),
        (error: unknown) => {
          onError(error);
          if (isUnreadable(error)) void remove(sessionId);
          return undefined;
        },
      ),
  };
}
