/**
 * A portal player switches to another tab for longer than the game's `backgroundTimeoutMs` and comes back, in
 * Chromium with its defaults. The tab is really hidden: another tab opened in front of it over the DevTools protocol
 * (Playwright's focus emulation would keep the page visible, README "A tab frozen, then discarded"). The player
 * back after a long tab switch plays on tracked: the session sent when the page was hidden is continued by a new
 * one, however long the page was hidden (docs/decisions.md "Continued after a long background"). The game keeps
 * its background time-out short (1 s) so the story stays short: hidden 2.5 s is well beyond it.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_ACTIVE_CAMPAIGN_ID } from '../../../emulator/index.js';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, endPlay, expectPlayTime, untilCount } from './portal-player.js';
import { rawPortalWorld } from './portal-world.js';
import { told as toldBy, type RawBrowser, type RawPortalTab } from './raw-cdp.js';

const BACKGROUND_TIMEOUT_MS = 1_000;
/** How long the other tab stays in front: well beyond the time-out, so no slow machine makes it look shorter. */
const HIDDEN_MS = 2_500;
/** Each part played: past the 1 s minimum session, short of the 15 s checkpoint. */
const PLAY_MS = 2_200;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(chromiumAvailable())('portal play in Chromium: back after a long tab switch', { timeout: 60_000 }, () => {
  const world = rawPortalWorld({ alpha: { backgroundTimeoutMs: BACKGROUND_TIMEOUT_MS } });
  /** What the game told its portal page, of `type`. */
  const told = (tab: RawPortalTab, type: Parameters<typeof toldBy>[2]) => toldBy(tab, 'alpha', type);

  it('hidden longer than backgroundTimeoutMs, then shown: the game plays on in a session continuing the first (same campaign), each recorded once, the hidden span counted in neither', async () => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'long-tab-switch';
    const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
    expect(await tab.evaluate('game', 'document.visibilityState')).toBe('visible');
    const pressedAt = Date.now();
    const firstId = await tab.evaluate<string>('game', 'window.play()');
    const first = { pressedAt, startedAt: Date.now() };
    await wait(PLAY_MS);

    // The player opens another tab: the portal's tab (and the game's frame in it) is hidden, not frozen.
    let elsewhere: Awaited<ReturnType<RawBrowser['openTab']>> | undefined;
    const firstPlayed = await endPlay(first, async () => (elsewhere = await raw.openTab(`${sites.origin('elsewhere')}/`)));
    const hiddenFrom = Date.now();
    await expect.poll(() => tab.evaluate('game', 'document.visibilityState'), ARRIVAL).toBe('hidden');
    expect(await told(tab, 'session:end')).toEqual([expect.objectContaining({ sessionId: firstId, reason: 'hidden' })]);
    // Hiding may be final on the web: the first part is sent at once.
    await untilCount(() => alpha.recorded(player).length, 1);
    await wait(HIDDEN_MS - (Date.now() - hiddenFrom)); // hidden at least HIDDEN_MS, whatever the waits above took

    // Back to the game's tab, long after the time-out: the tracker continues by itself (no Play pressed).
    const backAt = Date.now();
    await tab.activate();
    await expect.poll(async () => (await told(tab, 'session:start')).length, ARRIVAL).toBe(2);
    const second = { pressedAt: backAt, startedAt: Date.now() };
    const [, continuation] = (await told(tab, 'session:start')) as Array<{ sessionId: string; continues?: string }>;
    expect(continuation!.continues).toBe(firstId);
    await wait(PLAY_MS);
    const problems = (await tab.log()).filter((message) => ['error', 'thrown', 'dropped'].includes(message.type));
    const secondPlayed = await endPlay(second, () => tab.close());

    // The tab closed: the continuation arrives in that exit.
    await untilCount(() => alpha.recorded(player).length, 2);
    const recorded = alpha.recorded(player);
    const firstPart = recorded.find((session) => session.sessionId === firstId)!;
    const secondPart = recorded.find((session) => session.sessionId === continuation!.sessionId)!;
    expect(firstPart).toBeDefined();
    expect(secondPart).toBeDefined();
    expect(secondPart.campaignId).toBe(firstPart.campaignId);
    expect(firstPart.campaignId).toBe(DEMO_ACTIVE_CAMPAIGN_ID);
    // Each part its own play time; together the time played in front, the hidden span in neither (a continuation
    // carries the part of a second its predecessor played beyond its whole seconds, so the sum is the exact check).
    expectPlayTime(firstPart.durationSeconds, firstPlayed);
    expectPlayTime(firstPart.durationSeconds + secondPart.durationSeconds, {
      minMs: firstPlayed.minMs + secondPlayed.minMs,
      maxMs: firstPlayed.maxMs + secondPlayed.maxMs,
    });
    expect(problems).toEqual([]);
    await elsewhere?.close();
    expect(alpha.recorded(player)).toHaveLength(2);
  });
});
