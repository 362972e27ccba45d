/**
 * A portal that sandboxes the game's iframe without `allow-same-origin` (`sandbox="allow-scripts"`), in Chromium
 * with its defaults: the game's origin is opaque (`null`), so IndexedDB and Web Locks are refused. The SDK keeps its
 * data in memory for the page (browser guide, "When IndexedDB cannot be used"), and the game's own sends must still
 * work while the page runs: on today's main every flush failed on its lock ("Access to the Locks API is denied in
 * this context", an `error` of kind `lock` at each try) and a session reached the service only if the page was left.
 * The relay lists `'null'` (portals guide: "list 'null' only if you must").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { closeTab, expectPlayTime, gameLog, openPortal, playALevel, untilCount } from './portal-player.js';
import type { StudioGame } from './portal-sites.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable())('portal play in Chromium: a sandboxed game frame without allow-same-origin', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { allowOpaqueOrigin: true } }, 'localhost');
  let alpha: StudioGame;
  beforeAll(() => {
    alpha = world.sites.games['alpha']!;
  });

  it('a level played to its end is delivered by the flush that follows, while the page runs, with its full play time; no lock error', async () => {
    const player = 'sandboxed';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player, sandbox: 'allow-scripts' });
    // The point of the story: an opaque origin, in a secure context (Web Locks exist, and refuse it).
    expect(await tab.game.evaluate(() => [origin, isSecureContext, typeof navigator.locks])).toEqual(['null', true, 'object']);
    const level = await playALevel(tab, 2_100);
    // The page still runs: only the game's own flush can have sent it.
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(level.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, level.played);
    const log = await gameLog(tab.page, 'alpha');
    expect(log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    expect(log.filter((message) => message.type === 'flushed').map((message) => message.detail)).toEqual([[`${level.sessionId} SUCCESS`]]);
    await closeTab(world.chromium.context, tab.page);
  });
});
