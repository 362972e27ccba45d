/**
 * One game twice in one portal page (p61): a portal that shows a game's preview beside the game, or a player who
 * opened it twice in a split view. Both frames are the same origin with the same Client key and player, so they share
 * one storage partition and one queue (DESIGN section 5: storage is the game's, per player) and take turns to flush
 * (Web Locks on *.localhost, the IndexedDB lease on *.test). Each frame's sessions must be recorded once, no flush
 * sending what the other's flush sends, and one frame removed by the portal must not lose or double-send the other's.
 * The lock checked to matter: with the tracker's flush lock name made per instance in dist/game-campaign.iife.js, both
 * frames' flushes send both levels (each id received twice).
 */
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import type { GameMessage } from './portal-pages.js';
import { closeTab, endLevel, endPlay, expectPlayTime, flushNow, gameLog, openPortal, playFor, pressPlay, removeGame, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

/** The portal page adds a second frame of the same game (`id="second"`): resolves with [the portal's first frame, the second]. */
async function openTwice(page: Page, url: string): Promise<[Frame, Frame]> {
  await page.evaluate((src) => {
    const frame = document.body.appendChild(document.createElement('iframe'));
    frame.id = 'second';
    frame.src = src;
  }, url);
  await page.waitForFunction(() => (window as unknown as { fromGame: GameMessage[] }).fromGame.filter((message) => message.type === 'ready').length >= 2);
  const byId = async (id: string) => {
    for (const frame of page.frames()) if ((await (await frame.frameElement().catch(() => undefined))?.getAttribute('id')) === id) return frame;
    throw new Error(`no frame #${id}`);
  };
  return [await byId('game'), await byId('second')];
}

/** How many times each of `ids` reached the relay. */
const receipts = (received: string[], ids: string[]) => ids.map((id) => received.filter((each) => each === id).length);

describe.runIf(chromiumAvailable()).each(['test', 'localhost'] as const)('portal play in Chromium (*.%s): one game twice in one portal page', { timeout: 120_000 }, (domain) => {
  const world = portalWorld({ alpha: {} }, domain);

  it('both frames end a level and flush at once: each level recorded once and sent once (the frames take turns on the shared queue)', async () => {
    const alpha = world.sites.games['alpha']!;
    const player = `twice-flush-${domain}`;
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const [first, second] = await openTwice(tab.page, world.sites.gameUrl('alpha', player));
    const playing = [await pressPlay(first), await pressPlay(second)];
    await playFor(tab.page, 1_300);
    await Promise.all([endLevel(first), endLevel(second)]);
    await Promise.all([flushNow(first), flushNow(second)]);
    const ids = playing.map((each) => each.sessionId);
    await untilCount(() => alpha.recorded(player).length, 2);
    expect(alpha.recorded(player).map((session) => session.sessionId).sort()).toEqual([...ids].sort());
    expect(receipts(alpha.received, ids)).toEqual([1, 1]);
    expect((await gameLog(tab.page)).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    await closeTab(world.chromium.context, tab.page);
  });

  it('both frames playing, the portal removes one: its session arrives by its exit with its full play time; the other plays on and its session is recorded once, the removed one’s stored copy at most once more (SKIPPED)', async () => {
    const alpha = world.sites.games['alpha']!;
    const player = `twice-removed-${domain}`;
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const [first, second] = await openTwice(tab.page, world.sites.gameUrl('alpha', player));
    const removed = await pressPlay(first);
    const staying = await pressPlay(second);
    await playFor(tab.page, 2_600);
    const playedRemoved = await endPlay(removed, () => removeGame(tab.page));
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(removed.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, playedRemoved);

    // The other frame plays on, ends its level and sends it (with what the removed frame left stored).
    await playFor(tab.page, 1_000);
    const playedStaying = await endPlay(staying, () => endLevel(second));
    await flushNow(second);
    await untilCount(() => alpha.recorded(player).length, 2);
    const stayed = alpha.recorded(player).find((session) => session.sessionId === staying.sessionId)!;
    expectPlayTime(stayed.durationSeconds, playedStaying);
    const [removedReceipts, stayingReceipts] = receipts(alpha.received, [removed.sessionId, staying.sessionId]);
    expect(stayingReceipts).toBe(1);
    expect(removedReceipts).toBeGreaterThanOrEqual(1);
    expect(removedReceipts).toBeLessThanOrEqual(2);
    const flushed = (await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'flushed').flatMap((message) => message.detail as string[]);
    expect(flushed).toContain(`${staying.sessionId} SUCCESS`);
    expect(flushed.filter((each) => each.startsWith(removed.sessionId)).every((each) => each.endsWith('SKIPPED'))).toBe(true);
    expect((await gameLog(tab.page)).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    await closeTab(world.chromium.context, tab.page);
    expect(alpha.recorded(player)).toHaveLength(2);
  });
});
