// One game page in Chromium against the emulator behind a relay, as the storage suites play it: the hooks that
// start and stop it all, and reading a page's IndexedDB by hand.
import { readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { DEMO_USERS } from '../../emulator/index.js';
import { IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { launchChromium } from './chromium.js';
import { bundledBrowserEntry, serveGameWithEmulator } from './game-server.js';

const ROOT = join(import.meta.dirname, '../..');

/** What {@link chromiumGame} starts; set once its `beforeAll` has run. */
export interface ChromiumGame {
  game: Awaited<ReturnType<typeof serveGameWithEmulator>>;
  browser: Awaited<ReturnType<typeof launchChromium>>;
  /**
   * A new tab of the game at `/?query` (the ESM build; `/iife.html?query`, the `<script>` bundle, when `query`
   * has `iife`), its page clock installed, once the game is ready; `init` scripts run first.
   */
  open(query: string, ...init: Array<() => void>): Promise<Page>;
  /** Deletes every IndexedDB database of the game's origin (from a tab without the game, so nothing blocks it). */
  clearDatabases(): Promise<void>;
}

/**
 * Registers the suite's hooks: the emulator and the game (the built browser entry at `/sdk.mjs` and the page at
 * `/`, the IIFE and its siblings and the page at `/iife.html`, each running `bootstrap(emulatorUrl)` with the SDK as
 * `sdk`, which sets `window.ready`), a Chromium, back online after each test.
 */
export function chromiumGame(bootstrap: (emulatorUrl: string) => string): ChromiumGame {
  const suite = {
    async open(query: string, ...init: Array<() => void>) {
      const page = await suite.browser.context.newPage();
      for (const script of init) await page.addInitScript(script);
      await page.clock.install();
      await page.goto(`${suite.game.origin}/${new URLSearchParams(query).has('iife') ? 'iife.html' : ''}?${query}`);
      await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
      return page;
    },
    async clearDatabases() {
      const page = await suite.browser.context.newPage();
      await page.goto(`${suite.game.origin}/sdk.mjs`);
      await page.evaluate(async () => {
        for (const { name } of await indexedDB.databases()) await new Promise((resolve, reject) => Object.assign(indexedDB.deleteDatabase(name!), { onsuccess: resolve, onerror: reject, onblocked: reject }));
      });
      await page.close();
    },
  } as ChromiumGame;
  beforeAll(async () => {
    const sdk = await bundledBrowserEntry();
    const built = (file: string): [string, [string, string]] => [`/${basename(file)}`, ['text/javascript', readFileSync(join(ROOT, file), 'utf8')]];
    suite.game = await serveGameWithEmulator((emulator) => ({
      '/sdk.mjs': ['text/javascript', sdk],
      '/': ['text/html', `<!doctype html><title>game</title><script type="module">import * as sdk from '/sdk.mjs';${bootstrap(emulator.url)}</script>`],
      ...Object.fromEntries([IIFE.file, ...Object.values(IIFE_SIBLINGS).map((sibling) => sibling.file)].map(built)),
      '/iife.html': ['text/html', `<!doctype html><title>game</title><script src="/${basename(IIFE.file)}"></script><script>const sdk = ${IIFE.name};${bootstrap(emulator.url)}</script>`],
    }));
    suite.browser = await launchChromium();
  });
  afterEach(async () => {
    await suite.browser?.context.setOffline(false);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.game?.close();
  });
  return suite;
}

/**
 * A game's start-up for {@link chromiumGame}: its Client key (so its database, `game-campaign.<key>`) from the query
 * string `key`, the emulator's changeable demo player behind a relay, checkpoints every 500 ms and no interval flush;
 * what `browser.onError` and the tracker's `error` report collected in `window.errors`.
 */
export const keyedGame = (emulatorUrl: string) => `
  const keyId = new URLSearchParams(location.search).get('key');
  window.errors = [];
  window.gc = sdk.createGameCampaign({
    clientKey: keyId + ':secret',
    environment: { baseUrl: ${JSON.stringify(emulatorUrl)} },
    relay: { url: '/campaign', headers: { authorization: 'Bearer ${DEMO_USERS.changeable}' } },
    userId: '${DEMO_USERS.changeable}',
    tracker: { checkpointMs: 500, flushIntervalMs: 600000 },
    browser: { onError: (error) => window.errors.push(String(error)) },
  });
  window.gc.tracker.on('error', (event) => window.errors.push(event.kind + ': ' + String(event.error)));
  window.ready = true;`;

/** The keys (leases left out) of every database of the page's origin whose name passes `accept`, read by hand. */
export function storedKeys(page: Page, accept: { exactly?: string; prefix?: string }): Promise<string[]> {
  return page.evaluate(async ({ exactly, prefix }) => {
    const found: string[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name || (exactly !== undefined ? name !== exactly : !name.startsWith(prefix ?? ''))) continue;
      const request = indexedDB.open(name);
      const database: IDBDatabase = await new Promise((resolve, reject) => ((request.onsuccess = () => resolve(request.result)), (request.onerror = reject)));
      const keys: IDBValidKey[] = await new Promise((resolve) => (database.transaction('kv').objectStore('kv').getAllKeys().onsuccess = (event) => resolve((event.target as IDBRequest<IDBValidKey[]>).result)));
      database.close();
      found.push(...keys.map(String).filter((key) => !key.startsWith('lease:')));
    }
    return found;
  }, accept);
}
