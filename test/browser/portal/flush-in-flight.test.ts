/**
 * Leaving while the game's own flush is on its way: the player ends a level (the game flushes it, as games do at a
 * level end) and leaves before the studio's server answered. A flush's request is an ordinary fetch, which the page
 * going away may cancel or the network lose; the exit's keepalive request carries the same session, so the session
 * must still be recorded, once, without a next visit, and the next visit must find nothing wrong (its stored copy
 * answered SKIPPED, nothing reported dropped).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, closeTab, embedAgain, endLevel, endPlay, expectPlayTime, flushNow, gameLog, openPortal, playFor, pressPlay, removeGame, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable())('portal play in Chromium: leaving while a flush is on its way', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: {} });

  it.each(['the tab closed', 'the portal removes the game’s iframe'] as const)(
    '%s while the level’s flush waits on a slow studio server, that flush’s request then lost: the exit request brings the session, recorded once with its full play time; the next visit finds it SKIPPED, nothing dropped',
    async (how) => {
      const alpha = world.sites.games['alpha']!;
      const player = how === 'the tab closed' ? 'flushing-closed' : 'flushing-removed';
      const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
      const playing = await pressPlay(tab.game);
      await playFor(tab.page, 2_600);
      const played = await endPlay(playing, () => endLevel(tab.game));
      const posts = alpha.posts;
      alpha.postDelayMs = 2_000;
      alpha.lostPosts = 1; // the flush's request: held 2 s at the studio's server, then its connection reset
      try {
        void tab.game.evaluate(() => void (window as unknown as { gc: { tracker: { flush(): Promise<void> } } }).gc.tracker.flush());
        await expect.poll(() => alpha.posts, ARRIVAL).toBe(posts + 1); // the flush's request is at the studio's server
        if (how === 'the tab closed') await closeTab(world.chromium.context, tab.page);
        else await removeGame(tab.page);
        // No page of the game runs any more: only its exit request can bring the session in.
        await untilCount(() => alpha.recorded(player).length, 1);
        expect(alpha.lostPosts).toBe(0);
      } finally {
        alpha.postDelayMs = 0;
        alpha.lostPosts = 0;
      }
      const [session] = alpha.recorded(player);
      expect(session!.sessionId).toBe(playing.sessionId);
      expectPlayTime(session!.durationSeconds, played);

      // The next visit (a new tab, or the game embedded again in the portal's page) sends the stored copy: SKIPPED.
      const next = how === 'the tab closed' ? await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player }) : await embedAgain(tab.page, world.sites, { game: 'alpha', player });
      const flushed = async () => (await gameLog(next.page, 'alpha')).filter((message) => message.type === 'flushed').map((message) => message.detail);
      await expect
        .poll(async () => {
          await flushNow(next.game);
          return (await flushed()).flat();
        }, ARRIVAL)
        .toContain(`${playing.sessionId} SKIPPED`);
      expect((await gameLog(next.page, 'alpha')).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
      expect(alpha.recorded(player)).toEqual([session]);
      await closeTab(world.chromium.context, next.page);
    }
  );
});
