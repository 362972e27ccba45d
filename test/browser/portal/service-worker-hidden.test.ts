/**
 * The game's own service worker in its portal frame (test/browser/service-workers/cached-posts.js: it answers POSTs
 * from its cache) as the player switches tabs mid-level: the page's exit request as it is hidden goes through the
 * worker like every flush. As shipped, the worker answers it with the first level's cached answer: the part played
 * is not recorded, and stays stored. With docs/guides/browser.md's rule (the studio's relay URL) it arrives. Driven
 * over raw CDP (./raw-cdp.ts), so the tab is really hidden; on *.localhost, a secure context.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { edit } from '../../helpers/guide-code.js';
import { ARRIVAL, untilCount } from './portal-player.js';
import { rawPortalWorld } from './portal-world.js';
import { told } from './raw-cdp.js';

const ROOT = join(import.meta.dirname, '../../..');
const CACHED_POSTS = readFileSync(join(import.meta.dirname, '../service-workers/cached-posts.js'), 'utf8');
const GUIDE_RULE = /```js\n(\/\/ Your relay's mount URL[\s\S]*?)```/.exec(readFileSync(join(ROOT, 'docs/guides/browser.md'), 'utf8'))![1]!;
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.runIf(chromiumAvailable())('portal play in Chromium: the game\'s own service worker as its tab is hidden', { timeout: 90_000 }, () => {
  const world = rawPortalWorld({ alpha: {} }, 'localhost');

  it.each([
    ['as shipped', false],
    ['with the guide\'s rule (the studio\'s relay URL)', true],
  ] as const)('%s: a level played and sent, a second one running as the player switches tabs', async (_title, rule) => {
    const { raw, sites } = world;
    const alpha = sites.games['alpha']!;
    const player = `hidden-game-worker-${rule ? 'rule' : 'shipped'}`;
    const script = rule ? 'sw.js?rule' : 'sw.js';
    sites.workers['cdn/alpha/sw.js'] = CACHED_POSTS;
    sites.workers['cdn/sw-rule.js'] = edit(GUIDE_RULE, "new URL('/campaign/', self.location.origin).href", JSON.stringify(`${sites.origin('studio')}/alpha/campaign/`));
    alpha.settings.beforeSdk = `navigator.serviceWorker.register('${script}')`;
    try {
      const tab = await raw.openPortal(sites.portalUrl('portal', 'alpha', player), 'alpha');
      // An earlier story's worker of the same scope is replaced by this one, not taken for it.
      await expect.poll(() => tab.evaluate<string | null>('game', 'navigator.serviceWorker.controller?.scriptURL ?? null'), ARRIVAL).toMatch(new RegExp(`/alpha/${script.replace('?', '\\?')}$`));
      const firstId = await tab.evaluate<string>('game', 'window.play()');
      await wait(1_500);
      await tab.evaluate('game', 'window.endLevel().then(() => gc.tracker.flush())');
      await untilCount(() => alpha.recorded(player).length, 1);

      const secondId = await tab.evaluate<string>('game', 'window.play()');
      await wait(1_500);
      const elsewhere = await raw.openTab(`${sites.origin('elsewhere')}/`);
      await expect.poll(() => tab.evaluate('game', 'document.visibilityState'), ARRIVAL).toBe('hidden');
      if (rule) {
        await untilCount(() => alpha.recorded(player).length, 2);
      } else {
        await wait(3_000); // the exit's request, had it reached the relay, is recorded well within this
        const errors = await told(tab, 'alpha', 'error');
        expect(errors).toContain('relay: Error: The relay answered 0 of 1 sessions');
      }
      expect(alpha.recorded(player).map((session) => session.sessionId).sort()).toEqual((rule ? [firstId, secondId] : [firstId]).sort());
      await elsewhere.close();
      await tab.close();
    } finally {
      delete alpha.settings.beforeSdk;
    }
  });
});
