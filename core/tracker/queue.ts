/**
 * The persisted queue of finished sessions: one storage key per session and an in-memory index of the keys,
 * so enqueueing is one write whatever the queue length, and the whole queue is never rewritten.
 * @see DESIGN section 5
 */
import type { KeyValueStorage } from '../platform.js';
import type { DroppedEvent, TrackedSession } from './events.js';
import { isUnreadable } from './unreadable.js';


interface Entry {
  sessionId: string;
  /** How far the device clock had been moved when the entry joined the index (see `clockWatch`). */
  moved: number;
  /** Held in memory only when writing it to storage failed, so this run can still send it. */
  session?: TrackedSession;
}

/** A queued session read back for sending. */
export interface QueuedSession {
  key: string;
  session: TrackedSession;
  /** How far the device clock had been moved when it was queued: the session's times are in that frame. */
  moved: number;
}

/**
 * Where the queue reports the sessions it holds as they join and leave it: a page exit keeps the newest in memory
 * (./page-exit.ts). Told synchronously, before the session's write ends.
 */
export interface HeldSessions {
  /**
   * A session joins the queue, or a flush read it (one queued before this page too: the exit then sends it should that
   * flush fail, rather than leave it to a next visit); held again, it is the newest.
   */
  hold(item: QueuedSession): void;
  drop(key: string): void;
  /** The session of `key`, while held. */
  get(key: string): TrackedSession | undefined;
}

const SEQ_DIGITS = 12;

/** The persisted queue of finished sessions (see {@link sessionQueue}). */
export interface SessionQueue {
  /** Number of queued sessions this tracker knows of. */
  size(): number;
  /** Whether a session with this id is queued. */
  has(sessionId: string): boolean;
  /** Adds the sessions stored by this or another tracker to the index (start-up, and each flush under the lock). */
  sync(): Promise<void>;
  /**
   * Persists one finished session (one write), then evicts the oldest while the queue is over its cap.
   * Resolves whether the write succeeded (if not, the session is held in memory for this run).
   */
  enqueue(session: TrackedSession): Promise<boolean>;
  /** Up to `limit` keys, oldest first, leaving out `skip` and those being sent (a page's exit request holds them). */
  oldest(limit: number, skip: ReadonlySet<string>): string[];
  /**
   * Reads queued sessions and marks them in flight (one evicted or erased while it was read is left out), each held
   * for the page exit; a key another tracker already sent is forgotten, and one whose value no longer parses is set
   * aside (see ./unreadable.ts).
   */
  read(keys: string[]): Promise<QueuedSession[]>;
  /** Marks keys in flight without reading them: a page's exit sends them from memory (./page-exit.ts). */
  claim(keys: string[]): void;
  /** Ends the in-flight mark of keys that stay queued. */
  release(keys: Iterable<string>): void;
  /**
   * Deletes sessions that left the queue; returns the keys that left it. A key whose delete failed stays queued
   * (sent again later, which the service's de-duplication makes safe), unless `settled`: the service answered
   * for it (acknowledged or refused), so this run does not send it again and deletes it again at each `sync()`
   * until storage takes it (a copy still stored at a later start is sent again, answered SKIPPED). Storage that fails every delete (a missing native module) would otherwise
   * have each acknowledged session sent again at every flush.
   */
  remove(keys: string[], settled?: boolean): Promise<Set<string>>;
  /** Deletes the queued sessions this tracker knows of (after a `sync()`: every one stored), each told to `dropped` (reason `erased`). */
  erase(): Promise<void>;
  /**
   * Writes again the sessions held in memory (their write failed), oldest first, stopping at the first that fails
   * again: storage that took a write since (a full disk with room again) keeps them past this run.
   */
  persistHeld(): Promise<void>;
}

/**
 * Keys are `{prefix}{seq, 12 digits}:{sessionId}`: sorted keys are oldest first, and two trackers sharing a
 * store (two tabs) never overwrite each other's entries even when their counters meet.
 * assumed: overflow eviction spares the sessions this tracker is sending, not those another tracker on the
 * same store is sending at that moment (that needs two live tabs and a full queue; the lock is not taken
 * for an eviction so that `stop()` never waits on the network).
 */
