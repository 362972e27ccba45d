/**
 * What a game's own page does to the SDK before it loads, in Chromium: a speed-hack extension's `Date.now` running
 * four times as fast while the game plays (content scripts patch it at document start), and an analytics SDK's
 * instrumentation (Sentry-style) wrapping `window.fetch` and passing on only the method, headers and body: no
 * `keepalive`, no `signal`; and the page's Content-Security-Policy leaving the studio's relay out of `connect-src`.
 * Each session must be recorded once, with the time really played, or what keeps it from the relay be reported.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, closeTab, endLevel, endPlay, expectFlushAnswers, expectPlayTime, flushNow, gameLog, openPortal, playALevel, playFor, pressPlay, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

const problems = (log: Array<{ type: string }>) => log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped');

/** A speed hack: `Date.now` runs 4 times as fast from the page's load (`new Date()` and `performance.now` untouched). */
const SPEED_HACK = `(() => { const realNow = Date.now; const from = realNow(); Date.now = () => from + (realNow() - from) * 4; })();`;

/** Instrumentation that rebuilds every request's options from method, headers and body, dropping `keepalive` and `signal`. */
const FETCH_WRAPPER = `(() => {
  const original = window.fetch;
  window.fetch = function (input, init) {
    window.wrappedFetches = (window.wrappedFetches || 0) + 1;
    return original.call(this, input, init && { method: init.method, headers: init.headers, body: init.body });
  };
})();`;

describe.runIf(chromiumAvailable())('portal play in Chromium: a speed hack’s Date.now', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { beforeSdk: SPEED_HACK } });

  it('a level played and sent, another played and the tab closed, Date.now running 4x: each recorded once with the time really played', async () => {
    const alpha = world.sites.games['alpha']!;
    const player = 'speed-hack';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    expect(await tab.game.evaluate(() => Date.now() - new Date().getTime())).toBeGreaterThan(0); // the hack is on
    const level = await playALevel(tab, 2_600);
    await untilCount(() => alpha.recorded(player).length, 1);
    const second = await pressPlay(tab.game);
    await playFor(tab.page, 2_600);
    const log = problems(await gameLog(tab.page, 'alpha'));
    const secondPlayed = await endPlay(second, () => closeTab(world.chromium.context, tab.page));
    await untilCount(() => alpha.recorded(player).length, 2);
    const recorded = (id: string) => alpha.recorded(player).find((session) => session.sessionId === id)!;
    expectPlayTime(recorded(level.sessionId).durationSeconds, level.played);
    expectPlayTime(recorded(second.sessionId).durationSeconds, secondPlayed);
    expect(log).toEqual([]);
  });
});

describe.runIf(chromiumAvailable())('portal play in Chromium: instrumentation that drops keepalive and signal from fetch', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { beforeSdk: FETCH_WRAPPER } });

  it('a level played and sent through the wrapper, another played and the tab closed (its exit request no longer keepalive): the next visit brings it, each recorded once with its play time', async () => {
    const alpha = world.sites.games['alpha']!;
    const player = 'fetch-wrapper';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const level = await playALevel(tab, 2_000);
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(await tab.game.evaluate(() => (window as unknown as { wrappedFetches?: number }).wrappedFetches)).toBeGreaterThan(0); // the SDK's requests go through it
    const second = await pressPlay(tab.game);
    await playFor(tab.page, 2_600);
    const secondPlayed = await endPlay(second, () => closeTab(world.chromium.context, tab.page));

    // The exit request may or may not have left before the page was gone; storage holds the session either way.
    const next = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    await expect
      .poll(async () => {
        await flushNow(next.game);
        return alpha.recorded(player).length;
      }, ARRIVAL)
      .toBe(2);
    const recorded = alpha.recorded(player).find((session) => session.sessionId === second.sessionId)!;
    expectPlayTime(recorded.durationSeconds, secondPlayed);
    expect(alpha.recorded(player).map((session) => session.sessionId).sort()).toEqual([level.sessionId, second.sessionId].sort());
    expect(problems(await gameLog(next.page, 'alpha'))).toEqual([]);
    await endLevel(next.game);
    await closeTab(world.chromium.context, next.page);
  });
});

describe.runIf(chromiumAvailable())('portal play in Chromium: a Content-Security-Policy that blocks the relay', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { cspBlocksRelay: true } });

  it('connect-src leaves the relay out: the game is told the relay is unreachable (sessions kept), nothing is dropped; with the policy fixed, the next visit sends the session with its play time', async () => {
    const alpha = world.sites.games['alpha']!;
    const player = 'csp-blocked';
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 1_600);
    const played = await endPlay(playing, () => endLevel(tab.game));
    // The game flushes (its flush button, a level end): each request is refused by the page's policy, before the network.
    const errors = async () => (await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'error').map((message) => String(message.detail));
    await expect
      .poll(async () => {
        await flushNow(tab.game);
        return errors();
      }, ARRIVAL)
      .toEqual([expect.stringMatching(/^relay: Error: Relay http:\/\/studio\.test:\d+\/alpha\/campaign unreachable 3 times while online .*; sessions kept$/)]);
    expect(alpha.posts + alpha.preflights).toBe(0); // nothing reached the studio
    expect((await gameLog(tab.page, 'alpha')).filter((message) => message.type === 'dropped' || message.type === 'thrown')).toEqual([]);
    await closeTab(world.chromium.context, tab.page); // its exit is refused too
    expect(alpha.recorded(player)).toEqual([]);

    alpha.settings.cspBlocksRelay = false; // the studio fixes its page's policy
    const next = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    await expectFlushAnswers(next, [`${playing.sessionId} SUCCESS`]);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);
    expect(problems(await gameLog(next.page, 'alpha'))).toEqual([]);
    await closeTab(world.chromium.context, next.page);
  });
});
