/**
 * A tab Chromium discards while the game plays (memory pressure, or a mobile browser's background tab), then the player
 * comes back to it: the tab reloads with `document.wasDiscarded`. Chromium 150's own discard, through chrome://discards
 * (an internal page, enabled by the profile's Local State `internal_only_uis_enabled`): its `discardById`. The discarded
 * tab's last events carry the exit request; its storage keeps the session's last record for the reload, whose copy the
 * service answers SKIPPED.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { launchChromiumOverCdp, type CdpChromium } from './chromium-cdp.js';
import { ARRIVAL, endPlay, expectFlushAnswers, expectPlayTime, gameLog, openPortal, playFor, pressPlay, untilCount } from './portal-player.js';
import { startPortalSites, type PortalSites } from './portal-sites.js';

describe.runIf(chromiumAvailable())('a tab discarded by Chromium while the game plays', { timeout: 120_000 }, () => {
  let sites: PortalSites;
  let chromium: CdpChromium;
  let profile: string;
  beforeAll(async () => {
    sites = await startPortalSites({ alpha: {} });
    profile = mkdtempSync(join(tmpdir(), 'gc-discard-'));
    writeFileSync(join(profile, 'Local State'), JSON.stringify({ internal_only_uis_enabled: true }));
    chromium = await launchChromiumOverCdp({ profile });
  });
  afterAll(async () => {
    await chromium?.close();
    await sites?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('the portal tab discarded mid-level (the discard of an extension, chrome.tabs.discard): that exit brings the session with its full play time; back on the tab (document.wasDiscarded), the copy left stored is answered SKIPPED, recorded once', async () => {
    const alpha = sites.games['alpha']!;
    const player = 'discarded';
    const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 2_600);
    const ui = await chromium.context.newPage();
    await ui.goto('chrome://discards');
    // LifecycleUnitDiscardReason 0, EXTERNAL: as chrome.tabs.discard (an urgent discard refuses a visible tab, and a
    // Playwright-driven tab stays visible).
    const discarded = () =>
      ui.evaluate(async () => {
        const discards = await (0, eval)("import('chrome://discards/discards.js')");
        const provider = discards.getOrCreateDetailsProvider();
        const portalTab = async () =>
          ((await provider.getTabDiscardsInfo()).infos as Array<{ id: number; state: number; tabUrl: unknown }>).find((info) => String(info.tabUrl).includes('/play/alpha'))!;
        await provider.discardById((await portalTab()).id, 0);
        return (await portalTab()).state; // mojom LifecycleUnitState: 5 is DISCARDED
      });
    const played = await endPlay(playing, async () => expect(await discarded()).toBe(5));
    await untilCount(() => alpha.recorded(player).length, 1);
    expect(alpha.recorded(player)[0]!.sessionId).toBe(playing.sessionId);
    expectPlayTime(alpha.recorded(player)[0]!.durationSeconds, played);

    // The player clicks the tab: Chromium reloads it (activating the target over CDP, as the tab strip does).
    const browserCdp = await chromium.context.browser()!.newBrowserCDPSession();
    const { targetInfos } = await browserCdp.send('Target.getTargets');
    const target = targetInfos.find((info) => info.type === 'page' && info.url.includes('/play/alpha'))!;
    await browserCdp.send('Target.activateTarget', { targetId: target.targetId });
    await expect.poll(() => chromium.context.pages().some((page) => page !== tab.page && page.url().includes('/play/alpha')), ARRIVAL).toBe(true);
    const back = chromium.context.pages().find((page) => page !== tab.page && page.url().includes('/play/alpha'))!;
    await expect.poll(() => gameLog(back, 'alpha').catch(() => []), ARRIVAL).toEqual(expect.arrayContaining([{ game: 'alpha', type: 'ready' }]));
    const game = back.frames().find((frame) => frame.url().startsWith(`${sites.origin('cdn')}/alpha/`))!;
    expect(await game.evaluate(() => (document as unknown as { wasDiscarded?: boolean }).wasDiscarded)).toBe(true);
    await expectFlushAnswers({ page: back, game }, [`${playing.sessionId} SKIPPED`]);
    expect((await gameLog(back, 'alpha')).filter((message) => ['error', 'thrown', 'dropped'].includes(message.type))).toEqual([]);
    expect(alpha.recorded(player).map((session) => session.sessionId)).toEqual([playing.sessionId]);
    await back.close();
    await ui.close();
  });
});
