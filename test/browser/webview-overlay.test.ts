// The web view overlay in Chromium at 1280x900 (issue 21, item 13): the campaign page's own top-right corner
// (where a page puts its Close button) stays the page's, for elementFromPoint and for a real click; the overlay's
// control is in a bar above the frame. Escape closes the overlay; focus stays inside it while it is open and goes
// back to the game's element that had it. The overlay's code is the built web view file (dist/), as a page loads it.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';

const ROOT = join(import.meta.dirname, '../..');
const GAME = '<!doctype html><title>game</title><button id="play">Play</button><button id="settings">Settings</button>';
// A campaign page with its own Close button in the top-right corner and a few controls to tab through.
const CAMPAIGN = `<!doctype html><title>campaign</title><body style="margin:0">
<button id="page-close" style="position:fixed;top:0;right:0;width:96px;height:48px">Close</button>
<a href="#one">one</a> <button>two</button> <input aria-label="three">
<script>window.clicks = 0; document.getElementById('page-close').onclick = () => window.clicks++;</script></body>`;

// A third-party page that posts the close message to the top window and to its parent, then says it has (to the top:
// messages from one source arrive in the order posted, so the close messages were handled before that one).
const THIRD_PARTY = `<!doctype html><title>ad</title><script>
for (const target of [top, parent]) target.postMessage({ type: 'game-campaign:close' }, '*');
top.postMessage({ type: 'ad-posted' }, '*');
</script>`;

