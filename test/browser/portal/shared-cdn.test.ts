/**
 * Two games of one studio on one CDN origin, in one portal page (Chromium with its defaults): a single-page portal
 * that moves the player on by re-pointing its game iframe's `src` at the next game, and a portal page showing two
 * games side by side. Both games share one storage partition and one Web Locks manager (same origin, same top-level
 * site); each game's storage namespace keeps its sessions its own (DESIGN section 5, "Storage belongs to the game"),
 * and each left page sends its session in its exit (HTML "unload a document": the re-pointed frame's document gets
 * `pagehide` before the next one commits).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import type { GameMessage } from './portal-pages.js';
import { closeTab, endPlay, expectPlayTime, flushNow, gameLog, openPortal, playFor, pressPlay, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable())('portal play in Chromium: two games of one CDN origin', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: {}, beta: {} }, 'localhost');

  /** Resolves once `game`'s page in the portal page said it is ready `count` times. */
  const ready = (page: import('playwright-core').Page, game: string, count = 1) =>
    page.waitForFunction(
      ({ game, count }) => (window as unknown as { fromGame: GameMessage[] }).fromGame.filter((message) => message.game === game && message.type === 'ready').length >= count,
      { game, count },
    );

  it('the portal re-points the game’s iframe at the next game while the first plays: the first game’s service records that session once with its full play time, the next game’s nothing of it', async () => {
    const { alpha, beta } = world.sites.games as Record<'alpha' | 'beta', (typeof world.sites.games)[string]>;
    const player = 'next-game';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 2_600);
    const next = world.sites.gameUrl('beta', player);
    const played = await endPlay(playing, () => tab.page.evaluate((url) => void ((document.getElementById('game') as HTMLIFrameElement).src = url), next));
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(playing.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);

    // The next game starts up in the same partition and flushes: nothing of the first game's is its to send.
    await ready(tab.page, 'beta');
    await flushNow(tab.page.frames().find((frame) => frame.url() === next)!);
    expect(beta.received).toEqual([]);
    expect(alpha.recorded(player).length).toBe(1);
    expect((await gameLog(tab.page)).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    await closeTab(world.chromium.context, tab.page);
  });

  it('two games side by side in one portal page, both playing, the tab closed: each game’s service records its own session once', async () => {
    const { alpha, beta } = world.sites.games as Record<'alpha' | 'beta', (typeof world.sites.games)[string]>;
    const player = 'side-by-side';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const second = world.sites.gameUrl('beta', player);
    await tab.page.evaluate((url) => void (document.body.appendChild(document.createElement('iframe')).src = url), second);
    await ready(tab.page, 'beta');
    const first = await pressPlay(tab.game);
    const other = await pressPlay(tab.page.frames().find((frame) => frame.url() === second)!);
    await playFor(tab.page, 2_600);
    const played = await endPlay(first, () => closeTab(world.chromium.context, tab.page));

    await untilCount(() => alpha.recorded(player).length, 1);
    await untilCount(() => beta.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(first.sessionId);
    expect(beta.recorded(player)[0]!.sessionId).toBe(other.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);
    expect(alpha.received).not.toContain(other.sessionId);
    expect(beta.received).not.toContain(first.sessionId);
  });
});
