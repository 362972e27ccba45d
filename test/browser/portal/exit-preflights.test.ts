/**
 * A page exit with two sessions held and no CORS preflight answer cached yet: the exit sends the session that just
 * ended alone, then the other (./exit-quota.test.ts says why), two keepalive POSTs to the studio's relay on another
 * site, each with a JSON body and the game's `authorization` header, so each needs a preflight (Fetch, "CORS-preflight
 * fetch"). Seen in Chromium 150: both requests are issued in the same `pagehide` task, before either preflight is
 * answered, so both preflights go out (Chromium caches an answer, not a preflight in flight); each body follows its own
 * preflight after the document is gone (keepalive requests are carried by the browser process), and a preflight, having no
 * body, costs nothing of the 64 KiB keepalive quota (the game's beacons here leave room for the two bodies alone).
 * One file, one Chromium: each story on a portal of its own, whose site has no cached preflight.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, closeTab, endLevel, endPlay, expectPlayTime, openPortal, playFor, pressPlay } from './portal-player.js';
import { portalWorld } from './portal-world.js';

/** The game's `pagehide` beacons: 6 × 10,800 B, leaving 736 B of the quota: the two exit bodies (about 260 + 260 B) fit, nothing more. */
const BEACONS = { count: 6, bytes: 10_800 } as const;

describe.runIf(chromiumAvailable())('portal play in Chromium: the exit’s two requests, each with its own CORS preflight', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { exitBeacons: BEACONS } });

  it.each([
    [0, 'portal'],
    [2_500, 'arcade'],
  ] as const)('a level ended (not yet sent) and another played, the tab closed with the relay’s preflights answered after %i ms (on %s): two preflights, two POSTs, both sessions recorded once with their play time', async (delayMs, portal) => {
    const alpha = world.sites.games['alpha']!;
    const player = `exit-preflights-${delayMs}`;
    const tab = await openPortal(world.chromium.context, world.sites, { portal, game: 'alpha', player });
    const first = await pressPlay(tab.game);
    await playFor(tab.page, 1_600);
    const firstPlayed = await endPlay(first, () => endLevel(tab.game)); // queued; the flush is due in 30 s
    const second = await pressPlay(tab.game);
    await playFor(tab.page, 1_600);
    const before = { preflights: alpha.preflights, posts: alpha.posts };
    alpha.preflightDelayMs = delayMs;
    try {
      const secondPlayed = await endPlay(second, () => closeTab(world.chromium.context, tab.page));
      await expect.poll(() => alpha.recorded(player).length, { ...ARRIVAL, timeout: delayMs + ARRIVAL.timeout }).toBe(2);
      await new Promise((resolve) => setTimeout(resolve, 2_000)); // a request more, if any, would be in by then
      expect({ preflights: alpha.preflights - before.preflights, posts: alpha.posts - before.posts }).toEqual({ preflights: 2, posts: 2 });
      const recorded = (id: string) => alpha.recorded(player).find((session) => session.sessionId === id)!;
      expectPlayTime(recorded(first.sessionId).durationSeconds, firstPlayed);
      expectPlayTime(recorded(second.sessionId).durationSeconds, secondPlayed);
      expect(alpha.received.filter((id) => id === first.sessionId || id === second.sessionId)).toHaveLength(2);
    } finally {
      alpha.preflightDelayMs = 0;
    }
  });
});