describe.runIf(chromiumAvailable())('web view overlay in Chromium (1280x900)', () => {
  let server: Server;
  let third: Server;
  let ad: string;
  let game: string;
  let campaign: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    const webview = readFileSync(join(ROOT, IIFE_SIBLINGS.webview.file), 'utf8');
    server = createServer((req, res) => {
      if (req.url === '/') return res.writeHead(200, { 'content-type': 'text/html' }).end(GAME);
      // A cross-origin isolated game (Unity WebGL with threads, Godot 4): COOP and COEP, so its frames need an opt-in.
      // A game whose CSS resets every element, buttons too (a common reset in game UIs), its text black.
      if (req.url === '/reset') return res.writeHead(200, { 'content-type': 'text/html' }).end(`<style>* { all: unset } body { color: #000 }</style>${GAME}`);
      // A game whose canvas is fullscreen (the top layer) when the player opens the campaign.
      if (req.url === '/fullscreen') return res.writeHead(200, { 'content-type': 'text/html' }).end(`${GAME}<canvas id="canvas" tabindex="-1"></canvas><script>play.onclick = () => canvas.requestFullscreen()</script>`);
      // A game whose body is transformed (a common hint for GPU layers), its canvas absolutely placed (the body 0 px high).
      if (req.url === '/transformed') return res.writeHead(200, { 'content-type': 'text/html' }).end(`${GAME}<style>body { margin: 0; transform: translateZ(0) } canvas { position: absolute; inset: 0; width: 100vw; height: 100vh }</style><canvas></canvas>`);
      // A game that takes every key on the page, as Unity WebGL's WebGLInput.captureAllKeyboardInput does.
      if (req.url === '/keys') return res.writeHead(200, { 'content-type': 'text/html' }).end(`${GAME}<script>window.keys = []; addEventListener('keydown', (event) => { keys.push(event.key); event.preventDefault() })</script>`);
      // A game that sends COEP without being isolated (no COOP here; on a portal: an embedding page that is not isolated).
      if (req.url === '/coep-only') return res.writeHead(200, { 'content-type': 'text/html', 'cross-origin-embedder-policy': 'require-corp' }).end(GAME);
      if (req.url === '/isolated') return res.writeHead(200, { 'content-type': 'text/html', 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }).end(GAME);
      if (req.url === '/js/game-campaign.webview.js') return res.writeHead(200, { 'content-type': 'text/javascript' }).end(webview);
      // The campaign page with a third-party frame of its own (a video embed, an ad).
      if (req.url?.startsWith('/campaign-embed')) return res.writeHead(200, { 'content-type': 'text/html' }).end(`${CAMPAIGN}<iframe src="${ad}"></iframe>`);
      if (req.url?.startsWith('/campaign')) return res.writeHead(200, { 'content-type': 'text/html' }).end(CAMPAIGN);
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    // A third origin (another port): an ad or embed, in the game's page or inside the campaign page, that posts the close message.
    third = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(THIRD_PARTY));
    await new Promise<void>((resolve) => third.listen(0, '127.0.0.1', resolve));
    ad = `http://127.0.0.1:${(third.address() as AddressInfo).port}/ad`;
    const { port } = server.address() as AddressInfo;
    game = `http://127.0.0.1:${port}/`;
    campaign = `http://localhost:${port}/campaign?ott=abc`; // another origin than the game's, as in production
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    third?.close();
  });

  /** The game page (`path` under the game's origin) with the #play button focused and the overlay open on the campaign page (loaded). */
  async function openOverlay(path = '', prepare?: (page: Page) => Promise<void>, url = campaign): Promise<Page> {
    const page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(game + path);
    await page.addScriptTag({ url: '/js/game-campaign.webview.js' });
    await page.focus('#play');
    await prepare?.(page);
    await page.evaluate(async (url) => {
      const { createBrowserWebView } = (globalThis as unknown as { GameCampaignWebView: typeof import('../../adapters/browser/webview.js') }).GameCampaignWebView;
      const handle = await createBrowserWebView(window)(url, { title: 'Spring event' });
      (globalThis as unknown as { overlayClosed: boolean }).overlayClosed = false;
      void handle.closed.then(() => ((globalThis as unknown as { overlayClosed: boolean }).overlayClosed = true));
    }, url);
    await page.frameLocator('iframe').locator('#page-close').waitFor();
    return page;
  }

  /** Whether the element focused in the game's document is inside the overlay (the frame counts: focus is in the page). */
  const focusInOverlay = (page: Page) => page.evaluate(() => document.querySelector('[role=dialog]')!.contains(document.activeElement));

  it("leaves the page's own top-right Close button uncovered: elementFromPoint and a real click reach it", async () => {
    const page = await openOverlay();
    const box = (await page.frameLocator('iframe').locator('#page-close').boundingBox())!;
    expect(box.x + box.width).toBeCloseTo(1280, 0); // the page's corner is the viewport's right edge
    const corner = { x: box.x + box.width - 4, y: box.y + 4 }; // the very corner, where an overlay button sat
    const center = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    for (const point of [corner, center]) {
      expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.tagName, point)).toBe('IFRAME');
    }
    await page.mouse.click(center.x, center.y);
    await page.mouse.click(corner.x, corner.y);
    const frame = page.frames().find((candidate) => candidate.url().startsWith(campaign))!;
    expect(await frame.evaluate(() => (window as unknown as { clicks: number }).clicks)).toBe(2);
    // The overlay's own control is in a bar above the frame, overlapping none of it.
    const close = (await page.locator('[role=dialog] button[aria-label=Close]').boundingBox())!;
    const frameBox = (await page.locator('[role=dialog] iframe').boundingBox())!;
    expect(close.y + close.height).toBeLessThanOrEqual(frameBox.y);
    expect(await page.evaluate(() => (globalThis as unknown as { overlayClosed: boolean }).overlayClosed)).toBe(false);
    await page.close();
  });

  it('keeps focus inside while open (Tab and Shift+Tab), closes on Escape and gives focus back to the game', async () => {
    const page = await openOverlay();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Close');
    const visited = new Set<string>();
    for (const key of [...Array<string>(8).fill('Tab'), ...Array<string>(8).fill('Shift+Tab')]) {
      await page.keyboard.press(key);
      // Focus crossing into or out of the frame (another site: its own process) reaches the game's document a
      // moment later, so it is polled; focus that left the dialog for good still fails.
      await expect.poll(() => focusInOverlay(page), { message: `after ${key}` }).toBe(true);
      visited.add(await page.evaluate(() => document.activeElement!.tagName));
    }
    expect(visited).toEqual(new Set(['BUTTON', 'IFRAME'])); // the bar's button and the page's controls, nothing else
    await page.focus('[role=dialog] button[aria-label=Close]');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => (globalThis as unknown as { overlayClosed: boolean }).overlayClosed);
    expect(await page.evaluate(() => document.querySelector('[role=dialog]'))).toBeNull();
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('play');
    await page.close();
  });

  it('opens the campaign page (which sends no COEP or CORP) in a cross-origin isolated game, in a credentialless frame', async () => {
    // Before, COEP blocked the frame: the player saw the browser's error page, and the campaign page never loaded.
    const page = await openOverlay('isolated');
    expect(await page.evaluate(() => [crossOriginIsolated, document.querySelector('iframe')!.hasAttribute('credentialless')])).toEqual([true, true]);
    const frame = page.frames().find((candidate) => candidate.url().startsWith(campaign))!;
    expect(await frame.evaluate(() => document.title)).toBe('campaign');
    await page.close();
  });

  it("gets the browser's error page for the campaign page in a game that sends COEP without being isolated, and the overlay's × still closes it (portals.md)", async () => {
    // The SDK reads isolation from crossOriginIsolated only, so the frame is a normal one, which COEP blocks: the
    // campaign page sends no CORP. What portals.md tells a game: send COEP only where the portal isolates it.
    const page = await browser.context.newPage();
    await page.goto(game + 'coep-only');
    await page.addScriptTag({ url: '/js/game-campaign.webview.js' });
    await page.evaluate(async (url) => {
      const { createBrowserWebView } = (globalThis as unknown as { GameCampaignWebView: typeof import('../../adapters/browser/webview.js') }).GameCampaignWebView;
      const handle = await createBrowserWebView(window)(url, { title: 'Spring event' });
      (globalThis as unknown as { overlayClosed: boolean }).overlayClosed = false;
      void handle.closed.then(() => ((globalThis as unknown as { overlayClosed: boolean }).overlayClosed = true));
    }, campaign);
    expect(await page.evaluate(() => [crossOriginIsolated, document.querySelector('iframe')!.hasAttribute('credentialless')])).toEqual([false, false]);
    // Blocked: the frame holds Chromium's error page (chrome-error://), never the campaign page.
    const frame = page.frames().find((candidate) => candidate !== page.mainFrame())!;
    await expect.poll(() => frame.url()).toMatch(/^chrome-error:/);
    expect(page.frames().some((candidate) => candidate.url().startsWith(campaign))).toBe(false);
    await page.click('[role=dialog] button[aria-label=Close]');
    await page.waitForFunction(() => (globalThis as unknown as { overlayClosed: boolean }).overlayClosed);
    expect(await page.evaluate(() => document.querySelector('[role=dialog]'))).toBeNull();
    await page.close();
  });

  it('keeps the campaign frame a normal one (its storage kept) in a game that is not isolated', async () => {
    const page = await openOverlay();
    expect(await page.evaluate(() => [crossOriginIsolated, document.querySelector('iframe')!.hasAttribute('credentialless')])).toEqual([false, false]);
    await page.close();
  });

  it('shows its close control as × in a game page that declares no encoding (read as windows-1252)', async () => {
    // The built web view file is ASCII (terser's ascii_only): its UTF-8 × was read there as 'Ã—'.
    const page = await openOverlay();
    expect(await page.evaluate(() => [document.characterSet, document.querySelector('[role=dialog] button')!.textContent])).toEqual(['windows-1252', '\u00d7']);
    await page.close();
  });

  it("keeps its close control's colours in a game whose CSS resets every element (white on grey, not the game's black on the dark bar)", async () => {
    const page = await openOverlay('reset');
    const style = await page.evaluate(() => {
      const { color, backgroundColor } = getComputedStyle(document.querySelector('[role=dialog] button')!);
      return { color, backgroundColor };
    });
    expect(style).toEqual({ color: 'rgb(255, 255, 255)', backgroundColor: 'rgb(68, 68, 68)' });
    await page.close();
  });

  /** What the player sees at the middle of the page and at the overlay's close control. */
  const onTop = (page: Page) =>
    page.evaluate(() => {
      const close = document.querySelector('[role=dialog] button')!.getBoundingClientRect();
      return [document.elementFromPoint(640, 450)?.tagName, document.elementFromPoint(close.x + close.width / 2, close.y + close.height / 2)?.getAttribute('aria-label')];
    });

  it("shows over the game's fullscreen canvas, and its close control works there", async () => {
    // Before, the overlay went under the fullscreen canvas (the browser's top layer): the player saw the game, and
    // the campaign page and its close control were out of reach.
    const page = await openOverlay('fullscreen', async (game) => {
      await game.click('#play');
      await game.waitForFunction(() => document.fullscreenElement?.id === 'canvas');
    });
    expect(await onTop(page)).toEqual(['IFRAME', 'Close']);
    await page.click('[role=dialog] button[aria-label=Close]');
    await page.waitForFunction(() => (globalThis as unknown as { overlayClosed: boolean }).overlayClosed);
    await page.close();
  });

  it('covers the viewport in a game whose body is transformed, and stays over what the game adds above everything later', async () => {
    // Before, a transformed body held the fixed overlay: 0 px high with the game's canvas absolutely placed.
    const page = await openOverlay('transformed');
    const box = await page.evaluate(() => document.querySelector('[role=dialog]')!.getBoundingClientRect().toJSON() as DOMRect);
    expect([box.x, box.y, box.width, box.height]).toEqual([0, 0, 1280, 900]);
    await page.evaluate(() => {
      const toast = document.body.appendChild(document.createElement('div'));
      toast.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:green';
    });
    expect(await onTop(page)).toEqual(['IFRAME', 'Close']);
    await page.close();
  });

  it("keeps the player's keys from the game while open, and its close control answers Enter in a game that takes every key", async () => {
    // Before, keys pressed in the dialog also moved the game, and a game that prevents every key's default (Unity
    // WebGL) stopped Enter from pressing the close control: keyboard players could only leave with Escape.
    const page = await openOverlay('keys');
    for (const key of ['ArrowUp', 'w', 'Enter']) await page.keyboard.press(key); // focus is on the close control
    const after = () => page.evaluate(() => [(window as unknown as { keys: string[] }).keys, (globalThis as unknown as { overlayClosed: boolean }).overlayClosed, document.activeElement?.id]);
    expect(await after()).toEqual([[], true, 'play']);
    await page.keyboard.press('ArrowUp'); // the game has its keys back
    expect(await page.evaluate(() => (window as unknown as { keys: string[] }).keys)).toEqual(['ArrowUp']);
    await page.close();
  });
  it('closes on the close message of its campaign page only: not of a frame inside that page, another frame of the game, or the game itself', async () => {
    // Checked as a hostile page would try (p22): the overlay takes the message only from its own frame's window and
    // that frame's origin (adapters/browser/webview.ts onMessage).
    const page = await openOverlay('', async (page) => {
      await page.evaluate(() => {
        (globalThis as unknown as { posted: number }).posted = 0;
        addEventListener('message', (event) => event.data?.type === 'ad-posted' && (globalThis as unknown as { posted: number }).posted++);
      });
    }, campaign.replace('/campaign?', '/campaign-embed?'));
    // A third-party frame of the game's own page, and the game posting to itself.
    await page.evaluate((src) => {
      const frame = document.body.appendChild(document.createElement('iframe'));
      frame.src = src;
      postMessage({ type: 'game-campaign:close' }, '*');
    }, ad);
    await page.waitForFunction(() => (globalThis as unknown as { posted: number }).posted === 2);
    const open = () => page.evaluate(() => [(globalThis as unknown as { overlayClosed: boolean }).overlayClosed, document.querySelectorAll('[role=dialog]').length]);
    expect(await open()).toEqual([false, 1]);
    // The campaign page's own Close.
    const campaignFrame = page.frames().find((frame) => frame.url().includes('/campaign-embed'))!;
    await campaignFrame.evaluate(() => parent.postMessage({ type: 'game-campaign:close' }, '*'));
    await page.waitForFunction(() => (globalThis as unknown as { overlayClosed: boolean }).overlayClosed);
    expect(await open()).toEqual([true, 0]);
    await page.close();
  });
});
