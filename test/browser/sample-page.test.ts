/**
 * The sample game page `npm start` serves, driven in real Chromium through the whole story a developer tries:
 * boost a creator, play, stop, go offline and back, see each session recorded once, open the web view (the
 * emulator's page completes the PKCE exchange), see the sponsor.changed webhook in the feed, hit the boost
 * cooldown, move the emulator's clock and boost again. A screenshot of each step goes to reports/screenshots/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { startGameServer, type GameServer } from '../../samples/game-server/server.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';

const SCREENSHOTS = join(import.meta.dirname, '../../reports/screenshots');

describe.runIf(chromiumAvailable())('sample game page in Chromium', () => {
  let emulator: RunningEmulator;
  let game: GameServer;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let page: Page;
  let step = 0;
  const shot = async (name: string) => {
    step += 1;
    await page.screenshot({ path: join(SCREENSHOTS, `${String(step).padStart(2, '0')}-${name}.png`), fullPage: true });
  };
  const recordedFor = (userId: string) => emulator.state().sessions.filter((s: { userId: string }) => s.userId === userId);

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    emulator = await startEmulator({ port: 0 });
    game = await startGameServer({ emulator, port: 0 });
    browser = await launchChromium();
    page = await browser.context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(game.url);
    await page.waitForSelector('body[data-ready="true"]');
  });

  afterAll(async () => {
    await browser?.close();
    await game?.close();
    await emulator?.close();
  });

  it('shows the active campaign and its creators', async () => {
    await expect.poll(() => page.textContent('#campaign-name')).toBe('Spring Festival');
    await expect.poll(() => page.locator('#creators li').count()).toBe(8);
    expect(await page.inputValue('#player')).toBe(DEMO_USERS.changeable);
    await shot('start');
  });

  it('boosts a creator and the game server receives the signed sponsor.changed webhook', async () => {
    await page.click('#creators button:has-text("NOVA1")');
    await page.click('#confirm');
    await expect.poll(() => page.textContent('#current-boost')).toBe('NOVA1');
    await expect.poll(() => page.textContent('#feed')).toContain('sponsor.changed');
    expect(await page.textContent('#feed')).toContain('"newCreatorKey":"NOVA1"');
    await shot('boosted');
  });

  it('searches creators through the picker', async () => {
    await page.fill('#search', 'LUNA');
    await expect.poll(() => page.locator('#creators li').count()).toBe(1);
    await page.fill('#search', '');
    await expect.poll(() => page.locator('#creators li').count()).toBe(8);
  });

  it('plays a session and it is recorded once', async () => {
    await page.click('#play');
    await page.waitForTimeout(1_300);
    await page.click('#stop');
    await expect.poll(() => page.textContent('#recorded')).toBe('1');
    expect(recordedFor(DEMO_USERS.changeable)).toHaveLength(1);
    await shot('played');
  });

  it('keeps a session played offline and records it once when back online', async () => {
    await page.check('#offline');
    await page.click('#play');
    await page.waitForTimeout(1_300);
    await page.click('#stop');
    await expect.poll(() => page.textContent('#queued')).toBe('1');
    expect(recordedFor(DEMO_USERS.changeable)).toHaveLength(1);
    await shot('offline');
    await page.uncheck('#offline');
    await expect.poll(() => page.textContent('#recorded')).toBe('2');
    const ids = recordedFor(DEMO_USERS.changeable).map((s: { sessionId: string }) => s.sessionId);
    expect(new Set(ids).size).toBe(2);
    await shot('back-online');
  });

  it('opens the campaign web view, whose page completes the PKCE exchange', async () => {
    await page.click('#open-webview');
    const frame = page.frameLocator('iframe');
    await expect.poll(() => frame.locator('h1').textContent()).toBe('Spring Festival');
    expect(emulator.state().webview.sessions).toHaveLength(1);
    await shot('webview');
  });

  it('refuses a second boost during the cooldown and allows it after 30 days of emulator time', async () => {
    await page.goto(game.url);
    await page.waitForSelector('body[data-ready="true"]');
    await page.click('#creators button:has-text("RIVER")');
    await expect.poll(() => page.textContent('#picker-status')).toMatch(/again in 30 days/);
    expect(await page.isDisabled('#confirm')).toBe(true);
    expect(await page.textContent('#current-boost')).toBe('NOVA1');
    await shot('cooldown');
    await page.click('#clock-30');
    await expect.poll(() => page.textContent('#clock-status')).toContain('30 days later');
    await page.click('#creators button:has-text("RIVER")');
    await expect.poll(() => page.isDisabled('#confirm')).toBe(false);
    await page.click('#confirm');
    await expect.poll(() => page.textContent('#current-boost')).toBe('RIVER');
    await expect.poll(() => page.textContent('#feed')).toContain('"newCreatorKey":"RIVER"');
    await shot('boosted-again');
  });

  it('fits a phone-sized window', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBe(0);
    await shot('phone');
  });
});
