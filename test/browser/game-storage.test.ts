// Storage belongs to the game, in real Chromium (issue 28 item 2): a first start creates only the game's own
// database (looking for the shared one leaves none behind); what the release before kept in the shared database
// `game-campaign` (a queued session, and one running when its tab was closed) is moved into the game's own at its next
// start and recorded once; a second game on the origin, which started first, never sends it. The release before is
// played by the same bundle with `storageKey: 'game-campaign'`, which keeps exactly its layout. Time is the page
// clock's; outcomes are polled, never timed.
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../emulator/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { bundledBrowserEntry, serveGameWithEmulator } from '../helpers/game-server.js';

const USER = DEMO_USERS.changeable;

/** The game's start-up: its Client key from `?key=`; `?legacy` plays the release before (the shared layout). */
const bootstrap = (emulatorUrl: string) => `
  const params = new URLSearchParams(location.search);
  window.errors = [];
  window.gc = sdk.createGameCampaign({
    clientKey: params.get('key') + ':secret',
    environment: { baseUrl: ${JSON.stringify(emulatorUrl)} },
    relay: { url: '/campaign', headers: { authorization: 'Bearer ${USER}' } },
    userId: '${USER}',
    tracker: { checkpointMs: 500, flushIntervalMs: 600000, ...(params.has('legacy') ? { storageKey: 'game-campaign' } : {}) },
    browser: { onError: (error) => window.errors.push(String(error)) },
  });
  window.gc.tracker.on('error', (event) => window.errors.push(event.kind + ': ' + String(event.error)));
  window.ready = true;`;

describe.runIf(chromiumAvailable())('a database per game in Chromium', () => {
  let game: Awaited<ReturnType<typeof serveGameWithEmulator>>;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    const sdk = await bundledBrowserEntry();
    game = await serveGameWithEmulator((emulator) => ({
      '/sdk.mjs': ['text/javascript', sdk],
      '/': ['text/html', `<!doctype html><title>game</title><script type="module">import * as sdk from '/sdk.mjs';${bootstrap(emulator.url)}</script>`],
    }));
    browser = await launchChromium();
  });

  afterEach(async () => {
    await browser?.context.setOffline(false);
  });

  afterAll(async () => {
    await browser?.close();
    await game?.close();
  });

  async function openGame(query: string): Promise<Page> {
    const page = await browser.context.newPage();
    await page.clock.install();
    await page.goto(`${game.origin}/?${query}`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    return page;
  }
  const databases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).sort());
  /** The keys of database `name` (opened by hand, only if it exists). */
  const keysOf = (page: Page, name: string) =>
    page.evaluate(async (db) => {
      const request = indexedDB.open(db);
      const database: IDBDatabase = await new Promise((resolve, reject) => ((request.onsuccess = () => resolve(request.result)), (request.onerror = reject)));
      const keys: IDBValidKey[] = await new Promise((resolve) => (database.transaction('kv').objectStore('kv').getAllKeys().onsuccess = (event) => resolve((event.target as IDBRequest<IDBValidKey[]>).result)));
      database.close();
      return keys.map(String).filter((key) => !key.startsWith('lease:'));
    }, name);
  const recorded = () => game.emulator.state().sessions.filter((session) => session.userId === USER).map((session) => `${session.sessionId}:${session.durationSeconds}`).sort();
  const errors = (page: Page) => page.evaluate(() => (window as any).errors as string[]);

  it("moves the release before's shared database into the game's own once; another game on the origin never sends it", async () => {
    // Game B starts first on a fresh origin: its own database only, no shared one created by looking for it.
    const b = await openGame('key=ck_storage_b');
    await b.evaluate(() => (window as any).gc.tracker.flush());
    expect(await databases(b)).toEqual(['game-campaign.ck_storage_b']);
    await b.close();

    // The release before of game A, offline: one session queued (2 s), one running when its tab is closed (3 s).
    const before = await openGame('key=ck_storage_a&legacy');
    await browser.context.setOffline(true);
    const queued = await before.evaluate(() => (window as any).gc.tracker.start() as string);
    await before.clock.fastForward(2_000);
    await before.evaluate(() => (window as any).gc.tracker.stop());
    const running = await before.evaluate(() => (window as any).gc.tracker.start() as string);
    await before.clock.fastForward(3_000);
    await expect.poll(async () => (await keysOf(before, 'game-campaign')).length).toBe(2);
    await before.close({ runBeforeUnload: false });
    await browser.context.setOffline(false);

    // Game A's new release: both sessions moved into its database and recorded once.
    const a = await openGame('key=ck_storage_a');
    await expect.poll(recorded, { timeout: 15_000 }).toEqual([`${queued}:2`, `${running}:3`].sort());
    expect(await keysOf(a, 'game-campaign')).toEqual([]);
    await expect.poll(() => keysOf(a, 'game-campaign.ck_storage_a')).toEqual(['game-campaign.ck_storage_a.moved']);
    expect(await databases(a)).toEqual(['game-campaign', 'game-campaign.ck_storage_a', 'game-campaign.ck_storage_b']);
    expect(await errors(a)).toEqual([]);
    await a.close();

    // Game B again: nothing of A's; its own session goes out on its own.
    const bAgain = await openGame('key=ck_storage_b');
    const own = await bAgain.evaluate(() => (window as any).gc.tracker.start() as string);
    await bAgain.clock.fastForward(1_500);
    await bAgain.evaluate(async () => {
      await (window as any).gc.tracker.stop();
      await (window as any).gc.tracker.flush();
    });
    await expect.poll(recorded, { timeout: 15_000 }).toEqual([`${queued}:2`, `${running}:3`, `${own}:1`].sort());
    expect(await keysOf(bAgain, 'game-campaign.ck_storage_b')).toEqual(['game-campaign.ck_storage_b.moved']);
    expect(await errors(bAgain)).toEqual([]);
    await bAgain.close();
  });
});