export function sessionQueue(
  storage: KeyValueStorage,
  prefix: string,
  maxSize: number,
  /** Hears the sessions evicted by overflow and erased (the tracker's `dropped` event). */
  dropped: (event: DroppedEvent) => void,
  storageError: (error: unknown) => void,
  /** How far the device clock has been moved (see `clockWatch`). */
  clockMoved: () => number,
  /** Hears a session held in memory only (its write failed) leaving the queue: sent, dropped or evicted. */
  leftMemory: (sessionId: string) => void,
  /** Told of every session joining and leaving the queue, where the platform has a page exit. */
  held?: HeldSessions,
): SessionQueue {
  /** Insertion order is oldest first. */
  let index = new Map<string, Entry>();
  let nextSeq = 0;
  /** Keys a flush is sending now: never evicted under it. */
  const inFlight = new Set<string>();
  /** Keys being deleted now (two answers for one session, an exit's and a flush's, report it once). */
  const removing = new Set<string>();
  /** The sessions whose first write is under way, by key: storage may not show them yet. */
  const writing = new Map<string, TrackedSession>();
  /**
   * Sessions the service answered for whose delete failed (`remove(keys, true)`), by key, with the id of one that
   * was held in memory (its running record is still stored): never sent again by this run, deleted again at each
   * `sync()` until storage takes it, so storage that works again is left clean.
   */
  const undeleted = new Map<string, string | undefined>();
  /** Keys of the sessions held in memory: {@link SessionQueue.persistHeld} finds them without walking the index. */
  const heldKeys = new Set<string>();
  const seqStart = prefix.length;

  const forget = (key: string) => {
    const entry = index.get(key);
    index.delete(key);
    heldKeys.delete(key);
    held?.drop(key);
    if (entry?.session) leftMemory(entry.sessionId);
  };

  /** Removes `key` from the index at once (so concurrent evictions pick different keys), then from storage. */
  const evict = async (key: string) => {
    const entry = index.get(key)!;
    forget(key);
    try {
      const session = entry.session ?? (await storage.get<TrackedSession>(key));
      if (session === undefined) return; // another tracker on this store sent it meanwhile: not ours to report
      await storage.delete(key);
      dropped({ sessionId: entry.sessionId, reason: 'overflow', session });
    } catch (error) {
      storageError(error);
    }
  };

  const queue: SessionQueue = {
    size: () => index.size,
    // A scan: asked only when recovering a crashed session at start-up, so no second index is kept for it.
    has: (sessionId) => [...index.values()].some((entry) => entry.sessionId === sessionId),

    async sync() {
      for (const key of undeleted.keys()) {
        try {
          await storage.delete(key);
        } catch {
          continue; // reported when it first failed; tried again at the next sync
        }
        const heldId = undeleted.get(key);
        undeleted.delete(key);
        if (heldId) leftMemory(heldId);
      }
      let keys: string[];
      try {
        keys = await storage.keys(prefix);
      } catch (error) {
        return storageError(error);
      }
      const moved = clockMoved();
      // Synchronous from here on: added to the index in place, then the index re-sorted.
      for (const key of keys) if (!index.has(key) && !undeleted.has(key)) index.set(key, { sessionId: key.slice(seqStart + SEQ_DIGITS + 1), moved });
      // Keys are unique: no two compare equal.
      const sorted = [...index].sort(([a], [b]) => (a < b ? -1 : 1));
      index = new Map(sorted);
      // By index: iOS before 15.4 lacks ES2022's negative-index array accessor.
      const last = sorted[sorted.length - 1];
      if (last) nextSeq = Math.max(nextSeq, Number(last[0].slice(seqStart, seqStart + SEQ_DIGITS)) + 1);
    },

    async enqueue(session) {
      const { sessionId } = session;
      const key = prefix + String(nextSeq++).padStart(SEQ_DIGITS, '0') + ':' + sessionId;
      const entry: Entry = { sessionId, moved: clockMoved() };
      // In the index and held before the write ends (synchronously): a page being left sends it at once.
      index.set(key, entry);
      held?.hold({ key, session, moved: entry.moved });
      writing.set(key, session);
      try {
        await storage.set(key, session);
      } catch (error) {
        entry.session = session;
        heldKeys.add(key);
        storageError(error);
      } finally {
        writing.delete(key);
      }
      // Storage took this write: it may take those it refused earlier (O(1) while nothing is held).
      if (!entry.session && heldKeys.size) await queue.persistHeld();
      const evictions: Promise<void>[] = [];
      // The first key not in flight, walking the index lazily: O(1) for a queue that is not being sent.
      evicting: while (index.size > maxSize) {
        for (const oldest of index.keys()) {
          if (!inFlight.has(oldest)) {
            evictions.push(evict(oldest));
            continue evicting;
          }
        }
        break;
      }
      await Promise.all(evictions);
      return !entry.session;
    },

    oldest(limit, skip) {
      const keys: string[] = [];
      for (const key of index.keys()) {
        if (keys.length >= limit) break;
        if (!skip.has(key) && !inFlight.has(key)) keys.push(key);
      }
      return keys;
    },

    async read(keys) {
      const found: QueuedSession[] = [];
      for (const key of keys) {
        let session = index.get(key)?.session;
        try {
          session ??= await storage.get<TrackedSession>(key);
        } catch (error) {
          storageError(error);
          if (isUnreadable(error)) await queue.remove([key]);
          continue;
        }
        // Not in storage: its write is under way, or failed while this read waited (the session is then held in
        // memory), or storage lost it while this page holds it (its database deleted by another tab, site data
        // cleared: it was forgotten unsent and unreported), rather than sent by another tracker. assumed: a held copy
        // another tracker sent meanwhile is sent again, answered SKIPPED. Its entry is looked up after the read: one
        // evicted (or erased) while it was read is not sent, as it was reported dropped (found by p27: delivered and
        // dropped both, at a start-up flush reading the oldest session as a recovered one overflowed the queue).
        const entry = index.get(key);
        if (!entry || !(session ??= entry.session ?? writing.get(key) ?? held?.get(key))) {
          forget(key);
          continue;
        }
        try {
          // What the wire carries. A stored value JSON cannot carry (a BigInt or a cycle, written by other code or by a
          // release that took any metadata) would fail every batch it is in, and every session behind it with it.
          JSON.stringify(session);
        } catch (error) {
          await queue.remove([key]);
          dropped({ sessionId: entry.sessionId, reason: 'invalid', error: String(error) });
          continue;
        }
        inFlight.add(key);
        // Held for the page's exit too: should this send fail, the page being left sends it (one an earlier visit left
        // stored included) rather than leave it to a next visit.
        held?.hold({ key, session, moved: entry.moved });
        found.push({ key, session, moved: entry.moved });
      }
      return found;
    },

    claim(keys) {
      for (const key of keys) inFlight.add(key);
    },

    release(keys) {
      for (const key of keys) inFlight.delete(key);
    },

    async erase() {
      // A key ends with its session's id (see `sync`).
      for (const key of await queue.remove([...index.keys()])) dropped({ sessionId: key.slice(seqStart + SEQ_DIGITS + 1), reason: 'erased' });
    },

    async persistHeld() {
      for (const key of Array.from(heldKeys)) {
        const entry = index.get(key);
        if (!entry || inFlight.has(key)) continue; // a session being sent is settled by its answer
        try {
          await storage.set(key, entry.session);
        } catch {
          return; // still refused: reported when it first failed
        }
        // Sent and removed while this write ran: the copy just written goes too (one left is answered SKIPPED).
        if (index.get(key) !== entry) storage.delete(key).catch(() => undefined);
        else {
          heldKeys.delete(key);
          delete entry.session;
          leftMemory(entry.sessionId);
        }
      }
    },

    async remove(keys, settled) {
      const removed = new Set<string>();
      for (const key of keys) {
        inFlight.delete(key);
        if (!index.has(key) || removing.has(key)) continue;
        removing.add(key);
        try {
          await storage.delete(key);
        } catch (error) {
          storageError(error);
          if (!settled) continue;
          const entry = index.get(key)!;
          undeleted.set(key, entry.session && entry.sessionId);
        } finally {
          removing.delete(key);
        }
        forget(key);
        removed.add(key);
      }
      return removed;
    },
  };
  return queue;
}
