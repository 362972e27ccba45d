// Field conditions in real Chromium: the browser entry as a game bundles it, IndexedDB as the storage, against
// the emulator behind a real relay on 127.0.0.1. Storage that throws on write is a quota the DevTools
// protocol lowers (`Storage.overrideQuotaForOrigin`); a device clock that is off is the page clock installed
// off the true time. Outcomes are awaited by polling the emulator, never timed.
// Chromium applies a quota override from the origin's first write on (an override set later left writes
// succeeding, and the usage it counts per write is not predictable enough to fill an origin mid-session), so the
// story of an origin filling up while a session runs is told on the memory platform (storage-and-auth.test.ts).
import type { Server } from 'node:http';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../adapters/node/index.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { bundledBrowserEntry, serveGame } from '../helpers/game-server.js';

const USER = 'field-player';

const page = (emulatorUrl: string, clientKey: string) => `<!doctype html><title>game</title><script type="module">
  import * as sdk from '/sdk.mjs';
  const dbName = new URLSearchParams(location.search).get('db');
  window.errors = [];
  window.gc = sdk.createGameCampaign({
    clientKey: ${JSON.stringify(clientKey)},
    environment: { baseUrl: ${JSON.stringify(emulatorUrl)} },
    relay: { url: '/campaign', headers: { authorization: 'Bearer ${USER}' } },
    userId: '${USER}',
    tracker: { campaignId: '${DEMO_ACTIVE_CAMPAIGN_ID}', checkpointMs: 500, flushIntervalMs: 600000 },
    browser: { dbName },
  });
  window.gc.tracker.on('error', (event) => window.errors.push(event.kind + ': ' + (event.error && event.error.name)));
  window.dropped = [];
  window.gc.tracker.on('dropped', (event) => window.dropped.push(event.reason));
  window.ready = true;
</script>`;

describe.runIf(chromiumAvailable())('field conditions in Chromium', () => {
  let emulator: RunningEmulator;
  let server: Server;
  let origin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const campaignServer = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } });
    const relay = toNodeHandler(createRelay({ server: campaignServer, authenticate: (request) => ({ userId: request.headers.get('authorization')?.replace('Bearer ', '') ?? '' }) }));
    ({ server, origin } = await serveGame({ '/sdk.mjs': ['text/javascript', await bundledBrowserEntry()], '/': ['text/html', page(emulator.url, emulator.clientKey)] }, relay));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await emulator?.close();
  });

  /**
   * Opens the game on database `db`, its page clock installed at the true time + `clockOffsetMs`, the origin's
   * storage quota set first (`quotaBytes`; the real quota when undefined). Chromium applies a quota override
   * from the origin's next first write on, so it is set before the page loads.
   */
  async function openGame(db: string, clockOffsetMs = 0, quotaBytes?: number, withoutWebLocks = false): Promise<{ page: Page; cdp: CDPSession }> {
    const page = await browser.context.newPage();
    // A page without Web Locks (plain http other than localhost, Safari before 15.4): the lock is the IndexedDB lease.
    if (withoutWebLocks) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true }));
    const cdp = await browser.context.newCDPSession(page);
    await setQuota(cdp, quotaBytes);
    await page.clock.install({ time: Date.now() + clockOffsetMs });
    await page.goto(`${origin}/?db=${db}`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    return { page, cdp };
  }
  /** The origin's storage quota: `bytes` (writes beyond it throw QuotaExceededError), or undefined for the real one. */
  const setQuota = (cdp: CDPSession, bytes?: number) => cdp.send('Storage.overrideQuotaForOrigin', bytes === undefined ? { origin } : { origin, quotaSize: bytes });
  const playSession = async (page: Page, ms: number) => {
    const sessionId = await page.evaluate(() => (window as any).gc.tracker.start() as string);
    await page.clock.runFor(ms);
    await page.evaluate(() => (window as any).gc.tracker.stop());
    return sessionId;
  };
  const recorded = (sessionId: string) => emulator.state().sessions.filter((session) => session.sessionId === sessionId);
  const untilRecorded = (...ids: string[]) => expect.poll(() => ids.every((id) => recorded(id).length === 1), { timeout: 15_000 }).toBe(true);
  const read = <T>(page: Page, name: string) => page.evaluate((global) => (window as any)[global] as T, name);

  it.each([
    ['a full origin (quota exceeded on every write): sessions are still delivered while the game runs, the failure reported once', 'quota-online', false],
    ['a full origin on a page without Web Locks: the lease the lock writes is refused too, and sessions are still delivered while the game runs, with no lock error', 'quota-lease', true],
  ] as const)('%s', async (_, name, withoutLocks) => {
    const { page } = await openGame(name, 0, 1, withoutLocks);
    expect(await page.evaluate(() => navigator.locks === undefined)).toBe(withoutLocks);
    const ids = [await playSession(page, 3_000), await playSession(page, 2_000)];
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await untilRecorded(...ids);
    expect(ids.map((id) => recorded(id)[0]!.durationSeconds)).toEqual([3, 2]);
    expect(await read<string[]>(page, 'errors')).toEqual(['storage: QuotaExceededError']);
    expect(await read<string[]>(page, 'dropped')).toEqual([]);
    await page.close();
  });

  it('a device clock 10 minutes ahead: the session is recorded once, at the true time', async () => {
    const { page } = await openGame('clock-ahead', 10 * 60_000);
    const startedAt = Date.now();
    const sessionId = await playSession(page, 3_000);
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await untilRecorded(sessionId);
    expect(Math.abs(Date.parse(recorded(sessionId)[0]!.startedAt) - startedAt)).toBeLessThan(60_000);
    expect(await read<string[]>(page, 'dropped')).toEqual([]);
    await page.close();
  });
});
