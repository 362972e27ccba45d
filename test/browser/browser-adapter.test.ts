// The browser entry in real Chromium against the emulator and a relay on 127.0.0.1, as a game gets it: the built
// dist bundled for the page (ESM) or the IIFE by a <script> tag. Offline play survives a reload in IndexedDB, two
// tabs never send the same session, a closed tab's session is recovered on the next visit. Time is moved with
// Playwright's page clock; outcomes are awaited by polling the emulator, never timed.
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../adapters/node/index.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { bundledBrowserEntry, serveGame } from '../helpers/game-server.js';

const ROOT = join(import.meta.dirname, '../..');
const USER = DEMO_USERS.changeable;

/** The game's start-up code, the same for the ESM build and the IIFE (`sdk` is the module or the global). */
const bootstrap = (emulatorUrl: string, clientKey: string) => `
  const params = new URLSearchParams(location.search);
  const dbName = params.get('db');
  window.gc = sdk.createGameCampaign({
    clientKey: ${JSON.stringify(clientKey)},
    environment: { baseUrl: ${JSON.stringify(emulatorUrl)} },
    relay: { url: '/campaign', headers: { authorization: 'Bearer ${USER}' } },
    userId: '${USER}',
    tracker: { campaignId: '${DEMO_ACTIVE_CAMPAIGN_ID}', checkpointMs: 500, flushIntervalMs: 600000 },
    browser: { dbName, onError: (error) => window.errors.push(String(error)) },
  });
  window.errors = [];
  window.gc.tracker.on('error', (event) => window.errors.push(event.kind + ': ' + String(event.error)));
  window.storage = sdk.createIdbStorage({ dbName });
  // A web view opened by hand (PKCE pair, token from the relay), as the launcher does.
  window.openCampaign = async (mode) => {
    const platform = sdk.createBrowserPlatform({ dbName: 'webview', webView: { mode } });
    const base64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/[+]/g, '-').replace(/[/]/g, '_').replace(/=+$/, '');
    const verifier = base64url(await platform.crypto.randomBytes(32));
    const challenge = base64url(await platform.crypto.sha256(new TextEncoder().encode(verifier)));
    const response = await fetch('/campaign/webview/ott', { method: 'POST', headers: { authorization: 'Bearer ${USER}', 'content-type': 'application/json' }, body: JSON.stringify({ codeChallenge: challenge }) });
    const { data } = await response.json();
    const handle = await platform.openWebView(data.url + '?ott=' + encodeURIComponent(data.ott) + '#code_verifier=' + verifier, { title: 'Spring Festival' });
    window.webViewClosed = false;
    handle.closed.then(() => (window.webViewClosed = true));
    window.webView = handle;
  };
  window.ready = true;`;

