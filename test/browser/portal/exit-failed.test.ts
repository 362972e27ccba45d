/**
 * A portal player switches tabs while the studio's relay is down, comes back, plays on and closes the tab once the
 * relay is back, in Chromium with its defaults (the tab really hidden over the DevTools protocol, ./raw-cdp.ts).
 * The exit request of the tab switch fails while the page lives on; the session it carried must go out again in the
 * page's next exit, the tab closed, with the continuation: portal players often never come back, so nothing may wait
 * for a next visit (DESIGN section 5).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, endPlay, expectPlayTime, untilCount } from './portal-player.js';
import { rawPortalWorld } from './portal-world.js';
import { told as toldBy, type RawBrowser } from './raw-cdp.js';

/** Each part played: past the 1 s minimum session, short of the 15 s checkpoint. */
const PLAY_MS = 2_200;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(chromiumAvailable())('portal play in Chromium: an exit request that failed while the page lived on', { timeout: 60_000 }, () => {
  const world = rawPortalWorld({ alpha: {} });

  it('a tab switch while the relay is down, then back, played on and closed once it is up: both parts arrive from the close, no next visit needed', async () => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'switch-while-down';
    const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
    const pressedAt = Date.now();
    const firstId = await tab.evaluate<string>('game', 'window.play()');
    const first = { pressedAt, startedAt: Date.now() };
    await wait(PLAY_MS);

    // The studio's server is unreachable as the player opens another tab: the exit request of the first part fails.
    alpha.front = 'down';
    let elsewhere: Awaited<ReturnType<RawBrowser['openTab']>> | undefined;
    const firstPlayed = await endPlay(first, async () => (elsewhere = await raw.openTab(`${sites.origin('elsewhere')}/`)));
    await expect.poll(() => tab.evaluate('game', 'document.visibilityState'), ARRIVAL).toBe('hidden');
    await expect.poll(() => alpha.notRelayed, ARRIVAL).toBeGreaterThan(0);

    // Back to the game: it plays on in a continuation.
    const backAt = Date.now();
    await tab.activate();
    await expect.poll(async () => (await toldBy(tab, 'alpha', 'session:start')).length, ARRIVAL).toBe(2);
    const second = { pressedAt: backAt, startedAt: Date.now() };
    await wait(PLAY_MS);

    // The relay is back as the player closes the tab: that exit brings both parts.
    alpha.front = 'relay';
    const secondPlayed = await endPlay(second, () => tab.close());
    await untilCount(() => alpha.recorded(player).length, 2);
    const firstPart = alpha.recorded(player).find((session) => session.sessionId === firstId);
    expect(firstPart).toBeDefined();
    expectPlayTime(firstPart!.durationSeconds, firstPlayed);
    const secondPart = alpha.recorded(player).find((session) => session.sessionId !== firstId)!;
    expectPlayTime(secondPart.durationSeconds + firstPart!.durationSeconds, { minMs: firstPlayed.minMs + secondPlayed.minMs, maxMs: firstPlayed.maxMs + secondPlayed.maxMs });
    await elsewhere?.close();
  });
});
