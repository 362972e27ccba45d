// Storage belongs to the game, in real Chromium (issue 28 item 2): a first start creates only the game's own
// database (looking for the shared one leaves none behind); what the release before kept in the shared database
// `game-campaign` (a queued session, and one running when its tab was closed) is moved into the game's own at its next
// start and recorded once; a second game on the origin, which started first, never sends it. The release before is
// played by the same bundle with `storageKey: 'game-campaign'`, which keeps exactly its layout. Both builds: the ESM
// entry and the `<script>` bundle. Time is the page clock's; outcomes are polled, never timed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../emulator/index.js';
import { chromiumAvailable } from '../helpers/chromium.js';
import { chromiumGame, storedKeys } from '../helpers/chromium-game.js';

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
  const suite = chromiumGame(bootstrap);
  const databases = (page: Page) => page.evaluate(async () => (await indexedDB.databases()).map((db) => db.name).sort());
  const keysOf = (page: Page, name: string) => storedKeys(page, { exactly: name });
  const openGame = (query: string) => suite.open(query);
  const game = () => suite.game;
  /** What the service recorded of `ids`, as `sessionId:durationSeconds`. */
  const recorded = (...ids: string[]) =>
    suite.game.emulator.state().sessions.filter((session) => ids.includes(session.sessionId)).map((session) => `${session.sessionId}:${session.durationSeconds}`).sort();
  const errors = (page: Page) => page.evaluate(() => (window as any).errors as string[]);

  it.each([
    ['the ESM build', 'esm'],
    ['the <script> bundle', 'iife'],
  ])("moves the release before's shared database into the game's own once; another game on the origin never sends it: %s", async (_, build) => {
    const query = (key: string) => `key=ck_${build}_${key}${build === 'iife' ? '&iife' : ''}`;
    const [own, other] = [`game-campaign.ck_${build}_a`, `game-campaign.ck_${build}_b`];
    // Game B starts first on a fresh origin: its own database only, no shared one created by looking for it.
    await suite.clearDatabases();
    const b = await openGame(query('b'));
    await b.evaluate(() => (window as any).gc.tracker.flush());
    expect(await databases(b)).toEqual([other]);
    await b.close();

    // The release before of game A, offline: one session queued (2 s), one running when its tab is closed (3 s).
    const before = await openGame(`${query('a')}&legacy`);
    await suite.browser.context.setOffline(true);
    const queued = await before.evaluate(() => (window as any).gc.tracker.start() as string);
    await before.clock.runFor(2_000);
    await before.evaluate(() => (window as any).gc.tracker.stop());
    const running = await before.evaluate(() => (window as any).gc.tracker.start() as string);
    await before.clock.runFor(3_000);
    await expect.poll(async () => (await keysOf(before, 'game-campaign')).length).toBe(2);
    await before.close({ runBeforeUnload: false });
    await suite.browser.context.setOffline(false);

    // Game A's new release: both sessions moved into its database and recorded once.
    const a = await openGame(query('a'));
    await expect.poll(() => recorded(queued, running), { timeout: 15_000 }).toEqual([`${queued}:2`, `${running}:3`].sort());
    expect(await keysOf(a, 'game-campaign')).toEqual([]);
    await expect.poll(() => keysOf(a, own)).toEqual([`${own}.moved`]);
    expect(await databases(a)).toEqual(['game-campaign', own, other]);
    expect(await errors(a)).toEqual([]);
    await a.close();

    // Game B again: nothing of A's; its own session goes out on its own.
    const bAgain = await openGame(query('b'));
    const sessionsBefore = game().emulator.state().sessions.length;
    const mine = await bAgain.evaluate(() => (window as any).gc.tracker.start() as string);
    await bAgain.clock.runFor(1_500);
    await bAgain.evaluate(async () => {
      await (window as any).gc.tracker.stop();
      await (window as any).gc.tracker.flush();
    });
    await expect.poll(() => recorded(queued, running, mine), { timeout: 15_000 }).toEqual([`${queued}:2`, `${running}:3`, `${mine}:1`].sort());
    expect(game().emulator.state().sessions).toHaveLength(sessionsBefore + 1); // nothing else of A's, from B
    expect(await keysOf(bAgain, other)).toEqual([`${other}.moved`]);
    expect(await errors(bAgain)).toEqual([]);
    await bAgain.close();
  });
});
