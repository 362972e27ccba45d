/**
 * A player with a backlog near 64 KiB switches tabs (p61): six levels ended and not yet sent (each with a game's 14 KB
 * of metadata), then the tab hidden while the studio's server answers slowly (3 s). The page's exit sends what it holds
 * (the newest alone, then what fits beside it: most of the page's 64 KiB keepalive quota, in flight for 3 s), and the
 * flush after it reads the rest from IndexedDB and finds no keepalive room left. The tab stays hidden (a phone browser
 * then often kills it, with no event): every session must still arrive while the page lives, not wait for a next visit.
 * Before, the flush released those sessions as too large and set no retry (checked to fail with core/tracker/flusher.ts
 * as on p60-int, rebuilt: 4 of 6 recorded).
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { ARRIVAL, untilCount } from './portal-player.js';
import { rawPortalWorld } from './portal-world.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A level's metadata: 14,000 B of JSON, so four sessions fill a keepalive body and six pass 64 KiB. */
const METADATA = "{ notes: 'x'.repeat(14000) }";

describe.runIf(chromiumAvailable())('portal play in Chromium: a backlog near 64 KiB at a tab switch', { timeout: 90_000 }, () => {
  const world = rawPortalWorld({ alpha: {} });

  it('six levels queued, the tab hidden while the studio answers slowly: all six recorded once while the tab stays hidden, nothing reported', async () => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'backlog-tab-switch';
    const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
    const ids: string[] = [];
    for (let level = 0; level < 6; level++) {
      ids.push(await tab.evaluate<string>('game', `gc.tracker.start({ metadata: ${METADATA} })`));
      await wait(1_100);
      await tab.evaluate('game', 'gc.tracker.stop()'); // queued: the game's flush is due in 30 s
    }
    expect(alpha.posts).toBe(0);

    // The studio's server is slow: the exit's keepalive bodies stay in flight, on the page's quota, while the flush runs.
    alpha.postDelayMs = 3_000;
    const elsewhere = await raw.openTab(`${sites.origin('elsewhere')}/`);
    await expect.poll(() => tab.evaluate('game', 'document.visibilityState'), ARRIVAL).toBe('hidden');

    await untilCount(() => alpha.recorded(player).length, 6);
    expect(alpha.recorded(player).map((session) => session.sessionId).sort()).toEqual([...ids].sort());
    expect(await tab.evaluate('game', 'document.visibilityState')).toBe('hidden');
    const flushed = async () => (await tab.log()).filter((message) => message.game === 'alpha' && message.type === 'flushed').flatMap((message) => message.detail as string[]).sort();
    await expect.poll(flushed, ARRIVAL).toEqual(ids.map((id) => `${id} SUCCESS`).sort());
    const log = (await tab.log()).filter((message) => message.game === 'alpha');
    expect(log.filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
    await elsewhere.close();
    await tab.close();
  });
});
