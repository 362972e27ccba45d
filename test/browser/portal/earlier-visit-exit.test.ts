/**
 * A session an earlier visit left stored (its exit request lost: the studio's server down as the tab closed) meets the
 * server overloaded again at the next visit's start-up (503, `Retry-After: 300`, the `busy` front), so that start-up
 * flush reads it and fails, its retry due in 5 minutes. The player plays, the server recovers, and the player closes
 * the tab before the retry: portal players often never come back, so that exit must bring the earlier session too,
 * not only the one just played (DESIGN section 5, "nothing may wait for a next visit"). Before, the exit sent only the
 * sessions the page itself queued, and the earlier one waited for a third visit (checked to fail with the `hold` call
 * cut out of `read` in core/tracker/queue.ts).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, closeTab, endPlay, expectPlayTime, gameLog, openPortal, playFor, pressPlay, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable()).each(['test', 'localhost'] as const)('portal play in Chromium (*.%s): an earlier visit’s session in this exit', { timeout: 120_000 }, (domain) => {
  const world = portalWorld({ alpha: {} }, domain);

  it('left stored by a lost exit, refused again at this start-up, then the tab closed once the server is back: both sessions arrive in that exit, each once', async () => {
    const { chromium, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = `earlier-visit-${domain}`;

    // The earlier visit: the tab closed while the studio's server is unreachable, so storage alone holds the session.
    const earlierTab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    const earlier = await pressPlay(earlierTab.game);
    await playFor(earlierTab.page, 2_500);
    alpha.front = 'down';
    const earlierPlayed = await endPlay(earlier, () => closeTab(chromium.context, earlierTab.page));
    await expect.poll(() => alpha.notRelayed, ARRIVAL).toBeGreaterThan(0);

    // This visit: the start-up flush is answered 503 with Retry-After: 300.
    alpha.front = 'busy';
    const notRelayed = alpha.notRelayed;
    const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    await expect.poll(() => alpha.notRelayed, ARRIVAL).toBeGreaterThan(notRelayed);
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 2_500);
    alpha.front = 'relay';
    const log = await gameLog(tab.page, 'alpha');
    const played = await endPlay(playing, () => closeTab(chromium.context, tab.page));

    // No page of the game is open: only this exit can bring them.
    await untilCount(() => alpha.recorded(player).length, 2);
    const recorded = alpha.recorded(player);
    expectPlayTime(recorded.find((session) => session.sessionId === earlier.sessionId)!.durationSeconds, earlierPlayed);
    expectPlayTime(recorded.find((session) => session.sessionId === playing.sessionId)!.durationSeconds, played);
    expect(log.filter((message) => ['error', 'thrown', 'dropped'].includes(message.type))).toEqual([]);
    expect(alpha.received.filter((id) => id === earlier.sessionId)).toEqual([earlier.sessionId]);
  });
});
