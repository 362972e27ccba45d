// The <script> bundle as built: it parses as ES2020 (old WebViews), defines the global GameCampaign with exactly the
// browser entry's exports without touching any browser global at load, and its hand-written declaration types
// that global from the browser entry's declarations. Runs after the build (`npm test` builds first).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { parse } from 'acorn';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';

const ROOT = join(import.meta.dirname, '../..');
const IIFE_TYPES = IIFE.file.replace(/\.js$/, '.d.ts');
beforeAll(() => {
  if (!existsSync(join(ROOT, IIFE.file))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
});

describe('dist/game-campaign.iife.js', () => {
  const code = () => readFileSync(join(ROOT, IIFE.file), 'utf8');

  it('parses as ES2020 and is not valid for an older parser by accident of a newer syntax', () => {
    expect(() => parse(code(), { ecmaVersion: 2020, sourceType: 'script' })).not.toThrow();
    expect(() => parse('class A { x = 1 }', { ecmaVersion: 2020 })).toThrow(); // the check does catch ES2022
  });

  it('carries no zod (tree-shaken as package.json declares: a type-only import does not pull the relay schemas in), no SHA-256, no web view code (overlay, PKCE) and no picker code', () => {
    expect(code()).not.toMatch(/\$Zod/); // zod's class names survive minification
    expect(code()).not.toMatch(/0x6a09e667|1779033703/); // SHA-256's first initial hash word: @noble/hashes is in game-campaign.sha256.js only
    expect(code()).not.toMatch(/position:fixed/); // the overlay's style: in game-campaign.webview.js only
    expect(code()).not.toMatch(/ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_/); // PKCE's Base64URL alphabet: there too
    expect(code()).not.toMatch(/code_verifier/);
    expect(code()).not.toMatch(/sponsoredAt/); // the picker's cooldown: in game-campaign.picker.js only
    expect(readFileSync(join(ROOT, IIFE_SIBLINGS.picker.file), 'utf8')).toMatch(/sponsoredAt/);
    const webview = readFileSync(join(ROOT, IIFE_SIBLINGS.webview.file), 'utf8');
    expect(webview).toMatch(/position:fixed/);
    expect(webview).toMatch(/code_verifier/);
  });

  it('has siblings that parse as ES2020 and set their globals, touching no browser global at load', () => {
    for (const sibling of Object.values(IIFE_SIBLINGS)) {
      const sibCode = readFileSync(join(ROOT, sibling.file), 'utf8');
      expect(() => parse(sibCode, { ecmaVersion: 2020, sourceType: 'script' }), sibling.file).not.toThrow();
      const sandbox: Record<string, unknown> = {};
      runInNewContext(sibCode, sandbox);
      expect(Object.keys(sandbox), sibling.file).toEqual([sibling.name]);
    }
    const sandbox: Record<string, Record<string, unknown>> = {};
    runInNewContext(readFileSync(join(ROOT, IIFE_SIBLINGS.webview.file), 'utf8'), sandbox);
    expect(typeof sandbox[IIFE_SIBLINGS.webview.name]!['createBrowserWebView']).toBe('function');
    expect(typeof sandbox[IIFE_SIBLINGS.webview.name]!['openPage']).toBe('function');
    runInNewContext(readFileSync(join(ROOT, IIFE_SIBLINGS.picker.file), 'utf8'), sandbox);
    expect(typeof sandbox[IIFE_SIBLINGS.picker.name]!['pickerCore']).toBe('function');
  });

  it('defines GameCampaign with exactly the exports of game-campaign-sdk/browser, touching no browser global at load', async () => {
    const sandbox: Record<string, unknown> = {};
    runInNewContext(code(), sandbox); // no window, document, navigator or indexedDB here
    const global = sandbox[IIFE.name] as Record<string, unknown>;
    const entry = await import(join(ROOT, 'dist/browser.js'));
    expect(Object.keys(global).sort()).toEqual(Object.keys(entry).sort());
    for (const name of ['createGameCampaign', 'createBrowserPlatform', 'createIdbStorage', 'CampaignError', 'NotFoundError', 'BoostCooldownError', 'StorageUnavailableError']) {
      expect(typeof global[name], name).toBe('function');
    }
  });
});

describe('dist/game-campaign.iife.d.ts', () => {
  it('is the hand-written source, copied by the build', () => {
    expect(readFileSync(join(ROOT, IIFE_TYPES), 'utf8')).toBe(readFileSync(join(ROOT, IIFE.types), 'utf8'));
  });

  it('types the global for a plain <script> user: the real exports type-check, a missing one does not', () => {
    mkdirSync(join(ROOT, 'temp'), { recursive: true });
    const dir = mkdtempSync(join(ROOT, 'temp', 'iife-types-'));
    try {
      const file = join(dir, 'game.ts');
      writeFileSync(
        file,
        `/// <reference path="${join(ROOT, IIFE_TYPES)}" />
const gc = GameCampaign.createGameCampaign({ clientKey: 'ck_key:secret', relay: { url: '/campaign' }, userId: 'player-1', browser: { dbName: 'game' } });
const sessionId: string = gc.tracker.start({ campaignId: 'spring' });
gc.tracker.on('dropped', (event) => console.log(event.sessionId, event.reason));
const platform = window.GameCampaign.createBrowserPlatform({ webView: { mode: 'window' } });
void platform.storage.persistent();
const isCampaignError = (error: unknown): boolean => error instanceof GameCampaign.CampaignError || error instanceof GameCampaign.StorageUnavailableError;
// @ts-expect-error the memory platform is not in the browser bundle
GameCampaign.createMemoryPlatform();
// @ts-expect-error a wrong option type
GameCampaign.createGameCampaign({ clientKey: 1, relay: { url: '/campaign' }, userId: 'player-1' });
console.log(sessionId, isCampaignError);
`,
      );
      const program = ts.createProgram([file], { strict: true, noEmit: true, target: ts.ScriptTarget.ES2020, lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], moduleResolution: ts.ModuleResolutionKind.Bundler, module: ts.ModuleKind.ESNext, skipLibCheck: false });
      const problems = ts.getPreEmitDiagnostics(program).map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(problems).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
