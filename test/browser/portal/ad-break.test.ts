/**
 * An ad break on a portal: the portal hides the game's iframe (`display: none`) while its ad plays, the tab staying
 * visible and in front. The game's document is told nothing (`document.visibilityState` stays `visible`, no
 * `visibilitychange`, no `pagehide`), so the SDK cannot see the break: without the game's word the break is counted as
 * play, which portals.md says ("Ad breaks", "A game frame the portal hides"), with what the game should call. Each
 * story: every session recorded once, with the time the guide says.
 */
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { closeTab, endLevel, endPlay, expectPlayTime, openPortal, playFor, pressPlay, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

/** The portal shows (`''`) or hides (`'none'`) the game's iframe. */
const showGame = (page: Page, display: '' | 'none') => page.evaluate((value) => void (document.getElementById('game')!.style.display = value), display);

/** What the game's document can see of itself: its visibility state. */
const visibility = (game: Frame) => game.evaluate(() => document.visibilityState);

const AD_MS = 2_500;

describe.runIf(chromiumAvailable())('portal play in Chromium: an ad break', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: {} });

  it('the portal hides the game’s iframe for an ad while the tab stays visible, the game told nothing: one session, recorded once, the ad counted as play (the SDK sees no event)', async () => {
    const alpha = world.sites.games['alpha']!;
    const player = 'ad-unseen';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 1_500);
    await showGame(tab.page, 'none');
    await playFor(tab.page, AD_MS); // the ad plays over the page
    expect(await visibility(tab.game)).toBe('visible');
    await showGame(tab.page, '');
    await playFor(tab.page, 1_000);
    const played = await endPlay(playing, () => closeTab(world.chromium.context, tab.page));

    await untilCount(() => alpha.recorded(player).length, 1);
    const [session] = alpha.recorded(player);
    expect(session!.sessionId).toBe(playing.sessionId);
    expectPlayTime(session!.durationSeconds, played); // the whole time, the ad's 2.5 s included
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // a second copy, if any, would be in by then
    expect(alpha.received.filter((id) => id === playing.sessionId)).toEqual([playing.sessionId]);
  });

  it('the game ends its session as the ad starts and starts one as it ends (portals.md, "Ad breaks"): two sessions, each recorded once, the ad in neither', async () => {
    const alpha = world.sites.games['alpha']!;
    const player = 'ad-told';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const before = await pressPlay(tab.game);
    await playFor(tab.page, 1_500);
    // The portal SDK's "ad started" callback: the guide's `await gc.tracker.stop()`; then the portal hides the frame.
    const playedBefore = await endPlay(before, () => endLevel(tab.game));
    await showGame(tab.page, 'none');
    await playFor(tab.page, AD_MS);
    await showGame(tab.page, '');
    // "Ad finished": the guide's `gc.tracker.start(...)`, a new session.
    const after = await pressPlay(tab.game);
    await playFor(tab.page, 1_600);
    const playedAfter = await endPlay(after, () => closeTab(world.chromium.context, tab.page));

    await untilCount(() => alpha.recorded(player).length, 2);
    const recorded = new Map(alpha.recorded(player).map((session) => [session.sessionId, session.durationSeconds]));
    expectPlayTime(recorded.get(before.sessionId)!, playedBefore);
    expectPlayTime(recorded.get(after.sessionId)!, playedAfter);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(alpha.received.filter((id) => id === before.sessionId || id === after.sessionId).sort()).toEqual([before.sessionId, after.sessionId].sort());
    expect(alpha.recorded(player)).toHaveLength(2);
  });
});
