// A player who leaves for good, in real Chromium: the tab closed, or the page navigated away, while a session runs.
// The session reaches the relay (a local HTTP server) in that exit, with its full play time (within 1 s) and the
// game's last good auth header, and is recorded once: a later visit's flush finds nothing new to record.
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { IIFE } from '../../scripts/entries.mjs';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { serveGame, type GameFiles } from '../helpers/game-server.js';
import { recordingAnswer } from '../helpers/recording-service.js';

const ROOT = join(import.meta.dirname, '../..');

interface Received {
  headers: IncomingHttpHeaders;
  sessions: Array<{ sessionId: string; durationSeconds: number; campaignId?: string }>;
}

describe.runIf(chromiumAvailable())('a page left while a session runs (Chromium)', () => {
  let server: Server;
  let origin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const received: Received[] = [];
  /** Times each sessionId was answered SUCCESS (the service records a sessionId once; repeats are SKIPPED). */
  const recorded = new Map<string, number>();
  let arrived: () => void = () => {};

  beforeAll(async () => {
    const page: [string, string] = ['text/html', '<!doctype html><title>game</title>'];
    const files: GameFiles = { '/': page, '/elsewhere': page, '/js/game-campaign.iife.js': ['text/javascript', readFileSync(join(ROOT, IIFE.file), 'utf8')] };
    // The relay's playtime route, answering as the service would (a sessionId recorded once, then SKIPPED).
    ({ server, origin } = await serveGame(files, (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk));
      req.on('end', () => {
        const { sessions } = JSON.parse(body) as Received;
        received.push({ headers: req.headers, sessions });
        res.writeHead(200, { 'content-type': 'application/json' }).end(recordingAnswer(sessions, recorded));
        arrived();
      });
    }));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  beforeEach(() => {
    received.length = 0;
  });

  /** Resolves when the relay has received a request, or rejects after 10 s (a bound, not a timed assertion). */
  const nextRequest = () =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the relay received nothing within 10 s')), 10_000);
      arrived = () => (clearTimeout(timer), resolve());
    });

  /** A game page with a tracker whose session has just started; resolves its sessionId. */
  async function playing() {
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    const sessionId = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const tracker = new sdk.PlaytimeTracker({ platform: sdk.createBrowserPlatform(), userId: 'p1', relay: { url: `${location.origin}/campaign`, headers: async () => ({ authorization: 'Bearer player-token' }) } });
      await tracker.flush(); // start-up done
      (globalThis as unknown as { tracker: typeof tracker }).tracker = tracker;
      return tracker.start({ campaignId: 'camp-1' });
    });
    return { page, sessionId, startedAt: Date.now() };
  }

  /** Play time the page had, by this process's clock: from after start() returned to the moment it was left. */
  const expectFullDuration = (durationSeconds: number, playedMs: number) => expect(Math.abs(durationSeconds - playedMs / 1000)).toBeLessThanOrEqual(1);

  /** A new page of the game whose tracker flushes whatever the previous one left stored (a later visit). */
  async function nextVisit() {
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      // Its own token: what the left page sent is told apart from this visit's flush.
      const tracker = new sdk.PlaytimeTracker({ platform: sdk.createBrowserPlatform(), userId: 'p1', relay: { url: `${location.origin}/campaign`, headers: async () => ({ authorization: 'Bearer next-visit' }) } });
      await tracker.flush();
      await tracker.dispose();
    });
    await page.close();
  }

  it('the tab closed: the session arrives from that exit with its full play time and the last good header, recorded once', async () => {
    const { page, sessionId, startedAt } = await playing();
    await new Promise((resolve) => setTimeout(resolve, 3_200));
    const request = nextRequest();
    const leftAt = Date.now();
    await page.close({ runBeforeUnload: false });
    await request;
    const sent = received.flatMap((entry) => entry.sessions).filter((session) => session.sessionId === sessionId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.campaignId).toBe('camp-1');
    expectFullDuration(sent[0]!.durationSeconds, leftAt - startedAt);
    expect(received[0]!.headers['authorization']).toBe('Bearer player-token');
    expect(received[0]!.headers['content-type']).toBe('application/json');

    await nextVisit();
    expect(recorded.get(sessionId)).toBe(1);
  });

  it.each([
    ['the page navigated away: the session arrives from that exit with its full play time, recorded once', undefined],
    // The SDK's own page exit never runs there: the dispose removes its listeners before pagehide.
    ['the game disposes its tracker as the page is left (beforeunload) and navigates away: the dispose sends the session, with its full play time, recorded once', 'beforeunload'],
    // Its pagehide listener runs after the SDK's (added after the tracker): the SDK's exit has sent the session, and
    // the dispose must not send it again (each copy spends the page's 64 KiB keepalive budget).
    ['the game disposes its tracker in its own pagehide listener, after the SDK\'s exit: the session is sent once in that exit', 'pagehide'],
  ] as const)('%s', async (_title, disposeOn) => {
    const { page, sessionId, startedAt } = await playing();
    if (disposeOn) await page.evaluate((type) => addEventListener(type, () => void (globalThis as unknown as { tracker: { dispose(): Promise<void> } }).tracker.dispose()), disposeOn);
    await new Promise((resolve) => setTimeout(resolve, 2_400));
    const request = nextRequest();
    const leftAt = Date.now();
    await page.goto(`${origin}/elsewhere`);
    await request;
    const sent = received.flatMap((entry) => entry.sessions).filter((session) => session.sessionId === sessionId);
    expect(sent).toHaveLength(1);
    expectFullDuration(sent[0]!.durationSeconds, leftAt - startedAt);
    await page.close();

    await nextVisit();
    expect(recorded.get(sessionId)).toBe(1);
    // Everything the left page sent has arrived by now (issued in its exit, before the next visit loaded): one copy.
    const fromExit = received.filter((entry) => entry.headers['authorization'] === 'Bearer player-token').flatMap((entry) => entry.sessions);
    expect(fromExit.filter((session) => session.sessionId === sessionId)).toHaveLength(1);
  });
});
