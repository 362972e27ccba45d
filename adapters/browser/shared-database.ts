/**
 * Where the release before kept a web game's data: the database every game on the origin shared
 * (`game-campaign`), looked for (never created) when a game first starts on its own database.
 * @see core/tracker/game-namespace.ts, docs/decisions.md "Storage belongs to the game"
 */
import type { SharedNamespaceStore } from '../../core/tracker/game-namespace.js';
import { SHARED_NAMESPACE } from '../../core/tracker/game-namespace.js';
import { databaseExists } from './idb-connection.js';
import { createBrowserPlatform, type BrowserPlatform, type BrowserPlatformOptions } from './platform.js';

/**
 * The shared database as the move reads it, with a lock every game on the origin takes: the Web Locks API
 * (origin-wide) or, where it is missing, a lease in the shared database itself (a lease in a game's own
 * database would not keep another game out). Nothing when the shared database does not exist, or when the
 * game's own storage lives in memory (IndexedDB unusable: the move waits for a start where it persists).
 * Both come from a browser platform of the page's options on the shared database: its storage and lock are
 * built exactly so, and the rest of it (lifecycle, network, crypto) does nothing until used, which the move never
 * does. `options` names no database or storage of its own here (./index.ts moves only then).
 */
export function sharedDatabase(platform: BrowserPlatform, options: BrowserPlatformOptions): () => Promise<SharedNamespaceStore | undefined> {
  return async () => {
    if ((await platform.storage.persistent()) && (await databaseExists(SHARED_NAMESPACE))) return createBrowserPlatform({ ...options, dbName: SHARED_NAMESPACE });
  };
}
