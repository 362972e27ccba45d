/**
 * docs/guides/webview-and-picker.md's first example runs as a studio copies it, on a page in Chromium, against the
 * emulator through a real relay: bundled with esbuild from the built entries (dist/), with only what points it at
 * this machine changed (the Client key, the emulator's address, the relay's, the campaign), each edit failing when
 * the guide no longer holds what it replaces (as test/browser/guide-snippets.test.ts runs the browser guide's).
 * Compiling alone (test/docs/docs.test.ts) does not show that the web view opens with a token the service exchanges,
 * that the boost is changed for the authenticated player, or what the picker shows after it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edit } from '../helpers/guide-code.js';
import type { CreatorPickerState } from '../../core/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID } from '../../emulator/fixtures.js';
import type { RunningEmulator } from '../../emulator/index.js';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { chromiumAvailable } from '../helpers/chromium.js';
import type { GameFiles } from '../helpers/game-server.js';
import { startGuideGame, type GuideGame } from '../helpers/guide-game.js';

const ROOT = join(import.meta.dirname, '../..');
const GUIDE = 'docs/guides/webview-and-picker.md';
/** The login tokens the relay here knows, by player: `sessionToken()` gives one. */
const PLAYERS = { 'player-1': 'your-login-token', 'player-2': 'second-login-token' } as const;

describe.runIf(chromiumAvailable())(`${GUIDE}, the first example on a page (Chromium)`, { timeout: 90_000 }, () => {
  const files: GameFiles = {};
  let game: GuideGame;
  let emulator: RunningEmulator;
  let origin: string;
  let browser: GuideGame['browser'];

  beforeAll(async () => {
    game = await startGuideGame(files, PLAYERS);
    ({ emulator, origin, browser } = game);
  });

  afterAll(() => game?.close());

  /** The example as the page `path` runs it for `player` (signed in with their token), `change` the guide's boost change or what replaces it. */
  async function openExample(path: string, player: keyof typeof PLAYERS, change?: string) {
    const blocks = tsBlocks(readFileSync(join(ROOT, GUIDE), 'utf8')) as Array<{ code: string }>;
    let code = blocks.find((block) => block.code.includes('gc.webview.open('))!.code;
    code = edit(code, "const campaignId = 'spring-event';", `const campaignId = ${JSON.stringify(DEMO_ACTIVE_CAMPAIGN_ID)};`);
    code = edit(code, "clientKey: 'ck_key:secret', environment: 'sandbox',", `clientKey: ${JSON.stringify(emulator.clientKey)}, environment: { baseUrl: ${JSON.stringify(emulator.url)} },`);
    code = edit(code, "url: 'https://game.example/campaign'", `url: ${JSON.stringify(`${origin}/campaign`)}`);
    code = edit(code, 'declare function sessionToken(): Promise<string>;', `const sessionToken = async () => ${JSON.stringify(PLAYERS[player])};`);
    code = edit(code, "userId: 'player-1',", `userId: ${JSON.stringify(player)},`); // the game's player, signed in with that token
    code = edit(code, 'declare function render(state: CreatorPickerState): void;', 'const render = (state: CreatorPickerState) => { (window as unknown as { shown: CreatorPickerState }).shown = state; };');
    code = edit(code, 'declare const boostButton: HTMLButtonElement;', "const boostButton = document.body.appendChild(document.createElement('button'));");
    if (change !== undefined) code = edit(code, "await gc.boost.change({ newCreatorKey: 'LUNA7', callbackId: 'boost-42' });", change);
    // The player reads the page, then closes it (below, with Escape): the example goes on once it is closed.
    code = edit(code, 'await view.closed;', "document.title = 'open'; await view.closed;");
    code = `${code}\ndocument.title = 'done';`;
    const bundled = await build({
      stdin: { contents: code, loader: 'ts', resolveDir: ROOT, sourcefile: 'game.ts' },
      alias: { 'game-campaign-sdk/browser': './dist/browser.js', 'game-campaign-sdk': './dist/index.js' },
      bundle: true, format: 'esm', platform: 'browser', target: 'es2022', write: false,
    });
    files[path] = ['text/html', `<!doctype html><title>game</title><script type="module" src="${path}game.js"></script>`];
    files[`${path}game.js`] = ['text/javascript', bundled.outputFiles[0]!.text];

    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    await page.goto(`${origin}${path}`);
    await page.waitForFunction(() => document.title === 'open', undefined, { timeout: 20_000 });
    return { page, problems };
  }

  const shown = (page: Page) => page.evaluate(() => (window as unknown as { shown: CreatorPickerState }).shown);
  const boostsOf = (userId: string) => emulator.state().boosts.filter((boost) => boost.userId === userId).map((boost) => boost.creatorKey);

  it('opens the web view with a token the emulator page exchanges, boosts LUNA7 for the signed-in player, and the picker shows that boost in its cooldown', async () => {
    const { page, problems } = await openExample('/boost/', 'player-1');
    // The emulator's page in the overlay exchanged the one-time token with the verifier of the URL's fragment.
    await expect.poll(() => emulator.state().webview.sessions.filter((session) => session.userId === 'player-1').length).toBe(1);
    expect(emulator.state().webview.sessions.find((session) => session.userId === 'player-1')).toMatchObject({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, showCampaignDetail: true });
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 20_000 });
    expect(boostsOf('player-1')).toEqual(['LUNA7']);

    await expect.poll(async () => (await shown(page)).loading).toBe(false);
    // LUNA7 is the creator boosted in this campaign, and the 30-day cooldown runs: the Boost button sends nothing.
    expect(await shown(page)).toMatchObject({ selected: 'LUNA7', boost: { creatorKey: 'LUNA7' }, canConfirm: false, cooldownDays: 30, confirming: false, error: undefined });
    await page.click('button');
    expect((await shown(page)).error).toBeUndefined();
    expect(emulator.state().boostHistory.filter((entry) => entry.userId === 'player-1')).toHaveLength(1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a player who never boosted: the Boost button makes the first boost', async () => {
    const { page, problems } = await openExample('/first-boost/', 'player-2', '');
    await page.keyboard.press('Escape');
    await page.waitForFunction(() => document.title === 'done', undefined, { timeout: 20_000 });
    await expect.poll(async () => (await shown(page)).canConfirm).toBe(true);
    expect(boostsOf('player-2')).toEqual([]);
    await page.click('button');
    await expect.poll(() => boostsOf('player-2')).toEqual(['LUNA7']);
    await expect.poll(async () => (await shown(page)).cooldownDays).toBe(30);
    expect(await shown(page)).toMatchObject({ boost: { creatorKey: 'LUNA7' }, canConfirm: false, error: undefined });
    expect(problems).toEqual([]);
    await page.close();
  });
});
