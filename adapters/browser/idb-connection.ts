/**
 * The SDK's own IndexedDB connection, kept usable. A connection can be lost under a running page: WebKit drops
 * it after backgrounding (`UnknownError` "Connection to Indexed Database server lost"), any browser closes it
 * when the site's storage is cleared (a `close` event), another connection's upgrade or deletion asks it to
 * close (`versionchange`), and a closed or closing one refuses every new transaction (`InvalidStateError` "The
 * database connection is closing"). idb-keyval's `createStore` keeps one connection in a closure and drops it
 * only on `close`, so a store built on it stays broken after the others; here the connection is ours: replaced
 * whenever it is lost, and each operation that met a lost connection is retried on a new one (twice at most).
 * @see DESIGN sections 4 and 5; docs/decisions.md "A lost IndexedDB connection is reopened"
 */
import type { UseStore } from 'idb-keyval';

/**
 * The errors of a connection that is gone (not of the operation): closed or closing (Chromium, Firefox), the lost
 * server (WebKit), and a transaction aborted under us (a forced close aborts every transaction before its `close`
 * event; idb-keyval rejects an aborted transaction with its `error`, null when nothing but the abort failed).
 */
const LOST_CONNECTION = ['InvalidStateError', 'UnknownError', 'AbortError'];

/**
 * `lost` is set once a connection of the page was closed under it: `close` (the site's data cleared) or `versionchange`
 * (another tab deleting or upgrading a database), either of which may have taken the data with it. The browser
 * platform hands it to the tracker's page exit (as its `lost`), which then sends the sessions it holds when storage no
 * longer has them (core/tracker/page-exit.ts `get`); until then a key gone from storage means another tab sent it.
 */
export const connections: { lost?: 1 } = {};

/**
 * A store (idb-keyval's {@link UseStore}, so its building blocks apply) over `storeName` in `dbName`, created with
 * the database. The connection opens on first use and is replaced when it is lost: dropped on `close`, closed
 * and dropped on `versionchange` (so the other connection's upgrade or deletion proceeds), and an operation
 * that failed on a lost connection runs again on a new one, up to twice. A third failure rejects, for the caller to
 * report. assumed: retrying is safe because a transaction that failed on a lost connection committed nothing,
 * and every operation the SDK runs is a whole transaction.
 */
export function reconnectingStore(dbName: string, storeName: string): UseStore {
  let connection: Promise<IDBDatabase> | undefined;
  const open = () => {
    const opened: Promise<IDBDatabase> = openDatabase(dbName, storeName).then((db) => {
      db.onclose = db.onversionchange = () => {
        connections.lost = 1;
        db.close();
        drop(opened);
      };
      return db;
    });
    opened.catch(() => drop(opened)); // a failed open is tried again by the next operation
    return (connection = opened);
  };
  /** Forgets `lost` (if it is still the connection), closing it. */
  const drop = (lost: Promise<IDBDatabase>) => {
    if (connection !== lost) return;
    connection = undefined;
    lost.then((db) => db.close(), () => undefined);
  };
  return async (mode, callback) => {
    for (let tries = 2; ; tries--) {
      const used = connection ?? open();
      try {
        return await callback((await used).transaction(storeName, mode).objectStore(storeName));
      } catch (error) {
        // Lost when the error says so, or when a `close`/`versionchange` dropped the connection meanwhile. Marked lost
        // here too: a transaction on a connection the site's data clearing closed fails before its `close` event is
        // dispatched, and the retry below would otherwise read the new, empty database while `lost` is still unset, so
        // the queue took the page's sessions for sent by another tab (seen once in CI: the data cleared during a flush's
        // read, test/browser/idb-reconnect.test.ts). Up to two retries: a page restored from the back/forward cache
        // after its site's data was cleared meets the force close of its connections (Chromium 150) only as it runs
        // again, and the open the first retry makes fails too (`AbortError` "The connection was closed"); the next one
        // opens (test/browser/portal/storage-loss.test.ts, the cache story).
        if (!tries || (error && !LOST_CONNECTION.includes((error as Error).name) && connection === used)) throw error;
        connections.lost = 1;
        drop(used);
      }
    }
  };
}

/**
 * Opens the database `name` once IndexedDB answers ({@link idbReady}); one that does not exist yet is created with
 * the object store `storeName`, or, without `storeName`, not created (the upgrade is aborted: the open rejects with
 * an `AbortError`). Rejects when the database has not opened within 5 s (one that opens later is closed at once): an
 * open waits behind a deletion or an upgrade of its database (IndexedDB 3.0, "open a database connection": the
 * connection queue), and those wait for every other connection to close, so a page that keeps one open and ignores
 * `versionchange` (idb-keyval's `createStore`, an older release of the game) held the game's start-up, `stop()` and
 * exit for ever, with no event. assumed: 5 s, far above an open on a slow disk; the caller falls back to memory
 * (./storage.ts) or fails the operation.
 * @see https://w3c.github.io/IndexedDB/#opening; docs/decisions.md "IndexedDB blocked by another tab"
 */
async function openDatabase(name: string, storeName?: string): Promise<IDBDatabase> {
  await idbReady();
  const request = indexedDB.open(name);
  request.onupgradeneeded = () => (storeName ? request.result.createObjectStore(storeName) : request.transaction!.abort());
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
    setTimeout(() => {
      resolve = (late) => (late as IDBDatabase).close();
      reject(Error('IndexedDB open blocked for 5 s'));
    }, 5000);
  });
}

let woken: Promise<unknown> | undefined;

/**
 * Resolves once IndexedDB answers, before the page's first open. WebKit bug 226547 (Safari 14.1, iOS 14.5 to 14.8):
 * the first `indexedDB.open()` after the browser starts could stay pending for ever, and every storage call, the
 * tracker's start-up and `stop()` with it; asking for `indexedDB.databases()` until one answers wakes IndexedDB
 * first (the workaround of Jake Archibald's safari-14-idb-fix). Once per page; nothing where `databases()` is
 * missing (browsers older than the bug). Throws where there is no IndexedDB, for the caller to fall back.
 */
export function idbReady(): Promise<unknown> {
  let asking: ReturnType<typeof setInterval> | undefined;
  return (woken ??= indexedDB.databases
    ? new Promise((resolve) => {
        const ask = () => indexedDB.databases().then(resolve, resolve);
        asking = setInterval(ask, 100);
        ask();
      }).finally(() => clearInterval(asking))
    : Promise.resolve());
}

/**
 * Whether the database `name` exists, without creating it: an open that would create it is aborted in its
 * upgrade (IndexedDB 3.0, "open a database connection": an aborted upgrade of a new database leaves none; an open
 * without a version upgrades nothing else). Used to look for what an earlier release stored without leaving an
 * empty database behind.
 */
export async function databaseExists(name: string): Promise<boolean> {
  try {
    (await openDatabase(name)).close();
    return true;
  } catch (error) {
    if ((error as Error).name === 'AbortError') return false;
    throw error;
  }
}
