/**
 * A portal tab whose game frame is sandboxed without `allow-same-origin` (its origin opaque, so IndexedDB and Web
 * Locks are refused and the SDK holds its data in memory only): the player switches to another tab, the browser
 * freezes the hidden one and later lets it run again (`Page.setWebLifecycleState` `frozen`, then `active`: `freeze`,
 * then `resume`, the page still hidden), the player shows it again (`Target.activateTarget`) and closes it. The part
 * played before the tab switch can only leave in that exit (nothing is stored); the time hidden or frozen is play time
 * in no part; nothing reaches the relay twice, though nothing in storage marks a part sent. Driven over raw CDP:
 * Playwright's focus emulation keeps a page unfreezable (./README.md, "A tab frozen, then discarded").
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, endPlay, expectPlayTime, untilCount } from './portal-player.js';
import { told } from './raw-cdp.js';
import { rawPortalWorld } from './portal-world.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(chromiumAvailable())('portal play in Chromium: a sandboxed game frame frozen, then resumed', { timeout: 60_000 }, () => {
  const world = rawPortalWorld({ alpha: { allowOpaqueOrigin: true } });

  it('hidden and frozen while playing, resumed, shown, played on, closed: each part, held in memory only, recorded once, the frozen time counted in neither', async () => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'sandboxed-frozen';
    const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player, 'allow-scripts'), 'alpha');
    expect(await tab.evaluate('game', 'origin')).toBe('null');
    const pressedAt = Date.now();
    const firstId = await tab.evaluate<string>('game', 'window.play()');
    const first = { pressedAt, startedAt: Date.now() };
    await wait(2_200);
    // The player switches to another tab (hidden), and the browser freezes the hidden one.
    let elsewhere: Awaited<ReturnType<typeof raw.openTab>> | undefined;
    const firstPlayed = await endPlay(first, async () => (elsewhere = await raw.openTab(`${sites.origin('elsewhere')}/`)));
    await tab.send('page', 'Page.setWebLifecycleState', { state: 'frozen' });
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(firstId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, firstPlayed);
    await wait(2_000); // frozen: not play time

    const resumedAt = Date.now();
    await tab.send('page', 'Page.setWebLifecycleState', { state: 'active' });
    // Resumed, the page is still hidden: nothing counts until the player shows it again.
    expect(await tab.evaluate('game', 'document.visibilityState')).toBe('hidden');
    expect(await told(tab, 'alpha', 'session:start')).toHaveLength(1);
    await tab.activate();
    await expect.poll(async () => (await told(tab, 'alpha', 'session:start')).length, ARRIVAL).toBe(2);
    const second = { pressedAt: resumedAt, startedAt: Date.now() };
    const { sessionId: secondId } = (await told(tab, 'alpha', 'session:start'))[1] as { sessionId: string };
    await wait(2_200);
    const log = (await tab.log()).filter((message) => message.game === 'alpha');
    const secondPlayed = await endPlay(second, () => tab.close());
    await elsewhere?.close();

    await untilCount(() => alpha.recorded(player).length, 2);
    const part = (id: string) => alpha.recorded(player).find((session) => session.sessionId === id)!;
    expectPlayTime(part(firstId).durationSeconds + part(secondId).durationSeconds, { minMs: firstPlayed.minMs + secondPlayed.minMs, maxMs: firstPlayed.maxMs + secondPlayed.maxMs });
    expect(log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    await wait(500); // the tab is closed: a resend would come now
    expect(alpha.received.filter((id) => id === firstId)).toEqual([firstId]);
    expect(alpha.received.filter((id) => id === secondId)).toEqual([secondId]);
  });
});
