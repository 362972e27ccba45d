/**
 * Two games of one CDN origin that name the same `tracker.storageKey` (a studio's shared setting copied into both), in
 * Chromium: one namespace, so one queue per player. What the guides say of it (docs/guides/tracker.md, portals.md):
 * each game's flush sends what the other queued, through its own relay, so the other's session is recorded by this
 * game's service; once, and nothing lost. The default (no `storageKey`) keeps them apart: storage-owners.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { closeTab, flushNow, gameLog, openPortal, playALevel, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable())('two games of one origin with one storageKey, in Chromium', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { storageKey: 'studio' }, beta: { storageKey: 'studio' } });

  it("a level of game alpha its server could not take is sent by game beta's flush, to beta's service: recorded there once", async () => {
    const alpha = world.sites.games['alpha']!;
    const beta = world.sites.games['beta']!;
    const player = 'plays-both';
    alpha.front = 'down';
    try {
      const alphaTab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
      const level = await playALevel(alphaTab, 1_600); // its flush and its tab's exit both meet the server down
      await closeTab(world.chromium.context, alphaTab.page);
      // alpha's server stays down: its exit's keepalive request may still be on its way after the tab closed.

      const betaTab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'beta', player });
      await flushNow(betaTab.game);
      await untilCount(() => beta.recorded(player).length, 1);
      expect(beta.recorded(player).map((session) => session.sessionId)).toEqual([level.sessionId]);
      expect(alpha.recorded(player)).toEqual([]);
      expect((await gameLog(betaTab.page, 'beta')).filter((message) => ['error', 'thrown', 'dropped'].includes(message.type))).toEqual([]);
      await closeTab(world.chromium.context, betaTab.page);
    } finally {
      alpha.front = 'relay';
    }
  });
});
