/**
 * docs/guides/browser.md, "With a bundler", built with Rollup as a studio configures it (@rollup/plugin-node-resolve
 * with `browser: true`, @rollup/plugin-commonjs, ES modules with the chunks Rollup splits off), run on a page in
 * Chromium against the emulator through a relay on the page's origin. test/browser/guide-snippets.test.ts runs the
 * same block bundled by esbuild; the guide names Rollup among the bundlers that resolve `game-campaign-sdk/browser`
 * "as installed, with no setting": here the SDK is resolved from a node_modules folder, as an installed package.
 * Only what points the block at this machine is changed, each edit failing when the guide no longer holds it; its
 * types are stripped by esbuild's transform, as a studio's TypeScript plugin strips them.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import commonjs from '@rollup/plugin-commonjs';
import { nodeResolve } from '@rollup/plugin-node-resolve';
import { transform } from 'esbuild';
import { rollup } from 'rollup';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edit } from '../helpers/guide-code.js';
import type { RunningEmulator } from '../../emulator/index.js';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { chromiumAvailable } from '../helpers/chromium.js';
import type { GameFiles } from '../helpers/game-server.js';
import { startGuideGame, type GuideGame } from '../helpers/guide-game.js';

const ROOT = join(import.meta.dirname, '../..');
/** The token the guide's `sessionToken()` gives: the relay here knows it as the guide's player. */
const TOKEN = 'your-login-token';

describe.runIf(chromiumAvailable())('docs/guides/browser.md, "With a bundler", bundled by Rollup (Chromium)', { timeout: 90_000 }, () => {
  const files: GameFiles = {};
  let game: GuideGame;
  let emulator: RunningEmulator;
  let origin: string;
  let browser: GuideGame['browser'];
  let app: string;

  beforeAll(async () => {
    game = await startGuideGame(files, { 'player-1': TOKEN });
    ({ emulator, origin, browser } = game);
    // The game's folder: the SDK installed in its node_modules (this repository, resolved through its package.json).
    app = mkdtempSync(join(tmpdir(), 'gc-rollup-game-'));
    mkdirSync(join(app, 'node_modules'));
    symlinkSync(ROOT, join(app, 'node_modules/game-campaign-sdk'), 'dir');
  });

  afterAll(async () => {
    await game?.close();
    if (app) rmSync(app, { recursive: true, force: true });
  });

  it('reads the campaign, records the play until stop(), and the closed tab sends it through the relay', async () => {
    const block = (tsBlocks(readFileSync(join(ROOT, 'docs/guides/browser.md'), 'utf8')) as Array<{ code: string }>).find((candidate) => candidate.code.includes("gc.tracker.on('dropped'"))!;
    let code = edit(block.code, "'ck_key:secret'", JSON.stringify(emulator.clientKey));
    code = edit(code, "environment: 'sandbox',", `environment: { baseUrl: ${JSON.stringify(emulator.url)} },`);
    // The player plays (a session under a second is dropped as too short).
    code = edit(code, '// ... the player plays;', 'await new Promise((resolve) => setTimeout(resolve, 1_500)); //');
    code = `${code}\nwindow.read = campaign.campaignId;\ndocument.title = 'stopped';`;
    writeFileSync(join(app, 'game.js'), (await transform(code, { loader: 'ts', format: 'esm' })).code);

    const bundle = await rollup({ input: join(app, 'game.js'), plugins: [nodeResolve({ browser: true }), commonjs()] });
    const { output } = await bundle.generate({ format: 'es' });
    await bundle.close();
    expect(output.filter((chunk) => chunk.type === 'chunk').length, 'Rollup split off the lazily loaded code').toBeGreaterThan(1);
    for (const chunk of output) files[`/rollup/${chunk.fileName}`] = ['text/javascript', chunk.type === 'chunk' ? chunk.code : String(chunk.source)];
    files['/favicon.ico'] = ['image/x-icon', ''];
    files['/rollup/'] = ['text/html', '<!doctype html><title>game</title><script type="module" src="/rollup/game.js"></script>'];

    const recorded = () => emulator.state().sessions.filter((session) => session.userId === 'player-1');
    const page = await browser.context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => (message.type() === 'warning' || message.type() === 'error') && problems.push(message.text()));
    await page.goto(`${origin}/rollup/`);
    await page.waitForFunction(() => document.title === 'stopped', undefined, { timeout: 20_000 });
    expect(await page.evaluate(() => (window as unknown as { read: string }).read)).toBe('cmp_spring_festival');
    expect(problems).toEqual([]);
    expect(recorded()).toEqual([]);
    // stop() queued the session; the player closes the tab, which sends it (the guide: closing is handled for you).
    await page.close({ runBeforeUnload: false });
    await expect.poll(() => recorded().length, { timeout: 20_000, interval: 200 }).toBe(1);
    expect(recorded()[0]).toMatchObject({ campaignId: 'cmp_spring_festival' });
    expect(recorded()[0]!.durationSeconds).toBeGreaterThanOrEqual(1);
  });
});
