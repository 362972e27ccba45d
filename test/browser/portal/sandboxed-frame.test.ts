/**
 * A portal that sandboxes the game's iframe without `allow-same-origin` (`sandbox="allow-scripts"`), in Chromium
 * with its defaults: the game's origin is opaque (`null`), so IndexedDB and Web Locks are refused. The SDK keeps its
 * data in memory for the page (browser guide, "When IndexedDB cannot be used"), and the game's own sends must still
 * work while the page runs: on today's main every flush failed on its lock ("Access to the Locks API is denied in
 * this context", an `error` of kind `lock` at each try) and a session reached the service only if the page was left.
 * The relay lists `'null'` (portals guide: "list 'null' only if you must"). A frame sandboxed without `allow-popups`
 * cannot open the web view's window, even from a click: the error says so, rather than only "open it from a click".
 */
import type { Frame } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, closeTab, endPlay, expectPlayTime, gameLog, openPortal, playALevel, playFor, playOnAfterReturn, pressPlay, removeGame, untilCount } from './portal-player.js';
import type { StudioGame } from './portal-sites.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable())('portal play in Chromium: a sandboxed game frame', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { allowOpaqueOrigin: true } }, 'localhost');
  let alpha: StudioGame;
  beforeAll(() => {
    alpha = world.sites.games['alpha']!;
  });

  it('a level played to its end is delivered by the flush that follows, while the page runs, with its full play time; no lock error', async () => {
    const player = 'sandboxed';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player, sandbox: 'allow-scripts' });
    // The point of the story: an opaque origin, in a secure context (Web Locks exist, and refuse it).
    expect(await tab.game.evaluate(() => [origin, isSecureContext, typeof navigator.locks])).toEqual(['null', true, 'object']);
    const level = await playALevel(tab, 2_100);
    // The page still runs: only the game's own flush can have sent it.
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(level.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, level.played);
    // The relay recorded it before the page read the answer, and the frame's messages reach the portal page later still.
    const flushed = async () => (await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'flushed').map((message) => message.detail);
    await expect.poll(flushed, ARRIVAL).toEqual([[`${level.sessionId} SUCCESS`]]);
    const log = await gameLog(tab.page, 'alpha');
    expect(log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    await closeTab(world.chromium.context, tab.page);
  });
  it.each(['the tab closed', 'the portal removes the frame'] as const)(
    '%s while a sandboxed game plays: the session held in memory leaves in that exit (a keepalive request from Origin null), recorded once with its full play time',
    async (how) => {
      const { context } = world.chromium;
      const player = `sandboxed-exit-${how === 'the tab closed' ? 'close' : 'remove'}`;
      const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player, sandbox: 'allow-scripts' });
      const playing = await pressPlay(tab.game);
      await playFor(tab.page, 2_600);
      const played = await endPlay(playing, () => (how === 'the tab closed' ? closeTab(context, tab.page) : removeGame(tab.page)));
      // Nothing of it is stored anywhere: only the exit request can bring it in.
      await untilCount(() => alpha.recorded(player).length, 1);
      expect(alpha.recorded(player)[0]!.sessionId).toBe(playing.sessionId);
      expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);
      if (how !== 'the tab closed') await closeTab(context, tab.page);
    },
  );

  it('the portal page navigated away and back (the back/forward cache) while a sandboxed game plays: each part, held in memory only, reaches the relay once, the time in the cache counted in neither', async () => {
    const { context } = world.chromium;
    const player = 'sandboxed-bfcache';
    const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player, sandbox: 'allow-scripts' });
    const first = await pressPlay(tab.game);
    await playFor(tab.page, 2_600);
    const firstPlayed = await endPlay(first, () => tab.page.goto(`${world.sites.origin('elsewhere')}/`));
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(first.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, firstPlayed);
    await playFor(tab.page, 2_000); // on the other site: not play time

    // Restored from the cache, not reloaded: the sandboxed frame too (its pageshow persisted).
    const { continuationId, continuation } = await playOnAfterReturn(tab.page);
    await playFor(tab.page, 2_600);
    const log = await gameLog(tab.page, 'alpha');
    const secondPlayed = await endPlay(continuation, () => closeTab(context, tab.page));

    await untilCount(() => alpha.recorded(player).length, 2);
    const second = alpha.recorded(player).find((session) => session.sessionId === continuationId)!;
    const firstPart = alpha.recorded(player).find((session) => session.sessionId === first.sessionId)!;
    expectPlayTime(firstPart.durationSeconds + second.durationSeconds, { minMs: firstPlayed.minMs + secondPlayed.minMs, maxMs: firstPlayed.maxMs + secondPlayed.maxMs });
    expect(log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    // Nothing marks a part sent in storage here: the later exits of the hidden page (freeze, resume, the close) must not send it again.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(alpha.received.filter((id) => id === first.sessionId)).toEqual([first.sessionId]);
    expect(alpha.received.filter((id) => id === continuationId)).toEqual([continuationId]);
  });

  /** The game's page makes a `webView: { mode: 'window' }` facade and a button that opens the web view; the player clicks it. */
  const openWindowFromClick = async (game: Frame, player: string) => {
    await game.evaluate(
      ({ clientKey, emulatorUrl, player }) => {
        const page = window as unknown as { GameCampaign: any; outcome?: string };
        const gc = page.GameCampaign.createGameCampaign({
          clientKey,
          environment: { baseUrl: emulatorUrl },
          relay: { url: location.origin.replace('//cdn.', '//studio.') + '/alpha/campaign', headers: async () => ({ authorization: 'Bearer ' + player }) },
          userId: player,
          browser: { webView: { mode: 'window' } },
        });
        const button = document.body.appendChild(document.createElement('button'));
        button.id = 'campaign';
        button.onclick = () =>
          gc.webview.open({ campaignId: 'cmp_spring_festival' }).then(
            (handle: { close(): void }) => ((page.outcome = 'opened'), handle.close()),
            (error: Error) => (page.outcome = error.message),
          );
      },
      { clientKey: alpha.clientKey, emulatorUrl: alpha.emulator.url, player },
    );
    await game.click('#campaign');
    await game.waitForFunction(() => (window as unknown as { outcome?: string }).outcome !== undefined);
    return game.evaluate(() => (window as unknown as { outcome: string }).outcome);
  };

  it('the web view window from a click in a frame sandboxed without allow-popups: open() rejects naming allow-popups; with it, the window opens', async () => {
    const { context } = world.chromium;
    const blocked = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player: 'no-popups', sandbox: 'allow-scripts allow-same-origin' });
    expect(await openWindowFromClick(blocked.game, 'no-popups')).toMatch(/blocked the web view window.*allow-popups/);
    await closeTab(context, blocked.page);

    const allowed = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player: 'popups', sandbox: 'allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox' });
    expect(await openWindowFromClick(allowed.game, 'popups')).toBe('opened');
    await closeTab(context, allowed.page);
  });

  it('the web view window from a click under a portal page sent with Cross-Origin-Opener-Policy: same-origin: the window shows the campaign page (not a blank window out of reach), and open() rejects naming that policy', async () => {
    // The game's frame is cross-origin to such a page, so window.open gives it no handle (HTML, "the rules for
    // choosing a navigable": noopener), though the window opens: on main it opened blank and stayed blank.
    const { context } = world.chromium;
    const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player: 'coop', coop: 'same-origin' });
    const opened = context.waitForEvent('page');
    const outcome = await openWindowFromClick(tab.game, 'coop');
    const popup = await opened;
    await expect.poll(() => popup.url(), { timeout: 10_000 }).toContain('/webview?ott=');
    await popup.locator('#app li').first().waitFor(); // it exchanged its token: the campaign is shown
    expect(outcome).toMatch(/gave no handle to it.*Cross-Origin-Opener-Policy: same-origin/);
    await popup.close();
    await closeTab(context, tab.page);
  });

  it.each(['allow-scripts', 'allow-scripts allow-same-origin'])(
    'the overlay web view in a frame sandboxed with "%s": the campaign page’s own Close button closes it',
    async (sandbox) => {
      const { context } = world.chromium;
      const player = `overlay-${sandbox.length}`;
      const tab = await openPortal(context, world.sites, { portal: 'portal', game: 'alpha', player, sandbox });
      await tab.game.evaluate(() => {
        const page = window as unknown as { gc: { webview: { open(options: object): Promise<{ closed: Promise<void> }> } }; overlay?: string };
        page.gc.webview.open({ campaignId: 'cmp_spring_festival' }).then(
          (handle) => ((page.overlay = 'open'), handle.closed.then(() => (page.overlay = 'closed'))),
          (error: Error) => (page.overlay = error.message),
        );
      });
      const campaignPage = tab.game.frameLocator('iframe');
      await campaignPage.locator('#app li').first().waitFor(); // the page exchanged its token and shows the campaign
      // The frame inherits the game's sandbox (HTML, "determine the creation sandboxing flags"): its origin is as opaque as the game's.
      const webviewFrame = tab.page.frames().find((frame) => frame.url().includes('/webview?ott='))!;
      expect(await webviewFrame.evaluate(() => origin)).toBe(sandbox.includes('allow-same-origin') ? new URL(alpha.emulator.url).origin : 'null');
      await campaignPage.locator('#close').click();
      await tab.game.waitForFunction(() => (window as unknown as { overlay?: string }).overlay === 'closed', undefined, { timeout: 10_000 });
      expect(await tab.game.evaluate(() => document.querySelector('dialog'))).toBeNull();
      await closeTab(context, tab.page);
    },
  );
});
