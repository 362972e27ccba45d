/**
 * Exits a player really makes that the other portal stories do not: the studio's relay answering the exit request's
 * CORS preflight slowly as the tab closes; the portal reloading the game's iframe; the whole browser closed right
 * after the game's `stop()` (not awaited), then opened again on the same profile; two tabs of one game where one is
 * closed while its flush waits for a slow studio server. Each session must be recorded once by the game's service, with its full play time.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { launchChromiumOverCdp, removeProfile, type CdpChromium } from './chromium-cdp.js';
import { ARRIVAL, closeTab, endPlay, expectPlayTime, flushNow, gameLog, openPortal, playALevel, playFor, pressPlay, untilCount } from './portal-player.js';
import { startPortalSites, type PortalSites, type StudioGame } from './portal-sites.js';

const problems = (log: Array<{ type: string }>) => log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped');

describe.runIf(chromiumAvailable())('portal play in Chromium: hostile exits', { timeout: 120_000 }, () => {
  let sites: PortalSites;
  let alpha: StudioGame;
  let chromium: CdpChromium;
  beforeAll(async () => {
    sites = await startPortalSites({ alpha: {} });
    alpha = sites.games['alpha']!;
    chromium = await launchChromiumOverCdp();
  });
  afterAll(async () => {
    await chromium?.close();
    await sites?.close();
  });

  // 20 s: what portals.md says of Chromium (probed on 150). Each on a portal of its own: Chromium keeps a preflight's
  // answer per top-level site (for the relay's `Access-Control-Max-Age`), and one held would let the request out at once.
  it.each([
    [2_500, 'portal'],
    [20_000, 'arcade'],
  ] as const)('the tab closed while the studio answers CORS preflights slowly (%i ms, on %s): the exit request still leaves after its preflight and the session is recorded once with its full play time', async (delayMs, portal) => {
    const player = `slow-preflight-${delayMs}`;
    const tab = await openPortal(chromium.context, sites, { portal, game: 'alpha', player });
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 3_600);
    const preflights = alpha.preflights;
    alpha.preflightDelayMs = delayMs;
    try {
      const played = await endPlay(playing, () => closeTab(chromium.context, tab.page));
      await expect.poll(() => alpha.recorded(player).length, { ...ARRIVAL, timeout: delayMs + ARRIVAL.timeout }).toBe(1);
      expect(alpha.preflights).toBeGreaterThan(preflights); // the exit's own preflight, answered after the document was gone
      // One request carried it: the close's visibilitychange, then its pagehide (told again to a hidden page), send once.
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // a second request, if any, would be in by then
      expect(alpha.received.filter((id) => id === playing.sessionId)).toEqual([playing.sessionId]);
      const [session] = alpha.recorded(player);
      expect(session!.sessionId).toBe(playing.sessionId);
      expectPlayTime(session!.durationSeconds, played);
    } finally {
      alpha.preflightDelayMs = 0;
    }
  });

  // A new query: the portal passing the game a setting of its own (a language, a level) as it reloads it; same origin.
  it.each([
    ['its src set again', 'iframe-reloaded', ''],
    ['a new query on the same address', 'iframe-new-query', '&lang=de'],
  ] as const)('the portal reloads the game’s iframe (%s) while it plays: the session is recorded once with its full play time, and the reloaded game reports nothing wrong', async (_, player, query) => {
    const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 3_600);
    const readyBefore = (await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'ready').length;
    const played = await endPlay(playing, () =>
      tab.page.evaluate((added) => {
        const frame = document.getElementById('game') as HTMLIFrameElement;
        frame.src = frame.src + added; // the portal reloads its game frame
      }, query)
    );
    await expect.poll(async () => (await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'ready').length, ARRIVAL).toBe(readyBefore + 1);
    await untilCount(() => alpha.recorded(player).length, 1);
    const game = tab.page.frames().find((frame) => frame.url().startsWith(`${sites.origin('cdn')}/alpha/`))!;
    await flushNow(game);
    const [session] = alpha.recorded(player);
    expect(session!.sessionId).toBe(playing.sessionId);
    expectPlayTime(session!.durationSeconds, played);
    expect(problems(await gameLog(tab.page, 'alpha'))).toEqual([]);
    await closeTab(chromium.context, tab.page);
    expect(alpha.recorded(player)).toEqual([session]);
  });

  it('two tabs of the game for one player, one closed while its flush waits on a slow studio server: every session is recorded once and the other tab reports nothing wrong', async () => {
    const player = 'two-tabs-mid-flush';
    const first = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    const second = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    const levels = [await playALevel(first, 1_600)];
    // Two more levels in the first tab, ended but not yet sent; its flush then meets a studio server answering slowly.
    for (const ms of [1_300, 1_300]) {
      const playing = await pressPlay(first.game);
      await playFor(first.page, ms);
      const played = await endPlay(playing, () => first.game.evaluate(() => (window as unknown as { endLevel(): Promise<void> }).endLevel()));
      levels.push({ sessionId: playing.sessionId, played });
    }
    await untilCount(() => alpha.recorded(player).length, 1);
    alpha.postDelayMs = 3_000;
    const received = alpha.received.length;
    const posts = alpha.posts;
    try {
      void first.game.evaluate(() => void (window as unknown as { gc: { tracker: { flush(): Promise<void> } } }).gc.tracker.flush());
      await expect.poll(() => alpha.posts, ARRIVAL).toBeGreaterThan(posts); // the flush's request is at the studio's server, held there
      await closeTab(chromium.context, first.page);
      alpha.postDelayMs = 0;
      await expect
        .poll(async () => {
          await flushNow(second.game);
          return alpha.recorded(player).length;
        }, ARRIVAL)
        .toBe(3);
      expect(alpha.received.length).toBeGreaterThan(received);
      const recorded = alpha.recorded(player);
      expect(recorded.map((session) => session.sessionId).sort()).toEqual(levels.map((level) => level.sessionId).sort());
      for (const level of levels) expectPlayTime(recorded.find((session) => session.sessionId === level.sessionId)!.durationSeconds, level.played);
      expect(problems(await gameLog(second.page, 'alpha'))).toEqual([]);
      await closeTab(chromium.context, second.page);
      expect(alpha.recorded(player)).toEqual(recorded);
    } finally {
      alpha.postDelayMs = 0;
    }
  });
});

describe.runIf(chromiumAvailable())('portal play in Chromium: the whole browser closed', { timeout: 120_000 }, () => {
  let sites: PortalSites;
  let alpha: StudioGame;
  beforeAll(async () => {
    sites = await startPortalSites({ alpha: {} });
    alpha = sites.games['alpha']!;
  });
  afterAll(async () => sites?.close());

  // Chromium shutting down does not let the exit request out (its CORS preflight reaches the studio, the POST never): the session waits in
  // storage, which must hold it with its full play time although stop() was not awaited, for the next start.
  it('the game calls stop() (not awaited) and the player quits the browser at once: opened again on the same profile, the game sends the session once with its full play time', async () => {
    const player = 'quit';
    const profile = mkdtempSync(join(tmpdir(), 'gc-portal-profile-'));
    try {
      const before = await launchChromiumOverCdp({ profile });
      let playing;
      let played;
      try {
        const tab = await openPortal(before.context, sites, { portal: 'portal', game: 'alpha', player });
        playing = await pressPlay(tab.game);
        await playFor(tab.page, 2_600);
        const cdp = await before.browser.newBrowserCDPSession();
        played = await endPlay(playing, async () => {
          await tab.game.evaluate(() => void (window as unknown as { endLevel(): Promise<void> }).endLevel());
          await cdp.send('Browser.close').catch(() => undefined); // the browser ends before it can answer
        });
      } finally {
        await before.close();
      }
      const exitArrived = alpha.recorded(player).length;

      // The player opens the browser again and goes back to the portal.
      const after = await launchChromiumOverCdp({ profile });
      try {
        const tab = await openPortal(after.context, sites, { portal: 'portal', game: 'alpha', player });
        const flushed = async () => (await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'flushed').map((message) => message.detail);
        await expect
          .poll(async () => {
            await flushNow(tab.game);
            return flushed();
          }, ARRIVAL)
          .toEqual([[`${playing.sessionId} ${exitArrived ? 'SKIPPED' : 'SUCCESS'}`]]);
        expect(problems(await gameLog(tab.page, 'alpha'))).toEqual([]);
      } finally {
        await after.close();
      }
      const [session] = alpha.recorded(player);
      expect(alpha.recorded(player)).toEqual([session]);
      expect(session!.sessionId).toBe(playing.sessionId);
      expectPlayTime(session!.durationSeconds, played);
    } finally {
      removeProfile(profile);
    }
  });
});
