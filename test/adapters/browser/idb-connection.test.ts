// @vitest-environment happy-dom
// A lost IndexedDB connection is replaced (fake-indexeddb): closed under the storage by the page, closing with a
// transaction still running, WebKit's "Connection to Indexed Database server lost", another connection's upgrade
// or deletion (`versionchange`); the lease lock kept in the same store keeps working; and only when the reopen
// fails too does the tracker hear of it, once.
import 'fake-indexeddb/auto';
import { forceCloseDatabase } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserPlatform, PlaytimeTracker } from '../../../adapters/browser/index.js';
import { connections as pageConnections, databaseExists } from '../../../adapters/browser/idb-connection.js';
import { createBrowserLock } from '../../../adapters/browser/lock.js';
import { createIdbStorage } from '../../../adapters/browser/storage.js';

let dbCount = 0;
const freshDb = () => `reconnect-db-${++dbCount}`;

/** Every IDBDatabase the page opens, as the Chromium suite's init script captures them. */
function captureConnections() {
  const opened: IDBDatabase[] = [];
  const open = indexedDB.open.bind(indexedDB);
  const spy = vi.spyOn(indexedDB, 'open').mockImplementation((...args: Parameters<IDBFactory['open']>) => {
    const request = open(...args);
    request.addEventListener('success', () => opened.push(request.result));
    return request;
  });
  return { opened, spy, closeAll: () => opened.forEach((db) => db.close()) };
}

