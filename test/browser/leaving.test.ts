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

/** How long a story waits for what a left page sent (a bound, not a timed assertion). */
const ARRIVAL = { timeout: 10_000 };

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

  // Chromium counts every keepalive body a document has in flight against 64 KiB and refuses the one that passes it
  // (65,536 B together go out, 65,537 B do not: probed in Chromium 150), a task later, when a removed frame can no
  // longer send it again. The exit sends the session that just ended alone, then what else the page holds: here three
  // levels queued and not sent yet (in the field, hundreds of small ones an unreachable relay could not take) fill,
  // with the running session, one body to 26 B under 64 KiB, less room than the second body's own envelope takes.
  it('the game’s frame removed while the sessions it holds fill one keepalive body to within an envelope: the exit brings the running session and the queued ones that fit beside it; the next visit the oldest', async () => {
    const page = await browser.context.newPage();
    await page.goto(origin);
    // A single-page portal of the game's own site: the game in a frame, removed as the portal moves on.
    await page.evaluate(() => new Promise((resolve) => document.body.appendChild(Object.assign(document.createElement('iframe'), { src: '/', onload: resolve }))));
    const game = page.frames()[1]!;
    await game.addScriptTag({ url: '/js/game-campaign.iife.js' });
    type Tracker = { start(options: object): string; stop(): Promise<void>; flush(): Promise<void> };
    const play = (metadata?: object) =>
      game.evaluate(async (meta) => {
        const { tracker } = globalThis as unknown as { tracker: Tracker };
        const sessionId = tracker.start({ campaignId: 'camp-1', ...(meta && { metadata: meta }) });
        await new Promise((resolve) => setTimeout(resolve, 1_200));
        return sessionId;
      }, metadata);
    const stop = () => game.evaluate(() => (globalThis as unknown as { tracker: Tracker }).tracker.stop());
    await game.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const tracker = new sdk.PlaytimeTracker({ platform: sdk.createBrowserPlatform(), userId: 'p1', relay: { url: `${location.origin}/campaign`, headers: async () => ({ authorization: 'Bearer player-token' }) } });
      await tracker.flush(); // start-up done
      (globalThis as unknown as { tracker: typeof tracker }).tracker = tracker;
    });
    // A first level, flushed: the size of a session as the relay receives it (1 s, a campaign, no metadata).
    const sample = await play();
    await stop();
    await game.evaluate(() => (globalThis as unknown as { tracker: Tracker }).tracker.flush());
    const each = JSON.stringify(received.flatMap((entry) => entry.sessions).find((session) => session.sessionId === sample)).length;
    const envelope = JSON.stringify({ sessions: [], sentAt: new Date(0).toISOString() }).length;
    const withMetadata = JSON.stringify({ metadata: { pad: '' } }).length - 1; // the member and its comma
    // One body of the running session and three queued levels (their commas too): 65,510 B at most.
    const pad = Math.floor((65_510 - envelope - 4 * each - 3 * withMetadata - 3) / 3);
    const queued: string[] = [];
    for (let level = 0; level < 3; level++) {
      queued.push(await play({ pad: 'x'.repeat(pad) }));
      await stop();
    }
    const running = await play();
    received.length = 0;
    await page.evaluate(() => document.querySelector('iframe')!.remove());
    const fromExit = () => received.filter((entry) => entry.headers['authorization'] === 'Bearer player-token').map((entry) => entry.sessions.map((session) => session.sessionId));
    // The running session alone, then the two newest levels: the oldest has no room beside the second envelope.
    await expect.poll(fromExit, ARRIVAL).toEqual([[running], [queued[2], queued[1]]]);
    await page.close();

    await nextVisit();
    expect([...queued, running].map((sessionId) => recorded.get(sessionId))).toEqual([1, 1, 1, 1]);
  });
});
