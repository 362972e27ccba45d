/**
 * What a game's IntersectionObserver sees of a portal hiding its cross-site frame (portals.md, "A game frame the
 * portal hides"): the guide's observer ends play when the frame stops intersecting, so what does and does not stop
 * it must be what Chromium does. `display: none` stops it; `visibility: hidden`, and another element covering the
 * frame, do not (geometry only: IntersectionObserver v1).
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, closeTab, openPortal, type PortalTab } from './portal-player.js';
import { portalWorld } from './portal-world.js';

type Watched = { seen: boolean[] };

/** The game's observer, as the guide's: the last entry's `isIntersecting`, each callback's. */
async function watch(tab: PortalTab): Promise<() => Promise<boolean[]>> {
  await tab.game.evaluate(() => {
    const watched: Watched = { seen: [] };
    (window as unknown as { watched: Watched }).watched = watched;
    new IntersectionObserver((entries) => void watched.seen.push(entries[entries.length - 1]!.isIntersecting)).observe(document.documentElement);
  });
  const seen = () => tab.game.evaluate(() => (window as unknown as { watched: Watched }).watched.seen);
  await expect.poll(seen, ARRIVAL).toEqual([true]); // the first callback: shown
  return seen;
}

/** Waits for the portal page to render twice, so an observer callback due from a style change has run. */
const twoFrames = (page: Page) => page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

describe.runIf(chromiumAvailable())('portal play in Chromium: a game frame the portal hides', { timeout: 60_000 }, () => {
  const world = portalWorld({ alpha: {} });

  it.each([
    ['display: none', 'stops intersecting', "game.style.display = 'none'", [true, false]],
    ['visibility: hidden', 'still intersects', "game.style.visibility = 'hidden'", [true]],
    ['covered by another element', 'still intersects', "document.body.appendChild(Object.assign(document.createElement('div'), { style: 'position:fixed;inset:0;background:#000;z-index:9' }))", [true]],
  ] as const)("the portal hides the game's frame (%s): to the game's IntersectionObserver it %s", async (how, _, hide, expected) => {
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player: `hidden-${how.replace(/\W+/g, '-')}` });
    const seen = await watch(tab);
    await tab.page.evaluate((code) => new Function('game', code)(document.getElementById('game')), hide);
    if (expected.length > 1) await expect.poll(seen, ARRIVAL).toEqual(expected);
    // A callback that would come has come once the portal rendered twice more (observers are run at rendering), and
    // the game's frame had a moment (it renders nothing while hidden: no requestAnimationFrame to wait for there).
    await twoFrames(tab.page);
    await tab.game.evaluate(() => new Promise((resolve) => setTimeout(resolve, 500)));
    await twoFrames(tab.page);
    expect(await seen()).toEqual(expected);
    await closeTab(world.chromium.context, tab.page);
  });
});
