/**
 * A game whose own analytics send beacons each time its page is hidden (`visibilitychange`, as analytics SDKs do) to a
 * slow endpoint: their bodies stay in flight and hold nearly all of the page's 64 KiB keepalive quota (Chromium counts
 * every keepalive body of the document, `kKeepaliveInflightBytesQuota` in blink's resource_fetcher.cc), so Chromium
 * refuses the SDK's exit requests at once (`TypeError: Failed to fetch`), though the relay is fine. The page lives on
 * (a tab switch, then frozen and resumed, shown again): that refusal says nothing of the relay, and must neither be
 * reported as "relay unreachable" nor leave the sessions waiting for a next visit.
 * The game's page has its `Math.random` draw at its highest, so the flusher's full-jitter backoff retries at its
 * longest (1 s, then 2 s after the next failure): no ordinary retry lands between the exits' refusals by chance.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, untilCount } from './portal-player.js';
import { rawPortalWorld } from './portal-world.js';
import { told } from './raw-cdp.js';

/** 6 beacons of 10,900 B: 65,400 B of the 65,536 B quota, too little left for any exit body (about 260 B a session). */
const BEACONS = { count: 6, bytes: 10_900, on: 'hidden', answerAfterMs: 15_000 } as const;

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(chromiumAvailable())('portal play in Chromium: exit requests refused by the keepalive quota the game’s beacons hold', { timeout: 90_000 }, () => {
  const world = rawPortalWorld({ alpha: { exitBeacons: BEACONS } });

  it('a level ended and another played, the tab hidden (the game’s beacons fill the quota), frozen, resumed and shown: both sessions are recorded once while the page lives, and no relay error is reported', async () => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'exit-refused';
    const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
    await tab.evaluate('game', 'void (Math.random = () => 0.999)');
    const firstId = await tab.evaluate<string>('game', 'window.play()');
    await wait(1_500);
    await tab.evaluate('game', 'window.endLevel()'); // queued: the game's flush is due in 30 s
    const secondId = await tab.evaluate<string>('game', 'window.play()');
    await wait(1_500);

    // The player switches tabs: the game's beacons go first, then the SDK's exit (the second session alone, then the first).
    const beaconBytes = alpha.beaconBytes;
    const elsewhere = await raw.openTab(`${sites.origin('elsewhere')}/`);
    await expect.poll(() => tab.evaluate('game', 'document.visibilityState'), ARRIVAL).toBe('hidden');
    await untilCount(() => alpha.beaconBytes - beaconBytes, BEACONS.count * BEACONS.bytes); // held in flight by the CDN
    await wait(300);
    // The browser freezes the hidden tab (`freeze`: the exit again), lets it run again (`resume`), the player comes back.
    await tab.send('page', 'Page.setWebLifecycleState', { state: 'frozen' });
    await wait(300);
    await tab.send('page', 'Page.setWebLifecycleState', { state: 'active' });
    await wait(300);
    await tab.activate();
    await expect.poll(async () => (await told(tab, 'alpha', 'session:start')).length, ARRIVAL).toBe(3);

    // The page lives: the sessions the browser's quota kept in the page arrive now, not on a next visit.
    await untilCount(() => alpha.recorded(player).length, 2);
    expect(alpha.recorded(player).map((session) => session.sessionId).sort()).toEqual([firstId, secondId].sort());
    // The relay recorded them before the page read its answers: the game hears of them a little later.
    const flushed = async () => (await tab.log()).filter((message) => message.game === 'alpha' && message.type === 'flushed').flatMap((message) => message.detail as string[]).sort();
    await expect.poll(flushed, ARRIVAL).toEqual([`${firstId} SUCCESS`, `${secondId} SUCCESS`].sort());
    const log = (await tab.log()).filter((message) => message.game === 'alpha');
    expect(log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    await elsewhere.close();
    await tab.close();
  });
});
