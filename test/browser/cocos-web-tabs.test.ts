// Two tabs of a Cocos Creator web build in real Chromium: one `localStorage` (the engine's `sys.localStorage` is the
// page's `window.localStorage` once it has started: cocos-engine v3.8 cocos/core/platform/sys.ts `sys.init`), so
// one queue and one set of running-session records. DESIGN section 4: `Platform.lock` is exclusive across tabs.
// The `cc` objects are a stand-in shaped as the engine's (`game` an event target with on/off, `Game.EVENT_HIDE/SHOW`
// 'game_on_hide'/'game_on_show': cocos/game/game.ts); the SDK is the built `game-campaign-sdk/cocos` entry.
// Time is each page's clock; outcomes are polled, never timed.
import { build } from 'esbuild';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USERS } from '../../emulator/index.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { serveGameWithEmulator } from '../helpers/game-server.js';

const ROOT = join(import.meta.dirname, '../..');
const USER = DEMO_USERS.changeable;

/**
 * A Cocos web game's start-up once the engine has started (`/`; `/sandboxed.html` is the same game with the SDK inline,
 * shown by `/portal.html` in a `sandbox="allow-scripts"` frame). `sys.localStorage` is the engine's warn-only stubs
 * where the page's storage is denied (cocos/core/platform/sys.ts `sys.init`).
 */
const game = (emulatorUrl: string) => `
  const listeners = new Map();
  const cc = {
    sys: { localStorage: (() => { try { return window.localStorage; } catch { const warn = () => undefined; return { getItem: warn, setItem: warn, removeItem: warn, clear: warn, key: warn, length: 0 }; } })(), isNative: false, isBrowser: true, openURL() {} },
    game: {
      on: (type, callback) => (listeners.get(type) ?? listeners.set(type, new Set()).get(type)).add(callback),
      off: (type, callback) => listeners.get(type)?.delete(callback),
    },
    Game: { EVENT_HIDE: 'game_on_hide', EVENT_SHOW: 'game_on_show' },
  };
  window.errors = [];
  window.gc = sdk.createGameCampaign({
    cc,
    clientKey: 'ck_cocosweb:secret',
    environment: { baseUrl: ${JSON.stringify(emulatorUrl)} },
    relay: { url: '/campaign', headers: { authorization: 'Bearer ${USER}' } },
    userId: '${USER}',
    tracker: { checkpointMs: 500, flushIntervalMs: 600000 },
  });
  window.gc.tracker.on('error', (event) => window.errors.push(event.kind + ': ' + String(event.error)));
  window.ready = true;`;

describe.runIf(chromiumAvailable())('a Cocos web build in two tabs of one player (Chromium)', () => {
  let served: Awaited<ReturnType<typeof serveGameWithEmulator>>;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  beforeAll(async () => {
    const bundle = (format: 'esm' | 'iife') =>
      build({
        stdin: {
          contents: `export * from './dist/cocos.js';`,
          resolveDir: ROOT,
        },
        bundle: true,
        format,
        globalName: 'sdk',
        platform: 'browser',
        write: false,
      });
    const sdk = (await bundle('esm')).outputFiles[0]!.text;
    // Inline in the sandboxed frame's page: an opaque origin's module script request is a CORS one.
    const inline = (await bundle('iife')).outputFiles[0]!.text.replaceAll('</script', '<\\/script');
    served = await serveGameWithEmulator((emulator) => {
      // A sandboxed frame's requests to the relay are cross-origin ones (its origin is opaque): they fail, which is not
      // what its story checks (its locks).
      const page = `<!doctype html><title>cocos web build</title><script type="module">import * as sdk from '/cocos.mjs';${game(emulator.url)}</script>`;
      return {
        '/cocos.mjs': ['text/javascript', sdk],
        '/': ['text/html', page],
        '/sandboxed.html': ['text/html', `<!doctype html><title>cocos web build</title><script>${inline}</script><script>${game(emulator.url)}</script>`],
        '/portal.html': ['text/html', `<!doctype html><title>portal</title><iframe sandbox="allow-scripts" src="/sandboxed.html"></iframe>`],
      };
    });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await served?.close();
  });

  const open = async () => {
    const page = await browser.context.newPage();
    await page.clock.install();
    await page.goto(`${served.origin}/`);
    await page.waitForFunction(() => (window as any).ready === true);
    return page;
  };
  const tracker = (page: Page, call: 'start' | 'stop' | 'flush') => page.evaluate((what) => (window as any).gc.tracker[what](), call) as Promise<string | undefined>;
  const recorded = (id: string) =>
    served.emulator
      .state()
      .sessions.filter((session) => session.sessionId === id)
      .map((session) => session.durationSeconds);

  it("a second tab opened while the first plays does not take the first tab's running session for a crashed one: recorded whole, once", async () => {
    const tabA = await open();
    const id = (await tracker(tabA, 'start'))!;
    await tabA.clock.runFor(10_000); // checkpoints every 500 ms: the running record says 10 s
    // The player opens the game again in a second tab; its start-up looks at the running records both tabs share.
    const tabB = await open();
    await tabB.clock.runFor(2_000);
    await tabA.clock.runFor(20_000);
    await tracker(tabA, 'stop');
    await tracker(tabA, 'flush');
    // Real time passes between the page clocks' runs too: at least the 30 s tab A's clock ran, in one record.
    await expect.poll(() => recorded(id)[0] ?? 0).toBeGreaterThanOrEqual(30);
    const whole = recorded(id);
    // Tab B sent nothing of it (before: it sent the session ended at A's last checkpoint, about 10 s, and A's whole one
    // was answered SKIPPED).
    await tabB.clock.runFor(2_000);
    await tracker(tabB, 'flush');
    expect(recorded(id)).toEqual(whole);
    expect(await tabB.evaluate(() => (window as any).errors)).toEqual([]);
    await Promise.all([tabA.close(), tabB.close()]);
  });

  it('a game in a sandboxed frame (an opaque origin: Web Locks denied, storage kept in memory) still runs its tracker: no lock error', async () => {
    const portal = await browser.context.newPage();
    await portal.goto(`${served.origin}/portal.html`);
    await expect.poll(() => portal.frames().length).toBe(2);
    const frame = portal.frames().find((f) => f !== portal.mainFrame())!;
    await frame.waitForFunction(() => (window as any).ready === true);
    expect(await frame.evaluate(() => String((navigator as any).locks && window.origin))).toBe('null');
    const id = await frame.evaluate(() => (window as any).gc.tracker.start());
    expect(id).toMatch(/./);
    await frame.evaluate(() => (window as any).gc.tracker.stop());
    // The flush runs under the flush lock: it settles (its send fails or not) rather than the lock failing.
    await frame.evaluate(() => (window as any).gc.tracker.flush().catch((error: unknown) => String(error)));
    const errors: string[] = await frame.evaluate(() => (window as any).errors);
    expect(errors.filter((error) => error.startsWith('lock'))).toEqual([]);
    await portal.close();
  });
});
