// The web view page in a real browser: it exchanges ?ott and #code_verifier, shows the campaign and creators,
// drops the verifier from the address bar, and boosts a creator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOOSTED_CREATORS, DEMO_USERS, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { WEBVIEW_CLOSE_MESSAGE } from '../../adapters/react-native/index.js';
import { openCocosWebView } from '../../adapters/cocos/web-view.js';
import { createFakeWebView } from '../adapters/fakes/fake-cc.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { pkcePair } from './helpers.js';

describe.runIf(chromiumAvailable())('emulator web view page in Chromium', () => {
  let emulator: RunningEmulator;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await emulator?.close();
  });

  async function tokenFor(userId: string, challenge: string): Promise<string> {
    const response = await fetch(`${emulator.url}/v1/server/webview/ott`, {
      method: 'POST',
      headers: { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId, codeChallenge: challenge, showCampaignDetail: true }),
    });
    return ((await response.json()) as { data: { ott: string } }).data.ott;
  }

  it('exchanges the token, lists the creators with the current boost and boosts another creator', async () => {
    const { verifier, challenge } = pkcePair('k');
    const ott = await tokenFor(DEMO_USERS.changeable, challenge);
    const page = await browser.context.newPage();
    await page.goto(`${emulator.url}/webview?ott=${encodeURIComponent(ott)}#code_verifier=${verifier}`);
    await page.locator('li').first().waitFor();
    expect(await page.locator('h1').textContent()).toBe('Spring Festival');
    expect(await page.locator('li').count()).toBe(8);
    expect(await page.locator('li.current').textContent()).toContain(DEMO_BOOSTED_CREATORS.changeable);
    expect(page.url()).not.toContain('code_verifier');

    await page.locator('li', { hasText: 'KAIZN' }).locator('button').click();
    await page.locator('[role=status]').waitFor();
    expect(await page.locator('[role=status]').textContent()).toBe('You now boost Kaizen.');
    expect(await page.locator('li.current').textContent()).toContain('KAIZN');
    expect(emulator.state().boosts.find((b) => b.userId === DEMO_USERS.changeable)?.creatorKey).toBe('KAIZN');
    await page.close();
  });

  it("its Close posts 'close' to React Native's host, as the SDK's React Native web view listens for it", async () => {
    // react-native-webview injects window.ReactNativeWebView when the host sets onMessage (the SDK's host does); the
    // page posting 'close' (WEBVIEW_CLOSE_MESSAGE) is how a page closes it. Before, the Close did nothing there.
    const { verifier, challenge } = pkcePair('n');
    const ott = await tokenFor('rn_user', challenge);
    const page = await browser.context.newPage();
    await page.addInitScript(() => {
      const posted: unknown[] = [];
      Object.assign(window, { ReactNativeWebView: { postMessage: (message: unknown) => posted.push(message) }, posted });
    });
    await page.goto(`${emulator.url}/webview?ott=${encodeURIComponent(ott)}#code_verifier=${verifier}`);
    await page.locator('li').first().waitFor();
    await page.locator('#close').click();
    expect(await page.evaluate(() => (window as unknown as { posted: unknown[] }).posted)).toEqual([WEBVIEW_CLOSE_MESSAGE]);
    await page.close();
  });

  it("its Close in Cocos native's WebView (a top-level page nobody opened, no React Native host) closes the SDK's web view through the Cocos close scheme", async () => {
    // The native view hands a navigation to its interface scheme to the JS callback instead of loading it (cocos-engine
    // native/cocos/platform/android/java/src/com/cocos/lib/CocosWebView.java shouldOverrideUrlLoading,
    // native/cocos/ui/webview/WebViewImpl-ios.mm decidePolicyForNavigationAction): here each navigation Chromium starts
    // goes to the fake component. Before, the Close posted to nobody and window.close() did nothing there.
    const { verifier, challenge } = pkcePair('c');
    const ott = await tokenFor('cocos_user', challenge);
    const fake = createFakeWebView('native');
    const sys = { isNative: true, localStorage: {}, openURL: () => undefined };
    const handle = openCocosWebView(`${emulator.url}/webview?ott=${encodeURIComponent(ott)}#code_verifier=${verifier}`, sys, () => fake.view);
    fake.activate();
    const page = await browser.context.newPage();
    const navigations: string[] = [];
    page.on('request', (request) => {
      if (!request.isNavigationRequest()) return;
      navigations.push(request.url());
      fake.navigate(request.url());
    });
    await page.goto(fake.view.url);
    await page.locator('li').first().waitFor();
    const closing = page.waitForRequest((request) => request.url().startsWith('gamecampaign:'));
    await page.locator('#close').click();
    await closing;
    await handle.closed;
    expect(fake.destroyed).toBe(1);
    expect(navigations.at(-1)).toBe('gamecampaign://close');
    await page.close();
  });

  it("its Close in the overlay's frame posts to the game and does not go to the Cocos close scheme", async () => {
    const { verifier, challenge } = pkcePair('d');
    const ott = await tokenFor('frame_user', challenge);
    const page = await browser.context.newPage();
    const schemes: string[] = [];
    page.on('request', (request) => request.url().startsWith('gamecampaign:') && schemes.push(request.url()));
    await page.setContent(`<iframe src="${emulator.url}/webview?ott=${encodeURIComponent(ott)}#code_verifier=${verifier}"></iframe>`);
    const frame = page.frameLocator('iframe');
    await frame.locator('li').first().waitFor();
    const message = page.evaluate(() => new Promise((resolve) => addEventListener('message', (event) => resolve(event.data), { once: true })));
    await frame.locator('#close').click();
    expect(await message).toEqual({ type: 'game-campaign:close' });
    expect(schemes).toEqual([]);
    await page.close();
  });

  it('shows the service error when the token was already used', async () => {
    const { verifier, challenge } = pkcePair('m');
    const ott = await tokenFor('page_user', challenge);
    await fetch(`${emulator.url}/v1/webview/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ott, codeVerifier: verifier }) });
    const page = await browser.context.newPage();
    await page.goto(`${emulator.url}/webview?ott=${encodeURIComponent(ott)}#code_verifier=${verifier}`);
    await page.locator('[role=alert]').waitFor();
    expect(await page.locator('[role=alert]').textContent()).toBe('The one-time token is unknown, expired, already used or replaced by a newer one');
    await page.close();
  });
});
