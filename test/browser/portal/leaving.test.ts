/**
 * Portal players leaving, in Chromium with its defaults (storage partitioning and the back/forward cache on):
 * the game in a cross-site iframe under a portal page, its relay on a third site behind `cors`. Many portal
 * players never come back, so a session must reach the service in the exit itself, with its full play time,
 * and be recorded once. The game keeps the default tracker timings (a 15 s checkpoint), as most games do.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { launchChromiumOverCdp, startChromium, type CdpChromium } from './chromium-cdp.js';
import { connectRaw } from './raw-cdp.js';
import { ARRIVAL, closeTab, embedAgain, endPlay, expectPlayTime, flushNow, gameLog, openPortal, playFor, playOnAfterReturn, pressPlay, removeGame, untilCount } from './portal-player.js';
import { startPortalSites, type PortalSites, type SiteDomain, type StudioGame } from './portal-sites.js';

const DOMAINS: Array<[SiteDomain, string]> = [
  ['test', 'plain http, no Web Locks: the lease lives in IndexedDB'],
  ['localhost', 'a secure context: Web Locks'],
];

describe.runIf(chromiumAvailable())('portal play in Chromium: leaving', { timeout: 120_000 }, () => {
  let chromium: CdpChromium;
  beforeAll(async () => void (chromium = await launchChromiumOverCdp()));
  afterAll(async () => chromium?.close());

  describe.each(DOMAINS)('on *.%s (%s)', (domain) => {
    let sites: PortalSites;
    let alpha: StudioGame;

    beforeAll(async () => {
      sites = await startPortalSites({ alpha: {} }, domain);
      alpha = sites.games['alpha']!;
    });

    afterAll(async () => sites?.close());

    /** The player's next visit: its start-up flush settles, and it reports no problem. */
    async function nextVisit(player: string) {
      const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
      await flushNow(tab.game);
      expect((await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'error' || message.type === 'thrown')).toEqual([]);
      await closeTab(chromium.context, tab.page);
    }

    it.each(['page.close', 'Target.closeTarget'] as const)(
      'the tab closed while playing (%s): the session arrives in that exit with its full play time, recorded once',
      async (how) => {
        const player = `closer-${how.replace('.', '-')}-${domain}`;
        const requestsBefore = sites.cdnRequests.length;
        const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
        expect(await tab.game.evaluate(() => isSecureContext && navigator.locks !== undefined)).toBe(domain === 'localhost');
        const playing = await pressPlay(tab.game);
        await playFor(tab.page, 3_600);
        const played = await endPlay(playing, () => closeTab(chromium.context, tab.page, how));

        // No page of the game is open any more: only a request sent in the exit can bring the session in.
        await untilCount(() => alpha.recorded(player).length, 1);
        const [session] = alpha.recorded(player);
        expect(session!.sessionId).toBe(playing.sessionId);
        expectPlayTime(session!.durationSeconds, played);

        // What the game asked its CDN for: its page and the <script> bundle, which holds all the tracker needs at
        // every start; the lease lock only where Web Locks are missing.
        const startUp = ['/alpha/index.html', '/alpha/game-campaign.iife.js', ...(domain === 'test' ? ['/alpha/game-campaign.lease-lock.js'] : [])];
        expect([...new Set(sites.cdnRequests.slice(requestsBefore))].sort()).toEqual(startUp.sort());

        // A copy still in storage goes out on the next visit and is answered SKIPPED: one record, unchanged.
        await nextVisit(player);
        expect(alpha.recorded(player)).toEqual([session]);
      }
    );

    it.each(['the tab closed', 'the portal page reloaded'] as const)(
      '%s while playing and its exit request lost (the relay unreachable at that moment): the next visit delivers the session from storage with its full play time, not its last checkpoint',
      async (how) => {
        const player = `lost-exit-${how === 'the tab closed' ? 'close' : 'reload'}-${domain}`;
        const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
        const playing = await pressPlay(tab.game);
        // Past the first checkpoint (1 s) and well short of the next (15 s): only the exit's own writes hold this time.
        await playFor(tab.page, 3_600);
        alpha.front = 'down'; // the exit request fails: offline as the player leaves, or a browser that cancels keepalive
        const received = alpha.received.length;
        try {
          const played = await endPlay(playing, () => (how === 'the tab closed' ? closeTab(chromium.context, tab.page) : tab.page.reload({ waitUntil: 'commit' })));
          await new Promise((resolve) => setTimeout(resolve, 1_000)); // whatever the exit sent meets the unreachable relay
          alpha.front = 'relay';
          expect(alpha.received.length).toBe(received);
          expect(alpha.recorded(player)).toEqual([]);

          // The next visit (a new tab, or the reloaded page) sends what the exit left stored.
          const next = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player }, how === 'the tab closed' ? undefined : tab.page);
          await expect
            .poll(async () => {
              await flushNow(next.game);
              return alpha.recorded(player).length;
            }, ARRIVAL)
            .toBe(1);
          const [session] = alpha.recorded(player);
          expect(session!.sessionId).toBe(playing.sessionId);
          expectPlayTime(session!.durationSeconds, played);
          await closeTab(chromium.context, next.page);
        } finally {
          alpha.front = 'relay';
        }
      }
    );

    it.each(['reaches the relay', 'is lost (the relay unreachable at that moment)'] as const)(
      'the portal removes the game’s iframe while it plays, the tab open (a single-page portal moving on to another game), and the exit request %s: the session is recorded once with its full play time, by that exit or by the game embedded again in the same page',
      async (exit) => {
        const lost = exit !== 'reaches the relay';
        const player = `removed-${lost ? 'lost' : 'sent'}-${domain}`;
        const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
        const playing = await pressPlay(tab.game);
        await playFor(tab.page, 3_600);
        if (lost) alpha.front = 'down';
        try {
          const played = await endPlay(playing, () => removeGame(tab.page));
          if (lost) {
            await new Promise((resolve) => setTimeout(resolve, 1_000)); // whatever the exit sent meets the unreachable relay
            alpha.front = 'relay';
            expect(alpha.recorded(player)).toEqual([]);
          } else {
            // The portal page still runs, the game's document is gone: only its exit request can bring the session in.
            await untilCount(() => alpha.recorded(player).length, 1);
          }

          // The player picks the game again on the portal: its page finds what the removed one left stored and sends it
          // (answered SKIPPED when the exit delivered it), with no wait for the removed page's lock.
          const again = await embedAgain(tab.page, sites, { game: 'alpha', player });
          const flushed = async () => (await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'flushed').map((message) => message.detail);
          await expect
            .poll(async () => {
              await flushNow(again.game);
              return flushed();
            }, ARRIVAL)
            .toEqual([[`${playing.sessionId} ${lost ? 'SUCCESS' : 'SKIPPED'}`]]);
          const [session] = alpha.recorded(player);
          expect(alpha.recorded(player)).toEqual([session]);
          expect(session!.sessionId).toBe(playing.sessionId);
          expectPlayTime(session!.durationSeconds, played);
          expect((await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
          await closeTab(chromium.context, tab.page);
        } finally {
          alpha.front = 'relay';
        }
      }
    );

    it('a mobile browser hides and freezes the tab while the game plays, then discards it (the renderer killed): the session arrives in that exit with its full play time, recorded once; the copy left in storage is answered SKIPPED on the next visit', async () => {
      // Nothing of Playwright on these pages: its focus emulation keeps a page visible and unfreezable (./raw-cdp.ts).
      const browser = await startChromium();
      const raw = await connectRaw(browser.endpoint);
      try {
        const player = `frozen-${domain}`;
        const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
        const pressedAt = Date.now();
        const sessionId = await tab.evaluate<string>('game', 'window.play()');
        const playing = { pressedAt, startedAt: Date.now() };
        await new Promise((resolve) => setTimeout(resolve, 3_600)); // real play: leaving is about a real page
        // Hidden, then frozen (`visibilitychange`, then `freeze`): the page's last events before a discard.
        const played = await endPlay(playing, () => tab.send('page', 'Page.setWebLifecycleState', { state: 'frozen' }));
        // Frozen, the page runs nothing more (its own flush stopped at its first storage read): only the request sent
        // within its events can bring the session in.
        await untilCount(() => alpha.recorded(player).length, 1);
        const [session] = alpha.recorded(player);
        expect(session!.sessionId).toBe(sessionId);
        expectPlayTime(session!.durationSeconds, played);
        // Discarded: the game's renderer is killed.
        await tab.crashGame();

        // The next visit finds what the frozen page left stored (its last checkpoint at least: writes begun in the
        // exit need not commit before a page freezes) and sends it once the page that left no longer holds it (at
        // once with Web Locks, which die with the renderer; when its lease runs out without them): the service
        // answers SKIPPED, and its record stays the exit's.
        const next = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
        const flushed = async () => (await next.log()).filter((message) => message.game === 'alpha' && message.type === 'flushed').map((message) => message.detail);
        await expect.poll(flushed, ARRIVAL).toEqual([[`${sessionId} SKIPPED`]]);
        const log = (await next.log()).filter((message) => message.game === 'alpha');
        expect(log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
        expect(alpha.recorded(player)).toEqual([session]);
      } finally {
        raw.close();
        await browser.close();
      }
    });

    it('the portal page navigated to another site while the game plays: delivered in that exit; back from the back/forward cache the game plays on in a new session, no time lost or counted twice', async () => {
      const player = 'navigator';
      const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
      const first = await pressPlay(tab.game);
      await playFor(tab.page, 3_600);
      const firstPlayed = await endPlay(first, () => tab.page.goto(`${sites.origin('elsewhere')}/`));

      await untilCount(() => alpha.recorded(player).length, 1);
      expect(alpha.recorded(player)[0]!.sessionId).toBe(first.sessionId);
      expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, firstPlayed);
      await playFor(tab.page, 2_000); // the player looks at the other site for a while: not play time

      // Back: the portal page and the game's frame are restored from the back/forward cache, not reloaded (the
      // portal's log from before is still there). A page restored this way shows bfcache is really on here.
      // The game plays on after the return (the player did not press Play again): a new session carries it.
      const { continuationId, continuation } = await playOnAfterReturn(tab.page);
      expect(await gameLog(tab.page)).toEqual(expect.arrayContaining([{ game: '(portal)', type: 'pageshow', detail: true }]));
      expect((await gameLog(tab.page)).filter((message) => message.type === 'pageshow' && message.detail === false).length).toBe(2); // the first load only
      await playFor(tab.page, 2_600);
      const log = await gameLog(tab.page, 'alpha');
      const secondPlayed = await endPlay(continuation, () => closeTab(chromium.context, tab.page));

      await untilCount(() => alpha.recorded(player).length, 2);
      const second = alpha.recorded(player).find((session) => session.sessionId !== first.sessionId)!;
      expect(second.sessionId).toBe(continuationId);
      // The parts add up to the time really played, in the foreground only: a continuation carries the part of a
      // second its predecessor played beyond its whole seconds, so splitting loses nothing to rounding.
      const both = { minMs: firstPlayed.minMs + secondPlayed.minMs, maxMs: firstPlayed.maxMs + secondPlayed.maxMs };
      const firstPart = alpha.recorded(player).find((session) => session.sessionId === first.sessionId)!;
      expectPlayTime(firstPart.durationSeconds + second.durationSeconds, both);
      expect(log.filter((message) => message.type === 'error' || message.type === 'thrown')).toEqual([]);
      // Each part reached the relay once: the hidden page's later events (visibilitychange after pagehide, freeze into
      // the cache, resume before it is shown, the close) are each an exit again, and none resent what an exit carried.
      await new Promise((resolve) => setTimeout(resolve, 500)); // the tab is closed: a resend would come now
      expect(alpha.received.filter((id) => id === first.sessionId)).toEqual([first.sessionId]);
      expect(alpha.received.filter((id) => id === continuationId)).toEqual([continuationId]);
      await nextVisit(player);
      expect(alpha.recorded(player).length).toBe(2);
    });
  });
});
