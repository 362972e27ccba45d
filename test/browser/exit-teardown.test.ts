// A tab closed mid-level, in real Chromium, when the browser delivers the exit's keepalive request and then rejects
// its fetch in the page. Seen on Chromium 150 under load (p65: CPU throttled 6x through CDP, 1 close in 7): the closed
// tab's JavaScript still runs for a moment after `unload`, the keepalive request reaches the relay, and its fetch
// rejects `TypeError: Failed to fetch` about 200 ms later, as the renderer side of the request is torn down while the
// browser carries it on. The SDK sent a keepalive failure again at once as an ordinary request (the quota rule,
// core/tracker/keepalive-quota.ts), and that copy reached the relay too: two copies with the closed tab's token, the
// second answered SKIPPED (test/browser/service-worker.test.ts, one fresh-clone CI run). Here the game's `fetch` (the
// browser platform's `fetch` option) gives the exit's keepalive request to the page's own fetch and rejects it once it
// was delivered, which is what that run showed (unthrottled Chromium mostly resolves it, or is gone first).
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IIFE } from '../../scripts/entries.mjs';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { serveGame, type GameFiles } from '../helpers/game-server.js';
import { recordingAnswer } from '../helpers/recording-service.js';

const ROOT = join(import.meta.dirname, '../..');
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** How long a story waits for what the page sent (a bound, not a timed assertion). */
const ARRIVAL = { timeout: 10_000 };

describe.runIf(chromiumAvailable())('a closed tab whose exit request is delivered, then its fetch rejected (Chromium)', { timeout: 60_000 }, () => {
  let server: Server;
  let origin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  /** The sessionIds of each request the relay received, and whether it was a keepalive one (the page's note). */
  const received: Array<{ sessionIds: string[]; keepalive: string | undefined }> = [];
  const recorded = new Map<string, number>();

  beforeAll(async () => {
    const page: [string, string] = ['text/html', '<!doctype html><title>game</title>'];
    const files: GameFiles = { '/': page, '/js/game-campaign.iife.js': ['text/javascript', readFileSync(join(ROOT, IIFE.file), 'utf8')] };
    ({ server, origin } = await serveGame(files, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        const { sessions } = JSON.parse(body) as { sessions: Array<{ sessionId: string }> };
        received.push({ sessionIds: sessions.map((session) => session.sessionId), keepalive: req.headers['x-keepalive'] as string | undefined });
        res.writeHead(200, { 'content-type': 'application/json' }).end(recordingAnswer(sessions, recorded));
      });
    }));
  });

  beforeEach(async () => {
    received.length = 0;
    browser = await launchChromium();
  });

  afterEach(async () => {
    await browser?.close();
  });

  afterAll(() => {
    server?.close();
  });

  /**
   * A game page whose `fetch` (the browser platform's option) gives a keepalive request of a hidden page to the page's
   * own fetch and rejects it once delivered, as Chromium 150 did in the closed tab; with a session of 1.5 s running.
   */
  async function playing() {
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    const sessionId = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      let hidden = false;
      let reject = () => {};
      const rejection = new Promise<void>((resolve) => (reject = resolve));
      addEventListener('pagehide', () => (hidden = true), { capture: true });
      /** Whether each request the platform made was a keepalive one; and what it had made once the rejection was acted on. */
      const calls: boolean[] = [];
      const fetch = (input: string | Request, init?: RequestInit) => {
        calls.push(!!init?.keepalive);
        const sent = window.fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), 'x-keepalive': String(!!init?.keepalive) } });
        if (!hidden || !init?.keepalive) return sent;
        // Rejected once the story lets it (the background flush the exit started has ended: it would send a released
        // session again itself), then a task later the requests are noted: what the SDK sent at once in its reaction.
        return Promise.all([sent, rejection]).then(() => {
          setTimeout(() => Object.assign(globalThis, { callsAfterRejection: [...calls] }));
          throw new TypeError('Failed to fetch');
        });
      };
      const tracker = new sdk.PlaytimeTracker({ platform: sdk.createBrowserPlatform({ fetch }), userId: 'p1', relay: { url: '/campaign', headers: { authorization: 'Bearer player-token' } } });
      await tracker.flush(); // start-up done
      Object.assign(globalThis, { tracker, reject });
      return tracker.start({ campaignId: 'camp-1' });
    });
    await wait(1_500);
    return { page, sessionId };
  }
  /** The page told it is left (`pagehide`); its exit request rejected once the flush that exit started has ended. */
  const leave = (page: Page, persisted: boolean) =>
    page.evaluate(async (persisted) => {
      const { tracker, reject } = globalThis as unknown as { tracker: { flush(): Promise<void> }; reject(): void };
      dispatchEvent(new PageTransitionEvent('pagehide', { persisted }));
      await tracker.flush(); // joins the background flush
      reject();
    }, persisted);
  /** The page's requests (keepalive or not) once the SDK acted on the rejected exit request. */
  const afterRejection = async (page: Page) => {
    await expect.poll(() => page.evaluate(() => 'callsAfterRejection' in globalThis), ARRIVAL).toBe(true);
    return page.evaluate(() => (globalThis as unknown as { callsAfterRejection: boolean[] }).callsAfterRejection);
  };
  const copiesOf = (sessionId: string) => received.filter((request) => request.sessionIds.includes(sessionId));

  // The closed tab's teardown is not reproducible on demand (it needs the renderer slow to go), so the page is left
  // alive and told it is being unloaded: the `pagehide` a closing tab gets first (`persisted` false), dispatched by the
  // page itself. The exit runs as it does in the closed tab, and the page lives on long enough for any copy sent again.
  it('pagehide, not for the back/forward cache: the exit request reaches the relay, its fetch rejects, and no ordinary copy follows', async () => {
    const { page, sessionId } = await playing();
    await leave(page, false);
    // The exit's request (keepalive), nothing sent again at once.
    expect(await afterRejection(page)).toEqual([true]);
    expect(copiesOf(sessionId)).toEqual([{ sessionIds: [sessionId], keepalive: 'true' }]);
    expect(recorded.get(sessionId)).toBe(1);
  });

  // A page kept in the back/forward cache may be shown again: a keepalive failure there is still sent again at once
  // (the quota rule: a refusal of the game's beacons), answered SKIPPED when the browser had delivered it.
  it('pagehide into the back/forward cache: a rejected keepalive request is still sent again as an ordinary one', async () => {
    const { page, sessionId } = await playing();
    await leave(page, true);
    expect(await afterRejection(page)).toEqual([true, false]);
    await expect.poll(() => copiesOf(sessionId).length, ARRIVAL).toBe(2);
    expect(copiesOf(sessionId).map((copy) => copy.keepalive)).toEqual(['true', 'false']);
    expect(recorded.get(sessionId)).toBe(1);
  });
});
