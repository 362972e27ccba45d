// The <script> bundle served from a CDN (an origin other than the game page's) to a page with a strict
// Content-Security-Policy, in Chromium: its siblings load from the CDN, next to it, under a `script-src` that names
// only the CDN, with a nonce (the sibling carries the IIFE's), and where Trusted Types are required (through the
// policy `game-campaign`); a page whose trusted-types list leaves that policy out gets an error that names it.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';

const ROOT = join(import.meta.dirname, '../..');

/** Listens on 127.0.0.1 at a free port; resolves the server and its origin. */
async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe.runIf(chromiumAvailable())('the IIFE from a CDN under a strict Content-Security-Policy (Chromium)', () => {
  let cdnServer: Server;
  let gameServer: Server;
  let cdn: string;
  let game: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  const cdnRequests: string[] = [];

  beforeAll(async () => {
    const files: Record<string, string> = {
      '/js/game-campaign.iife.js': readFileSync(join(ROOT, IIFE.file), 'utf8'),
      '/js/game-campaign.webview.js': readFileSync(join(ROOT, IIFE_SIBLINGS.webview.file), 'utf8'),
    };
    cdnServer = createServer((req, res) => {
      cdnRequests.push(req.url!);
      const file = files[req.url!];
      if (file) return res.writeHead(200, { 'content-type': 'text/javascript' }).end(file);
      res.writeHead(404).end();
    });
    cdn = await listen(cdnServer);
    // The game's page: its policy in `?csp=`, the IIFE from the CDN with the nonce `n0nce`.
    gameServer = createServer((req, res) => {
      const url = new URL(req.url!, 'http://x');
      if (url.pathname === '/campaign') return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>campaign</title>');
      if (url.pathname !== '/') return res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': url.searchParams.get('csp')! });
      res.end(`<!doctype html><title>game</title><script nonce="n0nce" src="${cdn}/js/game-campaign.iife.js"></script>`);
    });
    game = await listen(gameServer);
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    cdnServer?.close();
    gameServer?.close();
  });

  /** Opens a web view through the IIFE on the game page served with `csp`: 'opened', or the error's message. */
  async function openWebViewUnder(csp: string) {
    cdnRequests.length = 0;
    const page = await browser.context.newPage();
    await page.goto(`${game}/?csp=${encodeURIComponent(csp)}`);
    const outcome = await page.evaluate(async () => {
      const sdk = (globalThis as unknown as { GameCampaign: typeof import('../../adapters/browser/index.js') }).GameCampaign;
      const platform = sdk.createBrowserPlatform();
      return platform.openWebView!(`${location.origin}/campaign`).then(
        (view) => (view.close(), 'opened'),
        (error: Error) => error.message,
      );
    });
    await page.close();
    return { outcome, cdnRequests: [...cdnRequests] };
  }

  it("loads game-campaign.webview.js from the CDN under a script-src that names only the CDN", async () => {
    expect(await openWebViewUnder(`script-src ${cdn}`)).toEqual({ outcome: 'opened', cdnRequests: ['/js/game-campaign.iife.js', '/js/game-campaign.webview.js'] });
  });

  it('loads it under a nonce-only script-src: the sibling carries the nonce of the IIFE', async () => {
    expect(await openWebViewUnder(`script-src 'nonce-n0nce'`)).toEqual({ outcome: 'opened', cdnRequests: ['/js/game-campaign.iife.js', '/js/game-campaign.webview.js'] });
  });

  it("loads it where Trusted Types are required, through the policy 'game-campaign'", async () => {
    for (const csp of [`script-src ${cdn}; require-trusted-types-for 'script'`, `script-src ${cdn}; require-trusted-types-for 'script'; trusted-types game-campaign`]) {
      expect(await openWebViewUnder(csp), csp).toEqual({ outcome: 'opened', cdnRequests: ['/js/game-campaign.iife.js', '/js/game-campaign.webview.js'] });
    }
  });

  it("rejects naming the file and the policy where the page's trusted-types list leaves 'game-campaign' out", async () => {
    expect(await openWebViewUnder(`script-src ${cdn}; require-trusted-types-for 'script'; trusted-types the-game`)).toEqual({
      outcome: "game-campaign.webview.js was refused by the page's Trusted Types (global GameCampaignWebView): allow the policy 'game-campaign' in its trusted-types directive, or include it with a <script>",
      cdnRequests: ['/js/game-campaign.iife.js'],
    });
  });
});
