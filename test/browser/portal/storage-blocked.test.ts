/**
 * A player whose browser settings refuse the game's storage, on a portal, in Chromium. Chromium keeps these in the
 * profile's `Preferences` (`profile.cookie_controls_mode`: 1 blocks third-party cookies; the content setting
 * `cookies`: 2 is "Don't allow sites to save data"), written here before the browser starts, as a player's profile.
 * - Third-party cookies blocked (Chrome's setting for many players, incognito's default): the game's frame still
 *   has its partitioned IndexedDB and Web Locks, so its queue survives the tab (portals guide, "Storage on a portal").
 * - All site data refused: IndexedDB fails ("UnknownError: The user denied permission to access the database."),
 *   Web Locks reject (`SecurityError`). The browser guide ("When IndexedDB cannot be used") promises one
 *   `StorageUnavailableError`, the data in memory, the game's flushes and its exit request sending as usual.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { launchChromiumOverCdp, removeProfile, type CdpChromium } from './chromium-cdp.js';
import { closeTab, endPlay, expectPlayTime, gameLog, openPortal, playALevel, playFor, pressPlay, untilCount } from './portal-player.js';
import { startPortalSites, type PortalSites } from './portal-sites.js';

/** What the game's frame may use: localStorage, IndexedDB, Web Locks, each `ok` or the error's name. */
const probeStorage = (game: Frame) =>
  game.evaluate(async () => {
    const attempt = async (use: () => unknown) => {
      try {
        await use();
        return 'ok';
      } catch (error) {
        return (error as Error).name;
      }
    };
    const database = () =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('probe');
        request.onsuccess = () => (request.result.close(), resolve());
        request.onerror = () => reject(request.error);
      });
    return {
      localStorage: await attempt(() => localStorage.length),
      indexedDB: await attempt(database),
      locks: await attempt(() => navigator.locks.request('probe', () => undefined)),
    };
  });

/** A Chromium whose profile holds the player's cookie settings; its profile removed with it. */
function playerBrowser(preferences: object) {
  const world = {} as { sites: PortalSites; chromium: CdpChromium };
  let profile: string;
  beforeAll(async () => {
    world.sites = await startPortalSites({ alpha: {} }, 'localhost');
    profile = mkdtempSync(join(tmpdir(), 'gc-portal-settings-'));
    mkdirSync(join(profile, 'Default'));
    writeFileSync(join(profile, 'Default', 'Preferences'), JSON.stringify({ profile: preferences }));
    world.chromium = await launchChromiumOverCdp({ profile });
  });
  afterAll(async () => {
    await world.chromium?.close();
    await world.sites?.close();
    if (profile) removeProfile(profile);
  });
  return world;
}

describe.runIf(chromiumAvailable())('portal play in Chromium: third-party cookies blocked by the player', { timeout: 120_000 }, () => {
  const world = playerBrowser({ cookie_controls_mode: 1 });

  it('the game frame keeps its partitioned IndexedDB and Web Locks; a level played is sent, nothing reported', async () => {
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player: 'third-party-blocked' });
    expect(await probeStorage(tab.game)).toEqual({ localStorage: 'ok', indexedDB: 'ok', locks: 'ok' });
    const level = await playALevel(tab, 1_600);
    await untilCount(() => world.sites.games['alpha']!.recorded('third-party-blocked').length, 1);
    expect(world.sites.games['alpha']!.recorded('third-party-blocked')[0]!.sessionId).toBe(level.sessionId);
    expect((await gameLog(tab.page, 'alpha')).filter((message) => ['error', 'thrown', 'dropped'].includes(message.type))).toEqual([]);
    await closeTab(world.chromium.context, tab.page);
  });
});

describe.runIf(chromiumAvailable())('portal play in Chromium: all site data refused by the player', { timeout: 120_000 }, () => {
  const world = playerBrowser({ default_content_setting_values: { cookies: 2 } });

  it('storage refused: one StorageUnavailableError warned, a level sent by its flush, the running session by the exit request when the tab closes', async () => {
    const { context } = world.chromium;
    const alpha = world.sites.games['alpha']!;
    const player = 'all-data-refused';
    // The default `browser.onError` is console.warn: heard from the game's first line on.
    const warnings: string[] = [];
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'warning') warnings.push(message.text());
    });
    const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player }, page);
    expect(await probeStorage(tab.game)).toEqual({ localStorage: 'SecurityError', indexedDB: 'UnknownError', locks: 'SecurityError' });

    const level = await playALevel(tab, 1_600);
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(level.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, level.played);

    // The next session, held only in the page's memory: only the exit request can bring it in.
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 2_100);
    const log = await gameLog(tab.page, 'alpha');
    const played = await endPlay(playing, () => closeTab(context, tab.page));
    await untilCount(() => alpha.recorded(player).length, 2);
    expect(alpha.recorded(player)[1]!.sessionId).toBe(playing.sessionId);
    expectPlayTime(alpha.recorded(player)[1]!.durationSeconds, played);
    expect(log.filter((message) => ['error', 'thrown', 'dropped'].includes(message.type))).toEqual([]);
    expect(warnings.filter((text) => text.includes('StorageUnavailableError'))).toHaveLength(1);
  });
});
