// The launcher's URL in the emulator's real web view page (Chromium): the page exchanges the token with the
// verifier from the fragment, shows the campaign for the player the relay authenticated, and drops the verifier
// from the address bar; loading the same URL again fails, as the token is single-use.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGameCampaign } from '../../core/game-campaign.js';
import { createMemoryPlatform } from '../../core/memory-platform.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_BOOSTED_CREATORS, DEMO_USERS, startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';

const RELAY = 'http://game.local/campaign';

describe.runIf(chromiumAvailable())('web view launcher -> emulator page in Chromium', () => {
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

  it('opens a page whose exchange succeeds once', async () => {
    const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } });
    const relay = createRelay({ server, authenticate: () => ({ userId: DEMO_USERS.changeable }) });
    const platform = createMemoryPlatform({
      fetch: (input, init) => {
        const request = new Request(input, init);
        return request.url.startsWith(RELAY) ? relay.fetch(request) : fetch(request);
      },
    });
    const gc = createGameCampaign({ platform, clientKey: emulator.clientKey, environment: { baseUrl: emulator.url }, relay: { url: RELAY }, userId: DEMO_USERS.changeable });
    await gc.webview.open({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, showCampaignDetail: true });
    const opened = platform.opened[0]!;
    expect(opened.startsWith(`${emulator.url}/webview?ott=`)).toBe(true);

    const page = await browser.context.newPage();
    await page.goto(opened);
    await page.locator('li.current').waitFor();
    expect(await page.locator('li.current').textContent()).toContain(DEMO_BOOSTED_CREATORS.changeable);
    expect(page.url()).not.toContain('code_verifier');

    const again = await browser.context.newPage();
    await again.goto(opened);
    await again.locator('[role=alert]').waitFor();
    expect(await again.locator('[role=alert]').textContent()).toContain('already used');
    await page.close();
    await again.close();
    await gc.dispose();
  });
});
