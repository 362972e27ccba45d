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

/** The running-session records under `{storageKey}:running:`; writes are applied in the order they were asked for. */
export class RunningStore {
  readonly #storage: KeyValueStorage;
  readonly #prefix: string;
  readonly #onError: (error: unknown) => void;
  #writes: Promise<void> = Promise.resolve();

  constructor(storage: KeyValueStorage, prefix: string, onError: (error: unknown) => void) {
    this.#storage = storage;
    this.#prefix = prefix;
    this.#onError = onError;
  }

  /** Writes (or overwrites) the record of a running session: at start, at each checkpoint, on going to the background. */
  save(record: RunningRecord): Promise<void> {
    return this.#write(() => this.#storage.set(this.#prefix + record.sessionId, record));
  }

  /** Deletes the record once its session is queued or dropped. */
  remove(sessionId: string): Promise<void> {
    return this.#write(() => this.#storage.delete(this.#prefix + sessionId));
  }

  /** The record of one session, if still stored. */
  async read(sessionId: string): Promise<RunningRecord | undefined> {
    try {
      const record = await this.#storage.get<RunningRecord>(this.#prefix + sessionId);
      return record && { ...record, sessionId };
    } catch (error) {
      this.#onError(error);
      return undefined;
    }
  }

  /** Every stored record (the session id always taken from the key). */
  async list(): Promise<RunningRecord[]> {
    let keys: string[];
    try {
      keys = await this.#storage.keys(this.#prefix);
    } catch (error) {
      this.#onError(error);
      return [];
    }
    const records = await Promise.all(keys.map((key) => this.read(key.slice(this.#prefix.length))));
    return records.filter((record): record is RunningRecord => record !== undefined);
  }

  #write(operation: () => Promise<void>): Promise<void> {
    this.#writes = this.#writes.then(operation).catch(this.#onError);
    return this.#writes;
  }
}

/** What {@link recoverCrashedSessions} needs from its tracker. */
export interface RecoveryContext {
  platform: Platform;
  store: RunningStore;
  /** This tracker's instance id: its own records are never recovered. */
  owner: string;
  aliveLockName(owner: string): string;
  /** Ends one crashed session (queue or drop it, then delete its record). Called inside the owner's lock. */
  recover(record: RunningRecord): Promise<void>;
  onError(error: unknown): void;
}

/**
 * Recovers every running record of other instances. Without `platform.lock` it resolves when they are done;
 * with it, each instance's records are recovered in the background once its lock is free (at once for a
 * crashed one), and it resolves after asking.
 */
export async function recoverCrashedSessions(context: RecoveryContext): Promise<void> {
  const { platform, store, owner } = context;
  const byOwner = new Map<string, RunningRecord[]>();
  for (const record of await store.list()) {
    if (record.owner === owner) continue;
    const list = byOwner.get(String(record.owner)) ?? [];
    list.push(record);
    byOwner.set(String(record.owner), list);
  }
  const recoverAll = async (records: RunningRecord[]) => {
    for (const stale of records) {
      const record = await store.read(stale.sessionId); // its owner may have ended it while we waited
      if (record) await context.recover(record);
    }
  };
  const immediate: Promise<void>[] = [];
  for (const [previousOwner, records] of byOwner) {
    if (platform.lock) platform.lock(context.aliveLockName(previousOwner), () => recoverAll(records)).catch(context.onError);
    else immediate.push(recoverAll(records));
  }
  await Promise.all(immediate);
}
