/**
 * Service workers around a game on a portal (Chromium with its defaults, on *.localhost: a secure context): the
 * portal page's own worker, and the game's own worker registered in its cross-site frame (partitioned by the
 * portal's site). The workers are test/browser/service-workers/cached-posts.js, the one that keeps sessions from the
 * relay when it sees its requests (test/browser/service-worker.test.ts); the rule is docs/guides/browser.md's
 * ("Service workers") with the studio's relay URL, as a game whose relay is on another site writes it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { edit } from '../../helpers/guide-code.js';
import { closeTab, endPlay, flushNow, gameLog, openPortal, playALevel, playFor, pressPlay, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

const ROOT = join(import.meta.dirname, '../../..');
const CACHED_POSTS = readFileSync(join(import.meta.dirname, '../service-workers/cached-posts.js'), 'utf8');
const GUIDE_RULE = /```js\n(\/\/ Your relay's mount URL[\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/guides/browser.md'), 'utf8'))![1]!;

/**
 * Resolves once `frame`'s document is controlled by the worker `script` (registered by its page, claimed at
 * activation): an earlier story's worker of the same scope is replaced by it, not waited for.
 */
const controlled = (frame: Frame, script: string) => frame.waitForFunction((name) => navigator.serviceWorker.controller?.scriptURL.endsWith(name) === true, script);

describe.runIf(chromiumAvailable())('portal play in Chromium: service workers', { timeout: 90_000 }, () => {
  const world = portalWorld({ alpha: {} }, 'localhost');

  it('the portal page\'s own worker (it answers POSTs from its cache) sees nothing of the game\'s cross-site frame: every level, and the tab closed mid-level, recorded once', async () => {
    const { chromium, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = 'portal-worker';
    sites.workers['portal/sw.js'] = CACHED_POSTS;
    const first = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    await first.page.evaluate(() => navigator.serviceWorker.register('/sw.js'));
    await controlled(first.page.mainFrame(), '/sw.js');
    await closeTab(chromium.context, first.page);

    const tab = await openPortal(chromium.context, sites, { portal: 'portal', game: 'alpha', player });
    expect(await tab.page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
    expect(await tab.game.evaluate(() => navigator.serviceWorker.controller)).toBeNull();
    const levels = [await playALevel(tab, 1_500), await playALevel(tab, 1_500)];
    const playing = await pressPlay(tab.game);
    await playFor(tab.page, 1_500);
    await endPlay(playing, () => closeTab(chromium.context, tab.page));
    await untilCount(() => alpha.recorded(player).length, 3);
    expect(alpha.recorded(player).map((session) => session.sessionId).sort()).toEqual([...levels.map((level) => level.sessionId), playing.sessionId].sort());
    // The portal's worker leaves with its story: the next stories' portal pages are not controlled.
    const page = await chromium.context.newPage();
    await page.goto(`${sites.origin('portal')}/`);
    await page.evaluate(async () => Promise.all((await navigator.serviceWorker.getRegistrations()).map((registration) => registration.unregister())));
    await page.close();
  });

  it.each([
    ['as shipped', false],
    ['with the guide\'s rule (the studio\'s relay URL)', true],
  ] as const)('the game\'s own worker in its cross-site frame, answering POSTs from its cache, %s', async (_title, rule) => {
    const { chromium, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = `game-worker-${rule ? 'rule' : 'shipped'}`;
    const relay = `${sites.origin('studio')}/alpha/campaign/`;
    sites.workers['cdn/alpha/sw.js'] = CACHED_POSTS;
    sites.workers['cdn/sw-rule.js'] = edit(GUIDE_RULE, "new URL('/campaign/', self.location.origin).href", JSON.stringify(relay));
    alpha.settings.beforeSdk = `navigator.serviceWorker.register('sw.js${rule ? '?rule' : ''}')`;
    try {
      // Each on a portal of its own: the game's worker registered under one portal is not the other's (partitioned).
      const portal = rule ? 'arcade' : 'portal';
      const tab = await openPortal(chromium.context, sites, { portal, game: 'alpha', player });
      await controlled(tab.game, rule ? '/sw.js?rule' : '/sw.js');
      const levels = [await playALevel(tab, 1_500), await playALevel(tab, 1_500)];
      const playing = await pressPlay(tab.game);
      await playFor(tab.page, 1_500);
      await endPlay(playing, () => closeTab(chromium.context, tab.page));
      const ids = [...levels.map((level) => level.sessionId), playing.sessionId];
      if (rule) {
        await untilCount(() => alpha.recorded(player).length, 3);
        expect(alpha.recorded(player).map((session) => session.sessionId).sort()).toEqual([...ids].sort());
      } else {
        // The first level's answer is cached; every later POST (the exit's too, the tab gone) gets it.
        await untilCount(() => alpha.recorded(player).length, 1);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        expect(alpha.recorded(player).map((session) => session.sessionId)).toEqual([ids[0]]);
        // Kept, not deleted: the next visit's flush sends the two still stored, and is told the answer names neither.
        const next = await openPortal(chromium.context, sites, { portal, game: 'alpha', player });
        await flushNow(next.game);
        const errors = (await gameLog(next.page, 'alpha')).filter((message) => message.type === 'error').map((message) => message.detail);
        expect(errors).toContain('relay: Error: The relay answered 0 of 2 sessions');
        expect(alpha.recorded(player)).toHaveLength(1);
        await closeTab(chromium.context, next.page);
      }
    } finally {
      delete alpha.settings.beforeSdk;
    }
  });
});
