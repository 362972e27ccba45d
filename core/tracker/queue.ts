/**
 * The persisted queue of finished sessions: one storage key per session and an in-memory index of the keys,
 * so enqueueing is one write whatever the queue length, and the whole queue is never rewritten.
 * @see DESIGN section 5
 */
import type { KeyValueStorage } from '../platform.js';
import type { DroppedEvent, TrackedSession } from './events.js';

/** What the queue reports; the tracker turns these into events. */
export interface QueueReporter {
  dropped(event: DroppedEvent): void;
  storageError(error: unknown): void;
}

interface Entry {
  sessionId: string;
  /** Held in memory only when writing it to storage failed, so this run can still send it. */
  session?: TrackedSession;
}

/** A queued session read back for sending. */
export interface QueuedSession {
  key: string;
  session: TrackedSession;
}

const SEQ_DIGITS = 12;

/**
 * Keys are `{prefix}{seq, 12 digits}:{sessionId}`: sorted keys are oldest first, and two trackers sharing a
 * store (two tabs) never overwrite each other's entries even when their counters meet.
 * assumed: overflow eviction spares the sessions this tracker is sending, not those another tracker on the
 * same store is sending at that moment (that needs two live tabs and a full queue; the lock is not taken
 * for an eviction so that `stop()` never waits on the network).
 */
export class SessionQueue {
  readonly #storage: KeyValueStorage;
  readonly #prefix: string;
  readonly #maxSize: number;
  readonly #report: QueueReporter;
  /** Insertion order is oldest first. */
  #index = new Map<string, Entry>();
  #keyOfSession = new Map<string, string>();
  #nextSeq = 0;
  /** Keys a flush is sending now: never evicted under it. */
  readonly #inFlight = new Set<string>();

  constructor(storage: KeyValueStorage, prefix: string, maxSize: number, report: QueueReporter) {
    this.#storage = storage;
    this.#prefix = prefix;
    this.#maxSize = maxSize;
    this.#report = report;
  }

  /** Number of queued sessions this tracker knows of. */
  get size(): number {
    return this.#index.size;
  }

  /** Whether a session with this id is queued. */
  has(sessionId: string): boolean {
    return this.#keyOfSession.has(sessionId);
  }

  /** Adds the sessions stored by this or another tracker to the index (start-up, and each flush under the lock). */
  async sync(): Promise<void> {
    let keys: string[];
    try {
      keys = await this.#storage.keys(this.#prefix);
    } catch (error) {
      this.#report.storageError(error);
      return;
    }
    const merged = new Map<string, Entry>(this.#index);
    for (const key of keys) if (!merged.has(key)) merged.set(key, { sessionId: key.slice(this.#prefix.length + SEQ_DIGITS + 1) });
    this.#index = new Map([...merged].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    this.#keyOfSession = new Map([...this.#index].map(([key, entry]) => [entry.sessionId, key]));
    const lastKey = [...this.#index.keys()].at(-1);
    if (lastKey !== undefined) this.#nextSeq = Math.max(this.#nextSeq, Number(lastKey.slice(this.#prefix.length, this.#prefix.length + SEQ_DIGITS)) + 1);
  }

  /** Persists one finished session (one write), then evicts the oldest while the queue is over its cap. */
  async enqueue(session: TrackedSession): Promise<void> {
    const key = `${this.#prefix}${String(this.#nextSeq++).padStart(SEQ_DIGITS, '0')}:${session.sessionId}`;
    const entry: Entry = { sessionId: session.sessionId };
    try {
      await this.#storage.set(key, session);
    } catch (error) {
      entry.session = session;
      this.#report.storageError(error);
    }
    this.#index.set(key, entry);
    this.#keyOfSession.set(session.sessionId, key);
    const evictions: Promise<void>[] = [];
    while (this.#index.size > this.#maxSize) {
      const oldest = this.#oldestNotInFlight();
      if (oldest === undefined) break;
      evictions.push(this.#evict(oldest));
    }
    await Promise.all(evictions);
  }

  /** Up to `limit` keys, oldest first, leaving out `skip`. */
  oldest(limit: number, skip: ReadonlySet<string>): string[] {
    const keys: string[] = [];
    for (const key of this.#index.keys()) {
      if (keys.length >= limit) break;
      if (!skip.has(key)) keys.push(key);
    }
    return keys;
  }

  /** Reads queued sessions and marks them in flight; a key another tracker already sent is forgotten. */
  async read(keys: string[]): Promise<QueuedSession[]> {
    const found: QueuedSession[] = [];
    for (const key of keys) {
      const entry = this.#index.get(key);
      if (!entry) continue;
      let session = entry.session;
      try {
        session ??= await this.#storage.get<TrackedSession>(key);
      } catch (error) {
        this.#report.storageError(error);
        continue;
      }
      if (session === undefined) this.#forget(key);
      else {
        this.#inFlight.add(key);
        found.push({ key, session });
      }
    }
    return found;
  }

  /** Ends the in-flight mark of keys that stay queued. */
  release(keys: Iterable<string>): void {
    for (const key of keys) this.#inFlight.delete(key);
  }

  /**
   * Deletes sessions that left the queue; returns the keys actually deleted. A key whose delete failed stays
   * queued (sent again later, which the service's de-duplication makes safe).
   */
  async remove(keys: string[]): Promise<Set<string>> {
    const removed = new Set<string>();
    for (const key of keys) {
      this.#inFlight.delete(key);
      try {
        await this.#storage.delete(key);
      } catch (error) {
        this.#report.storageError(error);
        continue;
      }
      this.#forget(key);
      removed.add(key);
    }
    return removed;
  }

  #oldestNotInFlight(): string | undefined {
    for (const key of this.#index.keys()) if (!this.#inFlight.has(key)) return key;
    return undefined;
  }

  /** Removes `key` from the index at once (so concurrent evictions pick different keys), then from storage. */
  async #evict(key: string): Promise<void> {
    const entry = this.#index.get(key)!;
    this.#forget(key);
    try {
      const session = entry.session ?? (await this.#storage.get<TrackedSession>(key));
      if (session === undefined) return; // another tracker on this store sent it meanwhile: not ours to report
      await this.#storage.delete(key);
      this.#report.dropped({ sessionId: entry.sessionId, reason: 'overflow', session });
    } catch (error) {
      this.#report.storageError(error);
    }
  }

  #forget(key: string): void {
    const entry = this.#index.get(key);
    this.#index.delete(key);
    if (entry && this.#keyOfSession.get(entry.sessionId) === key) this.#keyOfSession.delete(entry.sessionId);
  }
}