describe.runIf(chromiumAvailable())('browser entry in Chromium', () => {
  let emulator: RunningEmulator;
  let server: Server;
  let origin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  /** sessionId of every session the relay received, once per receipt. */
  const received: string[] = [];
  /** The player's network is down: the relay answers nothing it gets (see {@link setOffline}). */
  let offline = false;
  /**
   * The player's network goes down or comes back: Chromium's offline emulation, and the relay refusing what still
   * reaches it then. Chromium 150's emulation does not hold back the keepalive request a page sends as it is left
   * (the exit request of a reload made offline reached the relay: the browser sends it for the page once the page is
   * gone); a device really offline sends nothing, so a request that arrives while offline counts as never sent.
   */
  const setOffline = async (down: boolean) => {
    offline = down;
    await browser.context.setOffline(down);
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const campaignServer = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } });
    const relay = createRelay({ server: campaignServer, authenticate: (request) => ({ userId: request.headers.get('authorization')?.replace('Bearer ', '') ?? '' }) });
    const relayHandler = toNodeHandler({
      fetch: async (request: Request) => {
        if (offline) return new Response(null, { status: 503 }); // never sent: the device is offline
        if (request.url.endsWith('/playtime/sessions')) {
          const body = (await request.clone().json()) as { sessions: Array<{ sessionId: string }> };
          received.push(...body.sessions.map((session) => session.sessionId));
        }
        return relay.fetch(request);
      },
    });
    // What a game's bundler makes of the built entry.
    const files: Record<string, [string, string]> = {
      '/sdk.mjs': ['text/javascript', await bundledBrowserEntry()],
      '/game-campaign.iife.js': ['text/javascript', readFileSync(join(ROOT, IIFE.file), 'utf8')],
      // The files the IIFE loads from next to itself on first use (what a game may never need).
      ...Object.fromEntries(Object.values(IIFE_SIBLINGS).map((sibling) => [`/${basename(sibling.file)}`, ['text/javascript', readFileSync(join(ROOT, sibling.file), 'utf8')] as [string, string]])),
      '/': ['text/html', `<!doctype html><title>game</title><script type="module">import * as sdk from '/sdk.mjs';${bootstrap(emulator.url, emulator.clientKey)}</script>`],
      '/iife.html': ['text/html', `<!doctype html><title>game</title><script src="/game-campaign.iife.js"></script><script>const sdk = GameCampaign;${bootstrap(emulator.url, emulator.clientKey)}</script>`],
    };
    ({ server, origin } = await serveGame(files, relayHandler));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await emulator?.close();
  });

  /** Opens the game (ESM build, or the IIFE page) on a database of its own, with the page clock under control. */
  async function openGame(db: string, path = '/', page?: Page): Promise<Page> {
    page ??= await browser.context.newPage();
    await page.clock.install();
    await page.goto(`${origin}${path}?db=${db}`);
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
    return page;
  }
  const start = (page: Page) => page.evaluate(() => (window as any).gc.tracker.start() as string);
  const play = async (page: Page, ms: number) => page.clock.runFor(ms);
  /** The game's `stop()`, then `flush()`: the session ends and is sent now. */
  const stopAndFlush = (page: Page) =>
    page.evaluate(async () => {
      await (window as any).gc.tracker.stop();
      await (window as any).gc.tracker.flush();
    });
  const recorded = (sessionId: string) => emulator.state().sessions.filter((session) => session.sessionId === sessionId);
  const untilRecorded = (...ids: string[]) => expect.poll(() => ids.every((id) => recorded(id).length === 1), { timeout: 15_000 }).toBe(true);
  const sent = (sessionId: string) => received.filter((id) => id === sessionId).length;
  /** The game's own storage namespace (its Client key's id), in the database the page names. */
  const namespace = () => `game-campaign.${emulator.clientKey.split(':')[0]}`;
  const queuedIds = (page: Page) => page.evaluate(async ([ns, user]) => ((await (window as any).storage.keys(`${ns}:player:${user}:queue:`)) as string[]).map((key) => key.split(':').at(-1)), [namespace(), USER]);
  const errors = (page: Page) => page.evaluate(() => (window as any).errors as string[]);

  it('offline play, stop and reload: the session waits in IndexedDB and is recorded once when the network returns', async () => {
    const page = await openGame('offline-reload');
    const sessionId = await start(page);
    await play(page, 3_000);
    await setOffline(true);
    await page.evaluate(async () => {
      await (window as any).gc.tracker.stop();
      await (window as any).gc.tracker.flush(); // offline: nothing is sent
    });
    await openGame('offline-reload', '/', page); // the reload, still offline
    expect(await queuedIds(page)).toEqual([sessionId]);
    expect(recorded(sessionId)).toEqual([]);

    await setOffline(false); // `online`: the tracker flushes
    await untilRecorded(sessionId);
    expect(recorded(sessionId)[0]).toMatchObject({ userId: USER, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, durationSeconds: 3 });
    await expect.poll(() => queuedIds(page)).toEqual([]);
    expect(sent(sessionId)).toBe(1);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it.each([
    ['Web Locks', false],
    ['the IndexedDB lease (no navigator.locks)', true],
  ])('two tabs of one origin flushing at once send and record each session once, with %s', async (_, withoutWebLocks) => {
    const db = withoutWebLocks ? 'two-tabs-lease' : 'two-tabs-locks';
    const tabs = await Promise.all(
      [0, 1].map(async () => {
        const page = await browser.context.newPage();
        if (withoutWebLocks) await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true }));
        return openGame(db, '/', page);
      }),
    );
    expect(await tabs[0]!.evaluate(() => navigator.locks === undefined)).toBe(withoutWebLocks);
    await setOffline(true);
    const ids: string[] = [];
    for (const tab of tabs) {
      for (let i = 0; i < 3; i++) {
        ids.push(await start(tab));
        await play(tab, 2_000);
        await tab.evaluate(() => (window as any).gc.tracker.stop());
      }
    }
    expect((await queuedIds(tabs[0]!)).sort()).toEqual([...ids].sort()); // one shared queue

    await setOffline(false);
    await Promise.all(tabs.map((tab) => tab.evaluate(() => (window as any).gc.tracker.flush())));
    await untilRecorded(...ids);
    await expect.poll(() => queuedIds(tabs[1]!)).toEqual([]);
    expect(ids.map(sent)).toEqual(ids.map(() => 1));
    for (const tab of tabs) {
      expect(await errors(tab)).toEqual([]);
      await tab.close();
    }
  });

  it('a tab closed mid-session sends its session in that exit, with its full play time, recorded once (a next visit records no second copy)', async () => {
    const page = await openGame('closed-tab');
    // Four seconds of real play leave the tracker's start-up (IndexedDB read, the opt-out flag loaded) long done, which
    // the page's exit needs before it may send; the fake clock plays them in no time, so wait for it as a player would.
    await page.evaluate(() => (window as any).gc.tracker.flush());
    const sessionId = await start(page);
    await play(page, 4_000);
    await page.close();
    await untilRecorded(sessionId);
    expect(recorded(sessionId)[0]!.durationSeconds).toBe(4);

    const nextVisit = await openGame('closed-tab');
    await nextVisit.evaluate(() => (window as any).gc.tracker.flush());
    expect(recorded(sessionId)).toHaveLength(1);
    expect(await errors(nextVisit)).toEqual([]);
    await nextVisit.close();
  });

  it('the web view iframe: the sandboxed page completes its exchange, and its Close button closes the overlay', async () => {
    const page = await openGame('webview-iframe');
    await page.evaluate(() => (window as any).openCampaign('iframe'));
    const frame = page.frameLocator('iframe[title="Spring Festival"]');
    await expect.poll(() => frame.locator('h1').textContent(), { timeout: 10_000 }).toBe('Spring Festival'); // exchange + reads worked in the sandbox
    expect(await page.locator('iframe').getAttribute('sandbox')).toBe('allow-scripts allow-same-origin');
    expect(emulator.state().webview.sessions.filter((session) => session.userId === USER).length).toBeGreaterThan(0);
    await frame.locator('#close').click();
    await expect.poll(() => page.evaluate(() => (window as any).webViewClosed)).toBe(true);
    expect(await page.locator('iframe').count()).toBe(0);
    // A close message from the game's own window (not the frame) is ignored.
    await page.evaluate(() => (window as any).openCampaign('iframe'));
    await page.evaluate(() => window.postMessage({ type: 'game-campaign:close' }, '*'));
    await frame.locator('h1').waitFor();
    expect(await page.evaluate(() => (window as any).webViewClosed)).toBe(false);
    await page.evaluate(() => (window as any).webView.close());
    expect(await page.locator('iframe').count()).toBe(0);
    await page.close();
  });

  it('the web view window: opened without an opener, closed by its Close button', async () => {
    const page = await openGame('webview-window');
    const [popup] = await Promise.all([browser.context.waitForEvent('page'), page.evaluate(() => (window as any).openCampaign('window'))]);
    await popup.locator('h1').waitFor();
    expect(await popup.evaluate(() => window.opener)).toBeNull();
    // The button closes its own window: Playwright may find the page gone while it finishes the click (the poll
    // below is what tells that the click worked).
    await popup.locator('#close').click().catch((error: unknown) => {
      if (!popup.isClosed()) throw error;
    });
    await expect.poll(() => page.evaluate(() => (window as any).webViewClosed), { timeout: 10_000 }).toBe(true);
    expect(popup.isClosed()).toBe(true);
    await page.close();
  });

  it("metadata IndexedDB keeps but JSON cannot carry is refused by start(); other metadata is stored and recorded as its JSON; the queue flows", async () => {
    const page = await openGame('metadata');
    // A BigInt or a cycle: IndexedDB stored them, then every write of the queue failed on their JSON and the session
    // was lost without a `dropped` event (its running record met again at every start-up).
    const refused = await page.evaluate(() => {
      const cyclic: Record<string, unknown> = { level: 1 };
      cyclic['self'] = cyclic;
      return [{ score: BigInt(10) }, cyclic].map((metadata) => {
        try {
          return (window as any).gc.tracker.start({ metadata });
        } catch (error) {
          return `${(error as Error).name}: ${(error as Error).message}`;
        }
      });
    });
    expect(refused).toEqual([expect.stringMatching(/^ValidationError: .*start\.metadata must be JSON-serialisable/), expect.stringMatching(/^ValidationError: .*start\.metadata must be JSON-serialisable/)]);
    // A function or a Date: IndexedDB refused the function (DataCloneError, an `error` of kind storage at each write).
    const sessionId = await page.evaluate(() => (window as any).gc.tracker.start({ metadata: { level: 3, at: new Date(0), onWin() {} } }) as string);
    await play(page, 2_000);
    await stopAndFlush(page);
    await untilRecorded(sessionId);
    expect(recorded(sessionId)[0]).toMatchObject({ durationSeconds: 2, metadata: { level: 3, at: new Date(0).toISOString() } });
    expect(await queuedIds(page)).toEqual([]);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it('in a Web Worker (an engine running the game in a worker) createGameCampaign throws a TypeError saying it needs the page', async () => {
    const page = await openGame('worker');
    const outcome = await page.evaluate(async () => {
      const code = `import * as sdk from '${location.origin}/sdk.mjs';
        try { sdk.createGameCampaign({ clientKey: 'ck_worker:secret', relay: { url: '${location.origin}/campaign' }, userId: 'player-1' }); postMessage('created'); }
        catch (error) { postMessage(error.name + ': ' + error.message); }`;
      const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })), { type: 'module' });
      const answer = await new Promise((resolve) => ((worker.onmessage = (event) => resolve(event.data)), (worker.onerror = (event) => resolve(`error ${event.message}`))));
      worker.terminate();
      return answer;
    });
    // Before: "TypeError: Cannot read properties of undefined (reading 'visibilityState')", from deep in the lifecycle.
    expect(outcome).toBe('TypeError: game-campaign-sdk/browser runs on a page (window, document), not in a Web Worker or server');
    await page.close();
  });

  it("a laptop's lid closed 8 h on the visible game (clocks that count the sleep, as on Windows): the sleep is not recorded as play", async () => {
    const page = await openGame('lid-closed');
    await page.evaluate(() => (window as any).gc.tracker.on('session:start', (event: { sessionId: string }) => ((window as any).starts ??= []).push(event.sessionId)));
    const first = await start(page);
    await page.clock.runFor(30_000); // played: the checkpoints run
    await page.clock.fastForward(8 * 3_600_000); // Playwright's lid closed: both clocks jump, each due timer fires once
    await page.clock.runFor(30_000); // played after waking
    await stopAndFlush(page);
    // Before the change: one session of 28,860 s. Now the part before the sleep, then its continuation after it (the
    // play between the last checkpoint and the sleep is not known: at most one checkpoint interval is lost, as in a crash).
    const ids = await page.evaluate(() => (window as any).starts as string[]);
    expect(ids).toHaveLength(2);
    await untilRecorded(...ids);
    expect(ids.map((id) => recorded(id)[0]!.durationSeconds)).toEqual([30, 30]);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it('a stored session JSON cannot carry (a BigInt, written by other code or an older release) is dropped as invalid; the sessions behind it are sent', async () => {
    const page = await openGame('poisoned-queue');
    const dropped: unknown[] = [];
    await page.exposeFunction('reportDropped', (event: unknown) => void dropped.push(event));
    await page.evaluate(() => (window as any).gc.tracker.on('dropped', (event: any) => (window as any).reportDropped({ sessionId: event.sessionId, reason: event.reason, error: event.error })));
    const poisonId = '00000000-0000-4000-8000-00000000b16b';
    // First in the queue: IndexedDB keeps a BigInt, JSON cannot carry it. Before: every flush failed on it (an `error`
    // of kind headers each time) and nothing behind it was ever sent.
    await page.evaluate(
      ([key, id, user]) => (window as any).storage.set(key, { sessionId: id, userId: user, durationSeconds: BigInt(10), startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:00:10.000Z' }),
      [`${namespace()}:player:${USER}:queue:000000000000:${poisonId}`, poisonId, USER],
    );
    const sessionId = await start(page);
    await play(page, 2_000);
    await stopAndFlush(page);
    await untilRecorded(sessionId);
    expect(dropped).toEqual([{ sessionId: poisonId, reason: 'invalid', error: expect.stringMatching(/BigInt/) }]);
    expect(await queuedIds(page)).toEqual([]);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it('the IIFE by a <script> tag: play, stop, flush records the session once', async () => {
    const page = await openGame('iife', '/iife.html');
    expect(await page.evaluate(() => typeof (window as any).GameCampaign.createBrowserPlatform)).toBe('function');
    const sessionId = await start(page);
    await play(page, 2_000);
    await stopAndFlush(page);
    await untilRecorded(sessionId);
    expect(recorded(sessionId)[0]!.durationSeconds).toBe(2);
    expect(sent(sessionId)).toBe(1);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });
});
