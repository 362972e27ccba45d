// The <script> bundle (built from the browser entry) in a real browser: the global, the request it sends
// (headers, URL) and the typed result/error. Play/stop/flush through it: browser-adapter.test.ts.
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';

const ROOT = join(import.meta.dirname, '../..');
const CAMPAIGN = {
  campaignId: 'cmp_1',
  projectId: 'proj_1',
  campaignName: { en: 'Spring' },
  description: { en: 'Spring campaign' },
  startDate: '2026-01-01T00:00:00.000Z',
  endDate: '2026-12-31T00:00:00.000Z',
  status: 'ACTIVE',
};

describe.runIf(chromiumAvailable())('IIFE bundle in Chromium', () => {
  let server: Server;
  let origin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const seen: IncomingMessage[] = [];
  const scripts: string[] = [];
  let webviewServed = true;
  let pickerServed = true;

  beforeAll(async () => {
    const bundle = readFileSync(join(ROOT, IIFE.file), 'utf8');
    const fallback = readFileSync(join(ROOT, IIFE_SIBLINGS.sha256.file), 'utf8');
    const webview = readFileSync(join(ROOT, IIFE_SIBLINGS.webview.file), 'utf8');
    const picker = readFileSync(join(ROOT, IIFE_SIBLINGS.picker.file), 'utf8');
    server = createServer((req, res) => {
      if (req.url?.startsWith('/js/')) scripts.push(req.url);
      if (req.url === '/js/game-campaign.iife.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      if (req.url === '/js/game-campaign.sha256.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(fallback);
      if (req.url === '/js/game-campaign.webview.js' && webviewServed) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(webview);
      if (req.url === '/js/game-campaign.picker.js' && pickerServed) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(picker);
      if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>game</title>');
      // A game written as ES modules without a bundler: the bundle as a classic <script> before its modules, or (wrong)
      // as a module itself. Each module tells what it sees.
      if (req.url === '/modules-classic' || req.url === '/modules-module') {
        const type = req.url === '/modules-module' ? ' type="module"' : '';
        const page = `<!doctype html><title>game</title><script${type} src="/js/game-campaign.iife.js"></script><script type="module">window.seen = typeof GameCampaign;</script>`;
        return res.writeHead(200, { 'content-type': 'text/html' }).end(page);
      }
      if (req.url === '/sdk.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(bundle);
      if (req.url === '/relay/webview/ott') {
        // The relay's answer, the challenge echoed in the token so the page can check it against the verifier.
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk));
        req.on('end', () => {
          const { codeChallenge } = JSON.parse(body) as { codeChallenge: string };
          res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: { ott: codeChallenge, expiresIn: 60, url: `${origin}/campaign-page` } }));
        });
        return;
      }
      if (req.url?.startsWith('/v1/')) seen.push(req);
      if (req.url === '/v1/client/campaigns/cmp_1') return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: CAMPAIGN }));
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ status: 404, error: 'Not Found', message: 'Campaign not found', code: 'NOT_FOUND' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
  });

  it('exposes GameCampaign, sends the Client key and returns typed data and errors', async () => {
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/sdk.js' });
    const result = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const client = new sdk.CampaignClient({ clientKey: 'ck_test:secret', environment: { baseUrl: location.origin }, maxRetries: 0 });
      const campaign = await client.campaigns.get('cmp_1');
      const error = await client.campaigns.get('missing').catch((e: InstanceType<typeof sdk.NotFoundError>) => ({ name: e.name, status: e.status, code: e.code, isNotFound: e instanceof sdk.NotFoundError }));
      return { campaign, error };
    });
    expect(result.campaign).toEqual(CAMPAIGN);
    expect(result.error).toEqual({ name: 'NotFoundError', status: 404, code: 'NOT_FOUND', isNotFound: true });
    expect(seen.map((req) => [req.method, req.url, req.headers['authorization']])).toEqual([
      ['GET', '/v1/client/campaigns/cmp_1', 'Bearer ck_test:secret'],
      ['GET', '/v1/client/campaigns/missing', 'Bearer ck_test:secret'],
    ]);
  });

  /** SHA-256 of 'abc' twice at once through the IIFE's platform, in a page where `crypto.subtle` is `subtle`. */
  async function hashInPage(withSubtle: boolean) {
    scripts.length = 0;
    const page = await browser.context.newPage();
    // An insecure origin (http on a host other than localhost) has no crypto.subtle: take it away before any script.
    if (!withSubtle) await page.addInitScript(() => Object.defineProperty(crypto, 'subtle', { value: undefined }));
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    const result = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const { crypto: platformCrypto } = sdk.createBrowserPlatform();
      const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      const abc = new TextEncoder().encode('abc');
      const digests = await Promise.all([platformCrypto.sha256(abc), platformCrypto.sha256(abc)]);
      return { digests: digests.map(hex), subtle: typeof crypto.subtle, fallbackGlobal: typeof (globalThis as Record<string, unknown>)['GameCampaignSha256'] };
    });
    await page.close();
    return { ...result, scripts: [...scripts] };
  }

  const ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

  it('hashes with crypto.subtle and never loads the SHA-256 fallback where subtle exists', async () => {
    expect(await hashInPage(true)).toEqual({ digests: [ABC, ABC], subtle: 'object', fallbackGlobal: 'undefined', scripts: ['/js/game-campaign.iife.js'] });
  });

  it('without crypto.subtle, loads game-campaign.sha256.js once, from next to the IIFE, and hashes with it', async () => {
    expect(await hashInPage(false)).toEqual({ digests: [ABC, ABC], subtle: 'undefined', fallbackGlobal: 'object', scripts: ['/js/game-campaign.iife.js', '/js/game-campaign.sha256.js'] });
  });

  it('opens a web view by loading game-campaign.webview.js once, from next to the IIFE; a failed load rejects and the next open tries again', async () => {
    scripts.length = 0;
    webviewServed = false;
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    const failed = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const platform = sdk.createBrowserPlatform();
      (globalThis as Record<string, unknown>)['platform'] = platform;
      return platform.openWebView!(`${location.origin}/campaign-page`).then(() => 'opened', (error: Error) => error.message);
    });
    expect(failed).toMatch(/game-campaign\.webview\.js did not load/);
    webviewServed = true;
    const opened = await page.evaluate(async () => {
      const platform = (globalThis as Record<string, unknown>)['platform'] as import('../../adapters/browser/index.js').BrowserPlatform;
      const first = await platform.openWebView!(`${location.origin}/campaign-page?n=1`);
      const frames = [...document.querySelectorAll('iframe')].map((frame) => [frame.getAttribute('src'), frame.getAttribute('sandbox')]);
      first.close();
      await first.closed;
      const second = await platform.openWebView!(`${location.origin}/campaign-page?n=2`);
      second.close();
      return { frames, left: document.querySelectorAll('iframe').length, global: typeof (globalThis as Record<string, unknown>)['GameCampaignWebView'] };
    });
    await page.close();
    expect(opened).toEqual({ frames: [[`${origin}/campaign-page?n=1`, 'allow-scripts allow-same-origin']], left: 0, global: 'object' });
    expect(scripts).toEqual(['/js/game-campaign.iife.js', '/js/game-campaign.webview.js', '/js/game-campaign.webview.js']);
  });

  /**
   * A page of the game with the IIFE, where a tracker for player `p1` starts: `play` ms of play then the page is
   * closed without `stop()` (a crash), or `0` to only start the tracker and report its events after 1.5 s.
   */
  async function trackerPage(play: number) {
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    const events = await page.evaluate(async (play) => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const tracker = new sdk.PlaytimeTracker({ platform: sdk.createBrowserPlatform(), userId: 'p1', relay: { url: `${location.origin}/relay` } });
      const log: Array<[string, string]> = [];
      tracker.on('session:end', (event) => void log.push(['session:end', event.reason]));
      // the test server has no relay: its 404s are reported as kind `relay`, which this story does not look at
      tracker.on('error', (event) => void (event.kind !== 'relay' && log.push(['error', `${event.kind}: ${String(event.error)}`])));
      if (play) tracker.start();
      await new Promise((resolve) => setTimeout(resolve, play || 1_500));
      return log;
    }, play);
    await page.close({ runBeforeUnload: false });
    return events;
  }

  it('needs no sibling for the tracker: start-up, sending, a page left while playing and the next start-up load the IIFE alone', async () => {
    scripts.length = 0;
    expect(await trackerPage(0)).toEqual([]);
    expect(await trackerPage(1_500)).toEqual([]); // closed while playing: the session goes out in that exit
    // The next start-up finds it queued or running (the exit's storage writes may or may not have landed): no error.
    expect((await trackerPage(0)).filter(([name]) => name === 'error')).toEqual([]);
    expect(scripts).toEqual(['/js/game-campaign.iife.js', '/js/game-campaign.iife.js', '/js/game-campaign.iife.js']);

    // The recovered session waits in p1's queue (this server has no relay): erased, so the stories after this one
    // start from an empty origin.
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.evaluate(() => new Promise((resolve, reject) => Object.assign(indexedDB.deleteDatabase('game-campaign'), { onsuccess: resolve, onerror: reject, onblocked: reject })));
    await page.close();
  });

  it('opens gc.webview with PKCE from game-campaign.webview.js, loaded once for the address and the overlay', async () => {
    scripts.length = 0;
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    const result = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const gc = sdk.createGameCampaign({ clientKey: 'ck_test:secret', environment: { baseUrl: location.origin }, relay: { url: `${location.origin}/relay` }, userId: 'player-1' });
      const view = await gc.webview.open({ campaignId: 'cmp_1' });
      const src = new URL(document.querySelector('iframe')!.getAttribute('src')!);
      const verifier = new URLSearchParams(src.hash.slice(1)).get('code_verifier')!;
      const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier)));
      const challenge = btoa(String.fromCharCode(...digest)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      view.close();
      await gc.dispose();
      return { path: src.pathname, verifier, challengeMatches: src.searchParams.get('ott') === challenge };
    });
    await page.close();
    expect(result).toEqual({ path: '/campaign-page', verifier: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), challengeMatches: true });
    expect([...scripts].sort()).toEqual(['/js/game-campaign.iife.js', '/js/game-campaign.webview.js']);
  });

  it('runs a creator picker on game-campaign.picker.js, loaded with the first picker; a failed load is state.error and the next call tries again', async () => {
    scripts.length = 0;
    pickerServed = false;
    const page = await browser.context.newPage();
    await page.goto(origin);
    await page.addScriptTag({ url: '/js/game-campaign.iife.js' });
    const failed = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const gc = sdk.createGameCampaign({ clientKey: 'ck_test:secret', environment: { baseUrl: location.origin }, relay: { url: `${location.origin}/relay` }, userId: 'player-1' });
      const picker = gc.picker({ campaignId: 'cmp_1' });
      (globalThis as Record<string, unknown>)['picker'] = picker;
      const state = await new Promise<{ loading: boolean; error?: Error }>((resolve) => picker.on('change', resolve));
      return { loading: state.loading, error: state.error?.message };
    });
    expect(failed).toEqual({ loading: false, error: expect.stringMatching(/game-campaign\.picker\.js did not load/) });
    pickerServed = true;
    const loaded = await page.evaluate(async () => {
      const picker = (globalThis as Record<string, unknown>)['picker'] as ReturnType<import('../../core/game-campaign.js').GameCampaign['picker']>;
      await picker.reload();
      picker.select('LUNA7');
      return { campaign: picker.state.campaign?.campaignId, selected: picker.state.selected, global: typeof (globalThis as Record<string, unknown>)['GameCampaignPicker'] };
    });
    await page.close();
    expect(loaded).toEqual({ campaign: 'cmp_1', selected: 'LUNA7', global: 'object' });
    expect([...scripts].sort()).toEqual(['/js/game-campaign.iife.js', '/js/game-campaign.picker.js', '/js/game-campaign.picker.js']);
  });

  it("is there for a game's ES modules (no bundler) when loaded as a classic <script> before them; loaded as a module itself, its global stays that module's (browser.md)", async () => {
    const seen = async (path: string) => {
      const page = await browser.context.newPage();
      await page.goto(origin + path);
      await page.waitForFunction(() => (window as unknown as { seen?: string }).seen !== undefined);
      const result = await page.evaluate(() => (window as unknown as { seen: string }).seen);
      await page.close();
      return result;
    };
    expect(await seen('/modules-classic')).toBe('object');
    expect(await seen('/modules-module')).toBe('undefined');
  });
});
