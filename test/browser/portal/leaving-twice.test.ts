/**
 * Leaving stories a game's own code makes, on a portal in Chromium with its defaults: a "Leave site?" prompt
 * (`beforeunload`) the player cancels, who then plays on and closes the tab later; and a game that ends the SDK in
 * its own `pagehide` listener (`stop()`, `dispose()`), after the SDK's exit or (`dispose()`) before it, as the tab
 * closes or the portal removes the game's iframe. In each, the session reaches the relay once, with the whole time played, and nothing is
 * counted twice.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { closeTab, endPlay, expectPlayTime, gameLog, openPortal, playFor, pressPlay, removeGame, untilCount } from './portal-player.js';
import type { StudioGame } from './portal-sites.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable())('portal play in Chromium: leaving, as the game\'s own code makes it', { timeout: 120_000 }, () => {
  // `early`: the same game disposing the SDK in a pagehide listener of its own added before the SDK started.
  const world = portalWorld({ alpha: {}, early: { disposeFirst: true } }, 'localhost');
  let alpha: StudioGame;
  beforeAll(() => {
    alpha = world.sites.games['alpha']!;
  });

  /** What went wrong in the game, by its log: nothing, in every story here. */
  const problems = async (page: Parameters<typeof gameLog>[0]) =>
    (await gameLog(page, 'alpha')).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped');

  it('the game asks "Leave site?" (beforeunload) and the player cancels, plays on and closes the tab later: one session, sent once, with the whole play time', async () => {
    const { context } = world.chromium;
    const player = 'stays';
    const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player });
    // The game's prompt, as games guard unsaved progress; Chromium shows it only for a frame the player interacted with.
    await tab.game.evaluate(() => addEventListener('beforeunload', (event) => event.preventDefault()));
    await tab.game.click('h1');
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 2_100);

    // The player closes the tab; the prompt asks; the player stays.
    const asked = tab.page.waitForEvent('dialog');
    await tab.page.close({ runBeforeUnload: true });
    const dialog = await asked;
    expect(dialog.type()).toBe('beforeunload');
    await dialog.dismiss();
    await playFor(tab.page, 2_100);
    // Still the one session: nothing ended or was sent when the prompt was cancelled.
    expect(tab.page.isClosed()).toBe(false);
    expect((await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'session:start' || message.type === 'session:end')).toEqual([
      { game: 'alpha', type: 'session:start', detail: { sessionId: playing.sessionId, continues: undefined } },
    ]);
    expect(alpha.received.filter((id) => id === playing.sessionId)).toEqual([]);

    expect(await problems(tab.page)).toEqual([]);
    const played = await endPlay(playing, () => closeTab(context, tab.page));
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(playing.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);
    await new Promise((resolve) => setTimeout(resolve, 500)); // the tab is closed: a second copy would come now
    expect(alpha.received.filter((id) => id === playing.sessionId)).toEqual([playing.sessionId]);
  });

  const ENDINGS = ['gc.tracker.stop()', 'gc.dispose()', 'gc.tracker.stop() then gc.dispose()'] as const;
  const LEAVINGS = ['the tab closed', 'the portal removes the frame'] as const;

  it.each(LEAVINGS.flatMap((leaving) => ENDINGS.map((ending) => [leaving, ending] as const)))(
    '%s while the game plays, the game calling %s in its own pagehide listener after the SDK\'s exit: the session is sent once, with the whole play time',
    async (leaving, ending) => {
      const { context } = world.chromium;
      const player = `twice-${LEAVINGS.indexOf(leaving)}-${ENDINGS.indexOf(ending)}`;
      const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player });
      // Added after the SDK's own listener (made with the facade at load): it runs second.
      await tab.game.evaluate((ending) => {
        const { gc } = window as unknown as { gc: { tracker: { stop(): Promise<void> }; dispose(): Promise<void> } };
        addEventListener('pagehide', () => {
          if (ending.includes('stop')) void gc.tracker.stop();
          if (ending.includes('dispose')) void gc.dispose();
        });
      }, ending);
      const playing = await pressPlay(tab.game);
      await playFor(tab.page, 2_600);
      const logBefore = await problems(tab.page);
      const played = await endPlay(playing, () => (leaving === 'the tab closed' ? closeTab(context, tab.page) : removeGame(tab.page)));

      await untilCount(() => alpha.recorded(player).length, 1);
      expect(alpha.recorded(player)[0]!.sessionId).toBe(playing.sessionId);
      expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the game is gone: a second copy would come now
      expect(alpha.received.filter((id) => id === playing.sessionId)).toEqual([playing.sessionId]);
      expect(logBefore).toEqual([]);
      if (leaving !== 'the tab closed') {
        expect(await problems(tab.page)).toEqual([]);
        await closeTab(context, tab.page);
      }
    }
  );

  it.each(LEAVINGS)(
    '%s while the game plays, the game calling gc.dispose() in a pagehide listener of its own added before the SDK started (so run before the SDK\'s exit): the dispose sends the session, once, with the whole play time',
    async (leaving) => {
      const { context } = world.chromium;
      const early = world.sites.games['early']!;
      const player = `dispose-first-${LEAVINGS.indexOf(leaving)}`;
      const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'early', player });
      const playing = await pressPlay(tab.game);
      await playFor(tab.page, 2_600);
      const played = await endPlay(playing, () => (leaving === 'the tab closed' ? closeTab(context, tab.page) : removeGame(tab.page)));

      await untilCount(() => early.recorded(player).length, 1);
      expect(early.recorded(player)[0]!.sessionId).toBe(playing.sessionId);
      expectPlayTime(early.recorded(player)[0]!.durationSeconds, played);
      await new Promise((resolve) => setTimeout(resolve, 500)); // the game is gone: a second copy would come now
      expect(early.received.filter((id) => id === playing.sessionId)).toEqual([playing.sessionId]);
      if (leaving !== 'the tab closed') {
        expect((await gameLog(tab.page, 'early')).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
        await closeTab(context, tab.page);
      }
    }
  );
});