/** A storage on a fresh database holding `a: 1`, and the connections the page opened for it. */
async function storedA() {
  const connections = captureConnections();
  const storage = createIdbStorage({ dbName: freshDb() });
  await storage.set('a', 1);
  return { connections, storage };
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('createIdbStorage replaces a lost connection', () => {
  it('reopens after the page close()s its connection, and the data written before is still there', async () => {
    const connections = captureConnections();
    const onError = vi.fn();
    const storage = createIdbStorage({ dbName: freshDb(), onError });
    await storage.set('before', 1);
    expect(connections.opened).toHaveLength(1);
    connections.closeAll();

    await storage.set('after', 2); // the closed connection refuses (InvalidStateError): a new one takes it
    expect(await storage.get('before')).toBe(1);
    expect(await storage.update<number>('after', (n) => (n ?? 0) + 1)).toBe(3);
    expect(await storage.keys()).toEqual(['after', 'before']);
    expect(connections.opened).toHaveLength(2); // one reopen, kept for every later call
    expect(onError).not.toHaveBeenCalled();
  });

  // The page exit sends a held session storage no longer has only once `lost` is set. Chromium's site-data clearing
  // closes the connection, and a transaction already on it can fail before the `close` event is dispatched: the retry
  // then read the new, empty database with `lost` unset, and the queue took the sessions for sent by another tab (seen
  // once in CI, test/browser/idb-reconnect.test.ts). A script's close() fires no event: the operation is the only sign.
  it('marks the page\'s connections lost when an operation meets a closed connection before any close event', async () => {
    const { connections, storage } = await storedA();
    delete pageConnections.lost;
    connections.closeAll();

    expect(await storage.get('a')).toBe(1);
    expect(pageConnections.lost).toBe(1);
  });

  it('reopens a connection that is closing (close() while a transaction still runs)', async () => {
    const { connections, storage } = await storedA();
    const running = storage.set('b', 2); // a transaction in flight on the connection being closed...
    connections.closeAll(); // ...which finishes it, but refuses new ones
    const next = storage.get('a');
    await running;
    expect(await next).toBe(1);
    expect(await storage.get('b')).toBe(2);
    expect(connections.opened).toHaveLength(2);
  });

  it('reopens after a forced close (storage cleared, the close event) that aborted an operation in flight', async () => {
    const { connections, storage } = await storedA();
    // The first write's request is issued, then the database is closed under it: its transaction aborts.
    const put = IDBObjectStore.prototype.put;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementationOnce(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      const request = put.apply(this, args);
      forceCloseDatabase(this.transaction.db as never); // typed for its own FDBDatabase
      return request;
    });
    await storage.set('b', 2); // retried on a new connection
    expect(await storage.get('b')).toBe(2);
    expect(await storage.get('a')).toBe(1);
    expect(connections.opened).toHaveLength(2);
  });

  it("retries once after WebKit's lost server (UnknownError), on a new connection", async () => {
    const { connections, storage } = await storedA();
    const [db] = connections.opened;
    vi.spyOn(db!, 'transaction').mockImplementation(() => {
      throw new DOMException('Connection to Indexed Database server lost. Refresh the page to try again', 'UnknownError');
    });
    expect(await storage.get('a')).toBe(1);
    expect(connections.opened).toHaveLength(2);
  });

  // Chromium force-closes the connections of a page restored from the back/forward cache after its site's data was
  // cleared only once the page runs again: the first operation meets the closed connection, and the open it makes
  // fails too ("AbortError: The connection was closed."), seen in test/browser/portal/storage-loss.test.ts.
  it('opens once more when the reopen itself fails as lost (AbortError), with no error for the caller', async () => {
    const { connections, storage } = await storedA();
    connections.closeAll();
    const open = connections.spy.getMockImplementation()!;
    connections.spy.mockImplementationOnce(() => {
      throw new DOMException('The connection was closed.', 'AbortError');
    });

    expect(await storage.get('a')).toBe(1);
    expect(connections.spy.mock.calls.length).toBe(3); // the first open, the failed reopen, the one that answered
    connections.spy.mockImplementation(() => {
      throw new DOMException('The user denied permission to access the database.', 'UnknownError');
    });
    connections.closeAll();
    await expect(storage.get('a')).rejects.toThrow(/denied/); // three tries in all, then the caller hears of it
    expect(connections.spy.mock.calls.length).toBe(5);
    connections.spy.mockImplementation(open);
  });

  it('closes on versionchange, so another connection upgrades or deletes the database, and reopens on the next call', async () => {
    const connections = captureConnections();
    const dbName = freshDb();
    const storage = createIdbStorage({ dbName });
    await storage.set('kept', 'yes');
    // Another tab upgrades the database: our connection must not block it.
    const upgrade = indexedDB.open(dbName, 2);
    await new Promise((resolve, reject) => {
      upgrade.onsuccess = resolve;
      upgrade.onerror = reject;
      upgrade.onblocked = () => reject(new Error('blocked by our connection'));
    });
    upgrade.result.close();
    expect(await storage.get('kept')).toBe('yes');
    // Deleted under the page (storage cleared): the next call starts a new, empty database.
    await new Promise((resolve, reject) => {
      const deletion = indexedDB.deleteDatabase(dbName);
      deletion.onsuccess = resolve;
      deletion.onerror = reject;
      deletion.onblocked = () => reject(new Error('blocked by our connection'));
    });
    expect(await storage.get('kept')).toBeUndefined();
    await storage.set('again', 1);
    expect(await storage.keys()).toEqual(['again']);
    expect(connections.opened.length).toBeGreaterThanOrEqual(3);
  });

  it('keeps the lease lock (the lock of pages without Web Locks) working after its connection closed', async () => {
    const connections = captureConnections();
    const storage = createIdbStorage({ dbName: freshDb() });
    const lock = createBrowserLock({ storage, locks: undefined });
    expect(await lock('game-campaign:flush', async () => 'first')).toBe('first');
    connections.closeAll();
    expect(await lock('game-campaign:flush', async () => 'after the close')).toBe('after the close');
    expect(await storage.keys()).toEqual([]); // the lease was taken and given back
  });

  it('rejects only when the reopen fails too: the tracker reports one storage error, keeps the session and sends it', async () => {
    const connections = captureConnections();
    const sent: string[] = [];
    const fetch = async (_url: string | Request, init?: RequestInit) => {
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      sent.push(...sessions.map((s) => s.sessionId));
      return Response.json({ data: { total: sessions.length, successful: sessions.length, failed: 0, skipped: 0, results: sessions.map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' })) } });
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
    const platform = createBrowserPlatform({ dbName: freshDb(), fetch });
    const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: 'https://game.example/campaign' }, flushIntervalMs: 600_000 });
    const errors: Array<{ kind: string; error: unknown }> = [];
    const dropped: string[] = [];
    tracker.on('error', (event) => errors.push(event)).on('dropped', (event) => dropped.push(event.reason));
    await tracker.flush();
    expect(errors).toEqual([]);

    connections.closeAll();
    const opens = connections.spy.mock.calls.length;
    connections.spy.mockImplementation(() => {
      throw new DOMException('The user denied permission to access the database.', 'UnknownError');
    });
    const sessionId = tracker.start();
    await vi.advanceTimersByTimeAsync(3_000);
    await tracker.stop();
    await vi.advanceTimersByTimeAsync(1_000);
    expect(connections.spy.mock.calls.length).toBeGreaterThan(opens); // the reopen was tried
    expect(errors).toHaveLength(1); // every later write failed too: reported once
    expect(errors[0]).toMatchObject({ kind: 'storage' });
    expect(String(errors[0]!.error)).toMatch(/denied/);
    expect(dropped).toEqual([]);

    connections.spy.mockRestore(); // IndexedDB answers again: the session held in memory is sent
    await tracker.flush();
    expect(sent).toEqual([sessionId]);
    await tracker.dispose();
  });
});

describe('databaseExists', () => {
  it('tells an existing database from a missing one, and creates none while looking', async () => {
    const dbName = freshDb();
    expect(await databaseExists(dbName)).toBe(false);
    expect((await indexedDB.databases()).map((db) => db.name)).not.toContain(dbName);
    await createIdbStorage({ dbName }).set('a', 1);
    expect(await databaseExists(dbName)).toBe(true);
  });
});
