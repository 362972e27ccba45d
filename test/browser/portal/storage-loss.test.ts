/**
 * Storage going away under a running game, in Chromium with its defaults (the game in a cross-site iframe, its
 * storage partitioned under the portal; plain http, so the cross-tab lease lives in IndexedDB too): the
 * IndexedDB connection closed under the page (WebKit drops connections after backgrounding; any page may see
 * "The database connection is closing"), and the site's data cleared while the game plays.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import {
  ARRIVAL,
  closeTab,
  endLevel,
  endPlay,
  expectPlayTime,
  flushNow,
  gameLog,
  openPortal,
  playALevel,
  playFor,
  playOnAfterReturn,
  pressPlay,
  untilCount,
} from './portal-player.js';
import type { StudioGame } from './portal-sites.js';
import { portalWorld } from './portal-world.js';

type WithDatabases = { databases: IDBDatabase[] };

/** Runs before any script of every frame: keeps each IDBDatabase the page opens, so the test can close it. */
function captureDatabases() {
  const open = IDBFactory.prototype.open;
  const databases: IDBDatabase[] = [];
  (window as unknown as WithDatabases).databases = databases;
  IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
    const request = open.apply(this, args);
    request.addEventListener('success', () => databases.push(request.result));
    return request;
  };
}

describe.runIf(chromiumAvailable())('portal play in Chromium: storage lost under the game', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: {} });
  let alpha: StudioGame;
  beforeAll(() => {
    alpha = world.sites.games['alpha']!;
  });

  const problems = async (page: Page) => (await gameLog(page, 'alpha')).filter((message) => ['error', 'thrown', 'dropped'].includes(message.type));

  it('the IndexedDB connection closed under the page: later sessions are still stored and delivered, and one the service could not take yet is delivered on the next visit', async () => {
    const player = 'lost-connection';
    const page = await world.chromium.context.newPage();
    await page.addInitScript(captureDatabases);
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player }, page);
    await expect.poll(() => tab.game.evaluate(() => (window as unknown as WithDatabases).databases.length), ARRIVAL).toBeGreaterThan(0);
    const closed = await tab.game.evaluate(() => (window as unknown as WithDatabases).databases.map((database) => (database.close(), database.name)));
    expect(closed.length).toBeGreaterThan(0);

    const first = await playALevel(tab, 2_100);
    await untilCount(() => alpha.recorded(player).length, 1);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, first.played);

    // The studio's server is unreachable while the next level is played, the tab is closed and the player comes
    // back: only what the SDK stored after the connection was lost can bring that session in.
    alpha.front = 'down';
    const second = await playALevel(tab, 2_100);
    const seen = await problems(tab.page);
    await closeTab(world.chromium.context, tab.page);
    const next = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    expect(alpha.recorded(player).map((session) => session.sessionId)).toEqual([first.sessionId]);
    expect(alpha.notRelayed).toBeGreaterThan(0); // the sends really met the unreachable server
    // Unreachable while online may be reported (kind `relay`); a storage failure may not: the reopen worked.
    expect(seen.filter((message) => message.type !== 'error' || !String(message.detail).startsWith('relay:'))).toEqual([]);

    alpha.front = 'relay';
    await flushNow(next.game);
    await untilCount(() => alpha.recorded(player).length, 2);
    expectPlayTime(alpha.recorded(player).find((session) => session.sessionId === second.sessionId)!.durationSeconds, second.played);
    expect((await problems(next.page)).filter((message) => message.type !== 'error' || !String(message.detail).startsWith('relay:'))).toEqual([]);
    await closeTab(world.chromium.context, next.page);
  });

  it('storage cleared under the page (Storage.clearDataForStorageKey): the game keeps working, nothing is thrown at it, and later sessions are delivered', async () => {
    const player = 'cleared';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const cdp = await world.chromium.context.newCDPSession(tab.page);
    const frame = await world.chromium.context.newCDPSession(tab.game);
    const { frameTree } = await frame.send('Page.getFrameTree');
    const { storageKey } = (await cdp.send('Storage.getStorageKey' as 'Storage.getStorageKeyForFrame', { frameId: frameTree.frame.id })) as {
      storageKey: string;
    };
    expect(storageKey).toBe(`${world.sites.origin('cdn')}/^0${world.sites.origin('portal').replace(/:\d+$/, '')}`); // the game's partition under this portal

    // The player clears the portal's site data (or the browser evicts it) in the middle of a level.
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 1_600);
    await cdp.send('Storage.clearDataForStorageKey', { storageKey, storageTypes: 'all' });
    expect(await tab.game.evaluate(() => indexedDB.databases().then((list) => list.length))).toBe(0);
    await playFor(tab.page, 1_600);
    const played = await endPlay(playing, () => endLevel(tab.game));
    await flushNow(tab.game);
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(playing.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);

    const later = await playALevel(tab, 2_100);
    await untilCount(() => alpha.recorded(player).length, 2);
    expectPlayTime(alpha.recorded(player).find((session) => session.sessionId === later.sessionId)!.durationSeconds, later.played);
    expect(await problems(tab.page)).toEqual([]);
    await closeTab(world.chromium.context, tab.page);
  });
  it('site data cleared while the portal page is in the back/forward cache (no Web Locks: plain http): back on it, the game plays on with no storage error, and each part is delivered once', async () => {
    const player = 'cleared-in-cache';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    expect(await tab.game.evaluate(() => 'locks' in navigator)).toBe(false); // the cross-tab lease lives in IndexedDB
    const cdp = await world.chromium.context.newCDPSession(tab.page);
    const frame = await world.chromium.context.newCDPSession(tab.game);
    const { frameTree } = await frame.send('Page.getFrameTree');
    const { storageKey } = (await cdp.send('Storage.getStorageKey' as 'Storage.getStorageKeyForFrame', { frameId: frameTree.frame.id })) as {
      storageKey: string;
    };

    const first = await pressPlay(tab.game);
    await playFor(tab.page, 2_100);
    const firstPlayed = await endPlay(first, () => tab.page.goto(`${world.sites.origin('elsewhere')}/`));
    await untilCount(() => alpha.recorded(player).length, 1);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, firstPlayed);

    // The player clears the site's data (or the browser evicts it) while the page waits in the cache: Chromium
    // deletes the game's database and closes the frozen page's connection.
    await cdp.send('Storage.clearDataForStorageKey', { storageKey, storageTypes: 'all' });
    const { continuationId, continuation } = await playOnAfterReturn(tab.page);
    await playFor(tab.page, 2_100);
    const log = await gameLog(tab.page, 'alpha');
    const played = await endPlay(continuation, () => closeTab(world.chromium.context, tab.page));

    await untilCount(() => alpha.recorded(player).length, 2);
    expectPlayTime(alpha.recorded(player).find((session) => session.sessionId === continuationId)!.durationSeconds, played);
    expect(log.filter((message) => ['error', 'thrown', 'dropped'].includes(message.type))).toEqual([]);
    expect(alpha.received.filter((id) => id === first.sessionId)).toEqual([first.sessionId]);
    expect(alpha.received.filter((id) => id === continuationId)).toEqual([continuationId]);
  });
});
