/**
 * The browser and portals guides' game examples run as a developer copies them, on a page in Chromium, against the
 * emulator through a real relay: the bundler example is bundled with esbuild from the built ESM entry (dist/), the
 * `<script>` tag example loads the built IIFE from the path it names. Each block is read from the Markdown (as
 * test/docs/guide-examples.test.ts reads the server guides'), so the guide and this test cannot drift; only what points
 * it at this machine is changed (the emulator's key and address, the relay's address), each edit failing when the
 * guide no longer holds what it replaces. Compiling alone (test/docs/docs.test.ts) does not show that a block records
 * what the guide says it does.
 */
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edit } from '../helpers/guide-code.js';
import { toNodeHandler } from '../../adapters/node/index.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { serveGame, type GameFiles } from '../helpers/game-server.js';

const ROOT = join(import.meta.dirname, '../..');
const ARRIVAL = { timeout: 20_000, interval: 200 } as const;
/** The token the guides' `sessionToken()` / `loginToken()` give: the relay here knows it as the guides' player. */
const TOKEN = 'your-login-token';

/** The ```ts block of `guide` holding `containing`. */
function tsBlock(guide: string, containing: string): string {
  const blocks = tsBlocks(readFileSync(join(ROOT, guide), 'utf8')) as Array<{ code: string }>;
  const block = blocks.find((candidate) => candidate.code.includes(containing));
  expect(block, `${guide}: a ts block with ${containing}`).toBeDefined();
  return block!.code;
}

/** The ```html block of `guide` holding `containing`. */
function htmlBlock(guide: string, containing: string): string {
  const blocks = [...readFileSync(join(ROOT, guide), 'utf8').matchAll(/^```html\n([\s\S]*?)^```/gm)].map((match) => match[1]!);
  const block = blocks.find((candidate) => candidate.includes(containing));
  expect(block, `${guide}: an html block with ${containing}`).toBeDefined();
  return block!;
}

/** What a game's bundler makes of a guide's block: `game-campaign-sdk/browser` is the built ESM entry. */
async function bundle(code: string): Promise<string> {
  const out = await build({
    stdin: { contents: code, loader: 'ts', resolveDir: ROOT, sourcefile: 'game.ts' },
    alias: { 'game-campaign-sdk/browser': './dist/browser.js' },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022', // top-level await, in a module
    write: false,
  });
  return out.outputFiles[0]!.text;
}

