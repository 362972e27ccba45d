/**
 * A player on hotel or train Wi-Fi, in Chromium with its defaults (the game in a cross-site iframe under the
 * portal, its relay on the studio's site behind `cors`): until the player logs in, a captive portal answers in
 * the relay's place. The SDK must keep the session queued, whatever that answer looks like, and deliver it
 * once the real relay answers.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, closeTab, endLevel, endPlay, expectPlayTime, flushNow, gameLog, openPortal, playFor, pressPlay, untilCount } from './portal-player.js';
import type { GameMessage } from './portal-pages.js';
import type { StudioGame } from './portal-sites.js';
import { portalWorld } from './portal-world.js';

describe.runIf(chromiumAvailable())('portal play in Chromium: a captive portal in front of the relay', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: {} });
  let alpha: StudioGame;
  beforeAll(() => {
    alpha = world.sites.games['alpha']!;
  });

  const relayErrors = (log: GameMessage[]) => log.filter((message) => message.type === 'error').map((message) => String(message.detail));

  /**
   * Plays a level while `front` answers for the relay; the game keeps trying to send it (a flush per poll, as its
   * timers and triggers would), until it has heard a `relay` error when `reported`, else four times; then twice
   * more. Then the real relay answers and the game flushes once more.
   */
  async function levelBehind(front: 'login-page' | 'intercept', player: string, reported: boolean) {
    const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
    alpha.front = front;
    const before = alpha.notRelayed;
    const { sessionId, ...playing } = await pressPlay(tab.game);
    await playFor(tab.page, 2_100);
    const played = await endPlay(playing, () => endLevel(tab.game));
    if (reported) {
      await expect
        .poll(async () => {
          await flushNow(tab.game);
          return relayErrors(await gameLog(tab.page, 'alpha')).length;
        }, ARRIVAL)
        .toBeGreaterThan(0);
    } else for (let i = 0; i < 4; i++) await flushNow(tab.game);
    await flushNow(tab.game);
    await flushNow(tab.game);
    const behind = await gameLog(tab.page, 'alpha');
    expect(alpha.notRelayed).toBeGreaterThan(before); // the SDK really met the captive portal
    expect(alpha.recorded(player)).toEqual([]);

    alpha.front = 'relay'; // the player logged in to the Wi-Fi
    await flushNow(tab.game);
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);
    // The relay recorded it before the page read its answer; the frame's messages reach the portal page later still.
    await expect.poll(async () => (await gameLog(tab.page, 'alpha')).some((message) => message.type === 'flushed'), ARRIVAL).toBe(true);
    const after = await gameLog(tab.page, 'alpha');
    await closeTab(world.chromium.context, tab.page);
    return { sessionId, behind, after };
  }

  it('a 200 text/html login page where the relay should be: the session stays queued, nothing is dropped, and it is delivered once the real relay answers', async () => {
    const { sessionId, behind, after } = await levelBehind('login-page', 'wifi-login-page', false);
    expect(behind.filter((message) => message.type === 'dropped' || message.type === 'thrown')).toEqual([]);
    // It may be told as a misconfigured relay (kind `relay`), once at most.
    expect(relayErrors(behind).length).toBeLessThanOrEqual(1);
    expect(relayErrors(behind).every((error) => error.startsWith('relay: '))).toBe(true);
    expect(behind.filter((message) => message.type === 'flushed')).toEqual([]); // no acknowledgement was made up from the page
    expect(after.filter((message) => message.type === 'flushed').flatMap((message) => message.detail as string[])).toEqual([`${sessionId} SUCCESS`]);
  });

  it('a captive portal that intercepts every request (no CORS answer, so the fetch fails while the browser is online): the session stays queued, the game hears one `relay` error, and it is delivered once the real relay answers', async () => {
    const { behind, after } = await levelBehind('intercept', 'wifi-intercepted', true);
    expect(behind.filter((message) => message.type === 'dropped' || message.type === 'thrown')).toEqual([]);
    // Once, however often it failed, naming what to check (CORS first: the likeliest cause on a portal).
    expect(relayErrors(after)).toEqual([expect.stringMatching(/^relay: .*CORS/)]);
  });
});
