// One player's tabs of a game in real Chromium (one IndexedDB database, Web Locks): the off switch made in one tab
// reaches the others. Tab B's flush reads the stored choice before it sends: the session it runs is dropped
// (opted-out), nothing it queued before the switch is sent, and it starts nothing; switched on again in tab A, B's
// flush sends its queue. Time is each page's clock; outcomes are polled, never timed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../emulator/index.js';
import { chromiumAvailable } from '../helpers/chromium.js';
import { chromiumGame } from '../helpers/chromium-game.js';

const USER = DEMO_USERS.changeable;

/** The game's start-up: every `dropped` event kept as `sessionId:reason`. */
const bootstrap = (emulatorUrl: string) => `
  window.dropped = [];
  window.gc = sdk.createGameCampaign({
    clientKey: 'ck_tabs:secret',
    environment: { baseUrl: ${JSON.stringify(emulatorUrl)} },
    relay: { url: '/campaign', headers: { authorization: 'Bearer ${USER}' } },
    userId: '${USER}',
    tracker: { checkpointMs: 500, flushIntervalMs: 600000 },
  });
  window.gc.tracker.on('dropped', (event) => window.dropped.push(event.sessionId + ':' + event.reason));
  window.flushed = [];
  window.gc.tracker.on('flushed', (event) => window.flushed.push(...event.results.map((result) => result.sessionId + ':' + result.status)));
  window.ready = true;`;

describe.runIf(chromiumAvailable())("one player's tabs in Chromium", () => {
  const suite = chromiumGame(bootstrap);
  const tracker = (page: Page, call: 'start' | 'stop' | 'flush' | 'setOptOut(true)' | 'setOptOut(false)') =>
    page.evaluate((what) => {
      const t = (window as any).gc.tracker;
      return what.startsWith('setOptOut') ? t.setOptOut(what === 'setOptOut(true)') : t[what]();
    }, call) as Promise<string | undefined>;
  const dropped = (page: Page) => page.evaluate(() => (window as any).dropped as string[]);
  const recorded = (...ids: string[]) => suite.game.emulator.state().sessions.filter((session) => ids.includes(session.sessionId)).map((session) => session.sessionId);

  /** Two tabs of one game; offline, tab B plays a 2 s session and stops (queued): the tabs and that session's id. */
  const twoTabsBQueued = async () => {
    await suite.clearDatabases();
    const tabA = await suite.open('');
    const tabB = await suite.open('');
    await suite.browser.context.setOffline(true);
    const queued = (await tracker(tabB, 'start'))!;
    await tabB.clock.runFor(2_000);
    await tracker(tabB, 'stop');
    return { tabA, tabB, queued };
  };

  it('the off switch in one tab: the other sends nothing (its queue from before included) and drops its running session; on again: it sends', async () => {
    const { tabA, tabB, queued } = await twoTabsBQueued();
    const running = (await tracker(tabB, 'start'))!;
    await tabB.clock.runFor(3_000);

    await tracker(tabA, 'setOptOut(true)');
    await suite.browser.context.setOffline(false);
    await tracker(tabB, 'flush');
    expect(await dropped(tabB)).toEqual([`${running}:opted-out`]);
    expect(await tracker(tabB, 'start')).toBe('');
    expect(recorded(queued, running)).toEqual([]);

    await tracker(tabA, 'setOptOut(false)');
    await tracker(tabB, 'flush');
    await expect.poll(() => recorded(queued, running)).toEqual([queued]);
    await Promise.all([tabA.close(), tabB.close()]);
  });
  it("a session tab B queued is sent by tab A's flush: recorded once, sent once (B's flush does not send the copy it holds for its exit), nothing dropped", async () => {
    const { tabA, tabB, queued } = await twoTabsBQueued();
    // Back online, tab B flushes its queue itself (its 'online' listener) and may take the lock before A's flush, which
    // then finds nothing to send: B's requests fail until A has sent, so the send is A's whichever tab locks first.
    const PLAYTIME = '**/campaign/playtime/sessions';
    await tabB.route(PLAYTIME, (route) => route.abort());
    await suite.browser.context.setOffline(false);
    await tracker(tabA, 'flush');
    await expect.poll(() => recorded(queued)).toEqual([queued]);
    await tabB.unroute(PLAYTIME);
    let sentByB = 0;
    await tabB.route(PLAYTIME, (route) => (sentByB++, route.continue()));
    await tracker(tabB, 'flush');
    expect(recorded(queued)).toEqual([queued]);
    expect(await tabA.evaluate(() => (window as any).flushed)).toEqual([`${queued}:SUCCESS`]);
    // B still holds the session for its page exit; storage lost nothing, so the key A deleted means A sent it.
    expect(sentByB).toBe(0);
    expect(await tabB.evaluate(() => (window as any).flushed)).toEqual([]);
    expect(await dropped(tabB)).toEqual([]);
    await Promise.all([tabA.close(), tabB.close()]);
  });
});