describe.runIf(chromiumAvailable())('the browser and portals guides run on a page (Chromium)', { timeout: 90_000 }, () => {
  let emulator: RunningEmulator;
  let server: Server;
  /** The page's origin; the relay is also reached at `crossOrigin` (127.0.0.1 for localhost: another origin, as a portal's CDN and the studio's server are). */
  let origin: string;
  let crossOrigin: string;
  const files: GameFiles = {};
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    let pageOrigin = '';
    const relay = createRelay({
      server: new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } }),
      // The studio's login: the guides' token is the guides' player.
      authenticate: (request) => (request.headers.get('authorization') === `Bearer ${TOKEN}` ? { userId: 'player-1' } : null),
      cors: { origins: (requestOrigin) => requestOrigin === pageOrigin },
    });
    ({ server, origin: crossOrigin } = await serveGame(files, toNodeHandler(relay)));
    origin = crossOrigin.replace('127.0.0.1', 'localhost');
    pageOrigin = origin;
    files['/favicon.ico'] = ['image/x-icon', ''];
    files['/node_modules/game-campaign-sdk/dist/game-campaign.iife.js'] = ['text/javascript', readFileSync(join(ROOT, 'dist/game-campaign.iife.js'), 'utf8')];
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    server?.close();
    await emulator?.close();
  });

  const recorded = (userId: string) => emulator.state().sessions.filter((session) => session.userId === userId);

  /** portals.md, "The game client on a portal", pointed at this machine: the emulator, the relay on another origin, the guides' token. */
  function portalClient(): string {
    let code = tsBlock('docs/guides/portals.md', 'declare function loginToken()');
    code = edit(code, "'ck_live_demo:cs_live_demo'", JSON.stringify(emulator.clientKey));
    code = edit(code, "environment: 'live',", `environment: { baseUrl: ${JSON.stringify(emulator.url)} },`);
    code = edit(code, "'https://api.your-studio.example/campaign'", JSON.stringify(`${crossOrigin}/campaign`));
    return edit(code, 'declare function loginToken(): Promise<string>;', `const loginToken = async () => ${JSON.stringify(TOKEN)};`);
  }

  /** The portals guide's block holding `containing`, which declares the game's `gc`: it follows the portal client's block. */
  function withPortalClient(containing: string): string {
    let code = tsBlock('docs/guides/portals.md', containing);
    code = edit(code, "import type { GameCampaign } from 'game-campaign-sdk/browser';", '');
    return `${portalClient()}\n${edit(code, 'declare const gc: GameCampaign;', '')}`;
  }

  /** The two sessions recorded since `before`, each of about 1.5 s played: one that counted the 4 s between them would be 5 s or more. */
  async function expectTwoParts(before: number): Promise<void> {
    await expect.poll(() => recorded('player-1').length, ARRIVAL).toBe(before + 2);
    for (const session of recorded('player-1').slice(before)) {
      expect(session.durationSeconds).toBeGreaterThanOrEqual(1);
      expect(session.durationSeconds).toBeLessThan(4);
    }
  }

  /** Serves `code`, bundled, as the module of the page at `path`. */
  async function servePage(path: string, code: string, body = ''): Promise<void> {
    files[path] = ['text/html', `<!doctype html><title>game</title>${body}<script type="module" src="${path}game.js"></script>`];
    files[`${path}game.js`] = ['text/javascript', await bundle(code)];
  }

  /** Opens `path` (at `at`, the page's origin unless told) in a new tab, collecting what the page threw or logged as a warning or error. */
  async function open(path: string, at = origin): Promise<{ page: Page; problems: string[] }> {
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => (message.type() === 'warning' || message.type() === 'error') && problems.push(message.text()));
    await page.goto(`${at}${path}`);
    return { page, problems };
  }

  /** browser.md's bundler block pointed at this machine, the player playing `playMs` before its stop(). */
  function bundlerExample(playMs: number): string {
    let code = tsBlock('docs/guides/browser.md', "gc.tracker.on('dropped'");
    code = edit(code, "'ck_key:secret'", JSON.stringify(emulator.clientKey));
    code = edit(code, "environment: 'sandbox',", `environment: { baseUrl: ${JSON.stringify(emulator.url)} },`);
    code = edit(code, "url: '/campaign'", "url: '/campaign'"); // on the page's own origin, as the guide says: unchanged
    code = edit(code, '// ... the player plays;', `await new Promise((resolve) => setTimeout(resolve, ${playMs})); //`);
    return `${code}\n(window as unknown as { read: string }).read = campaign.campaignId;\ndocument.title = 'stopped';`;
  }

  it('browser.md, "With a bundler": reads the campaign, records the play for it until stop(), and sends it through the relay with the game\'s token', async () => {
    // The player plays: long enough to be a session (one under a second is dropped as too short).
    await servePage('/bundled/', bundlerExample(1_500));

    const before = recorded('player-1').length;
    const { page, problems } = await open('/bundled/');
    await page.waitForFunction(() => document.title === 'stopped', undefined, { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { read: string }).read)).toBe('cmp_spring_festival'); // the read, from the emulator
    expect(problems).toEqual([]);
    // stop() queued the session; the player closes the tab, which sends it (the guide: closing is handled for you).
    await page.close({ runBeforeUnload: false });
    await expect.poll(() => recorded('player-1').length, ARRIVAL).toBe(before + 1);
    expect(recorded('player-1').at(-1)!.durationSeconds).toBeGreaterThanOrEqual(1);
  });

  it('browser.md, "With a bundler", a play under a second: the example\'s dropped listener reports it (too-short), nothing is sent', async () => {
    await servePage('/bundled-short/', bundlerExample(0));
    const before = recorded('player-1').length;
    const { page, problems } = await open('/bundled-short/');
    await page.waitForFunction(() => document.title === 'stopped', undefined, { timeout: 20_000 });
    expect(problems).toEqual([expect.stringMatching(/^not recorded [\w-]+ too-short$/)]);
    await page.close({ runBeforeUnload: false });
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // a request from the closed tab would have come now
    expect(recorded('player-1').length).toBe(before);
  });

  it('browser.md, "With a <script> tag": the page as written (the bundle at the path it names) records until its Stop button, sent through the relay', async () => {
    const html = htmlBlock('docs/guides/browser.md', 'GameCampaign.createGameCampaign');
    files['/'] = ['text/html', `<!doctype html><title>game</title>\n${html}`];
    const before = recorded('player-1').length;
    const { page, problems } = await open('/');
    await page.waitForTimeout(1_500); // the player plays: a session of over a second
    await page.click('#stop');
    expect(problems).toEqual([]);
    // Stopped, the session is queued; the tab closed sends it.
    await page.close({ runBeforeUnload: false });
    await expect.poll(() => recorded('player-1').length, ARRIVAL).toBe(before + 1);
  });

  it('portals.md, "The game client on a portal": the relay on another origin (absolute relay.url, the token in a header, cors): the session leaves as the tab closes', async () => {
    const code = `${portalClient()}\ndocument.title = 'playing';`;
    await servePage('/portal-client/', code);

    const before = recorded('player-1').length;
    const { page, problems } = await open('/portal-client/');
    await page.waitForFunction(() => document.title === 'playing');
    await page.waitForTimeout(1_500); // the player plays, then closes the tab: only the exit request can send it
    expect(problems).toEqual([]);
    await page.close({ runBeforeUnload: false });
    await expect.poll(() => recorded('player-1').length, ARRIVAL).toBe(before + 1);
  });

  it.each([true, false])(
    'portals.md, the opt-out kept with the account (recordPlaytime %s): applied before start(), it decides whether the play is recorded',
    async (recordPlaytime) => {
      let code = tsBlock('docs/guides/portals.md', 'declare function savedChoice()');
      code = edit(code, "'ck_live_demo:cs_live_demo'", JSON.stringify(emulator.clientKey));
      code = edit(code, "environment: 'live',", `environment: { baseUrl: ${JSON.stringify(emulator.url)} },`);
      code = edit(code, "relay: { url: 'https://api.your-studio.example/campaign' },", `relay: { url: ${JSON.stringify(`${crossOrigin}/campaign`)}, headers: { authorization: 'Bearer ${TOKEN}' } },`);
      code = edit(code, 'declare function savedChoice(): Promise<{ recordPlaytime: boolean }>;', `const savedChoice = async () => ({ recordPlaytime: ${recordPlaytime} });`);
      // What the game does next: a level played and ended, then sent.
      code += `\nconst played = gc.tracker.start({ campaignId: 'cmp_spring_festival' });\nawait new Promise((resolve) => setTimeout(resolve, 1_500));\nawait gc.tracker.stop();\nawait gc.tracker.flush();\ndocument.title = 'sent:' + played;`;
      const path = `/opt-out-${recordPlaytime}/`;
      await servePage(path, code);

      const { page, problems } = await open(path);
      await page.waitForFunction(() => document.title.startsWith('sent:'), undefined, { timeout: 20_000 });
      const sessionId = (await page.title()).slice('sent:'.length);
      // Opted out, start() records nothing (it answers '' for the session id); else the session is sent by the flush.
      expect(sessionId === '' ? [] : recorded('player-1').filter((session) => session.sessionId === sessionId).map((session) => session.sessionId)).toEqual(recordPlaytime ? [sessionId] : []);
      expect(sessionId !== '').toBe(recordPlaytime);
      expect(problems).toEqual([]);
      await page.close();
    }
  );

  it('portals.md, "Ad breaks": the play before the ad and the play after it are two sessions, the ad in neither', async () => {
    let adBreak = withPortalClient('async function adBreak(');
    // The portal's ad: 4 s, longer than either part played, so a part that counted it would show.
    adBreak = edit(adBreak, 'declare function showAd(): Promise<void>;', 'const showAd = () => new Promise<void>((resolve) => setTimeout(resolve, 4_000));');
    const code = `${adBreak}\nawait new Promise((resolve) => setTimeout(resolve, 1_500));\nawait adBreak({ campaignId: 'cmp_spring_festival' });\nawait new Promise((resolve) => setTimeout(resolve, 1_500));\ndocument.title = 'played';`;
    await servePage('/ad-break/', code);

    const before = recorded('player-1').length;
    // On the relay's origin: the opt-out story's choice stays stored on the other one (portals.md: "stored where it was made").
    const { page, problems } = await open('/ad-break/', crossOrigin);
    await page.waitForFunction(() => document.title === 'played', undefined, { timeout: 20_000 });
    expect(problems).toEqual([]);
    await page.close({ runBeforeUnload: false });
    await expectTwoParts(before); // the 4 s ad in neither
  });

  it('portals.md, "A game frame the portal hides": the game\'s IntersectionObserver ends the session while the portal hides its frame and starts a new one when shown, the hidden time in neither', async () => {
    let watch = withPortalClient('new IntersectionObserver(');
    watch = edit(watch, 'declare const campaignId: string;', "const campaignId = 'cmp_spring_festival';");
    watch = edit(watch, 'declare function playing(): boolean;', 'const playing = () => true;');
    const code = `${watch}\nfor (const type of ['session:start', 'session:end'] as const) gc.tracker.on(type, () => ((window as unknown as { changes: number }).changes = ((window as unknown as { changes?: number }).changes ?? 0) + 1));`;
    await servePage('/hidden-frame/', code, '<h1>game</h1>');
    // The portal's page on another site (localhost) than the game (127.0.0.1), as the guide's probe had it.
    files['/hidden-frame-portal/'] = ['text/html', `<!doctype html><title>portal</title><iframe id="game" src="${crossOrigin}/hidden-frame/" width="400" height="300"></iframe>`];

    const before = recorded('player-1').length;
    const { page, problems } = await open('/hidden-frame-portal/');
    const frame = () => page.frames().find((candidate) => candidate.url().startsWith(`${crossOrigin}/hidden-frame/`))!;
    await expect.poll(() => frame()?.evaluate(() => document.readyState), ARRIVAL).toBe('complete');
    await page.waitForTimeout(1_500); // played
    const changes = () => frame().evaluate(() => (window as unknown as { changes?: number }).changes ?? 0);
    const seen = await changes();
    await page.evaluate(() => (document.getElementById('game')!.style.display = 'none'));
    await expect.poll(changes, ARRIVAL).toBe(seen + 1); // the session ended
    await page.waitForTimeout(4_000); // hidden: not play
    await page.evaluate(() => (document.getElementById('game')!.style.display = ''));
    await expect.poll(changes, ARRIVAL).toBe(seen + 2); // a new session started
    await page.waitForTimeout(1_500); // played again
    // This file's Chromium profile (Playwright's persistent context) refuses a third-party frame's IndexedDB; the SDK says
    // so once and keeps the sessions in memory, which this story does not depend on (test/browser/portal/ has storage there).
    expect(problems.filter((problem) => !problem.startsWith('StorageUnavailableError: IndexedDB is unavailable'))).toEqual([]);
    await page.close({ runBeforeUnload: false });
    await expectTwoParts(before); // the 4 s hidden in neither
  });
});
