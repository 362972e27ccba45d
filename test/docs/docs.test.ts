/**
 * The docs stay true: every TypeScript block in README.md and docs/ compiles against the current API, and
 * every relative link in them points at a file that exists.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types
import { checkSnippets, markdownFiles } from '../../scripts/doc-snippets.mjs';
import { IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { gzipBytes } from '../../scripts/measure-sizes.mjs';
import { REPOSITORY } from '../../scripts/release.mjs';

const ROOT = join(import.meta.dirname, '../..');

describe('docs', () => {
  it('every TypeScript code block type-checks as copied into an empty project', () => {
    const { count, errors, fragments } = checkSnippets() as { count: number; errors: string[]; fragments: string[] };
    expect(count).toBeGreaterThan(30);
    expect(errors).toEqual([]);
    // A fragment (compiled with test/docs/snippet-context.d.ts's names) says why it cannot stand alone.
    for (const fragment of fragments) expect(fragment).toMatch(/:\d+: \S/);
  }, 120_000);

  // The guides leaned on test/docs/snippet-context.d.ts's `token`, `userId`, `platform`, `req`, `rawBody` and `grant`,
  // which a studio's project does not have: the tracker, relay, webhooks, web view, Cocos and React Native guides'
  // first blocks failed with "Cannot find name 'token'" once copied. Only a block marked as a fragment gets them now.
  it('a block using a name it does not declare fails, unless marked as a fragment or continuing a block that declares it', () => {
    const guide = [
      '```ts',
      "import { PlaytimeTracker } from 'game-campaign-sdk';",
      "new PlaytimeTracker({ platform, userId, relay: { url: 'https://game.example/campaign' } });",
      '```',
      '<!-- snippet: fragment: the platform and player come from the block above -->',
      '```ts',
      "import { PlaytimeTracker } from 'game-campaign-sdk';",
      "new PlaytimeTracker({ platform, userId, relay: { url: 'https://game.example/campaign' } });",
      '```',
      '```ts',
      'const greeting: string = `hello ${token}`;',
      '```',
      '<!-- snippet: continues -->',
      '```ts',
      'console.log(greeting.length);',
      '```',
      '<!-- snippet: fragmnet -->',
      '```ts',
      'console.log(1);',
      '```',
      '```html',
      '<script src="game-campaign.iife.js"></script>',
      '<script>',
      "  GameCampaign.createGameCampaign({ clientKey: 'ck_key:secret', relay: { url: '/campaign', headers: () => ({ token }) }, userId: 'p' });",
      '</script>',
      '```',
    ].join('\n');
    const out = join(ROOT, 'build/doc-snippets-self-test');
    const { count, errors, fragments } = checkSnippets([{ file: 'docs/guides/example.md', text: guide }], out) as { count: number; errors: string[]; fragments: string[] };
    expect(count).toBe(6);
    expect(fragments).toEqual(['docs/guides/example.md:7: the platform and player come from the block above']);
    expect(errors.sort()).toEqual(
      [
        "docs/guides/example.md:17: unknown snippet marker \"fragmnet\" (continues, bun, deno or fragment: <reason>)",
        "docs/guides/example.md:3: error TS18004: No value exists in scope for the shorthand property 'platform'. Either declare one or provide an initializer.",
        "docs/guides/example.md:3: error TS18004: No value exists in scope for the shorthand property 'userId'. Either declare one or provide an initializer.",
        "docs/guides/example.md:11: error TS2304: Cannot find name 'token'.",
        // An inline <script> of an html block is JavaScript the page runs with the IIFE's global.
        "docs/guides/example.md:24: error TS18004: No value exists in scope for the shorthand property 'token'. Either declare one or provide an initializer.",
      ].sort(),
    );
  }, 120_000);

  it("every relative link resolves, the generated reference and the samples' READMEs included", () => {
    const reference = readdirSync(join(ROOT, 'docs/reference')).map((file) => `docs/reference/${file}`);
    const samples = readdirSync(join(ROOT, 'samples'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).map((file) => `samples/${file}`);
    const broken: string[] = [];
    for (const file of [...(markdownFiles() as string[]), ...reference, ...samples]) {
      const text = readFileSync(join(ROOT, file), 'utf8').replace(/```[\s\S]*?```/g, '');
      // `\](...)` is escaped text, not a link (the reference's `\[Symbol.hasInstance\](value)`).
      for (const [, target] of text.matchAll(/(?<!\\)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        if (/^(https?:|mailto:|#)/.test(target!)) continue;
        const path = decodeURIComponent(target!.split('#')[0]!);
        if (!existsSync(join(ROOT, dirname(file), path))) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  // What a developer copies to install or read the SDK names its repository: docs/guides/unity.md gave the Package
  // Manager's git URL as `https://github.com/<org>/game-campaign-sdk.git`, a placeholder Unity refuses, where the Unity
  // package's README gave the real one. A release-tag address names this version (`npm run release` retags them).
  it("every address of the SDK's repository in the docs is the repository's, at this version's tag", () => {
    const version = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    const unity = ['adapters/unity/README.md', 'adapters/unity/package.json'];
    const samples = readdirSync(join(ROOT, 'samples'), { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.md')).map((file) => `samples/${file}`);
    const wrong: string[] = [];
    let count = 0;
    for (const file of [...(markdownFiles() as string[]), ...unity, ...samples]) {
      for (const [address] of readFileSync(join(ROOT, file), 'utf8').matchAll(/https?:\/\/github\.com\/[^\s)"'`]*?game-campaign-sdk\b[^\s)"'`]*/g)) {
        count++;
        const tag = /(?:\/blob\/|\/tree\/|#)(v\d+\.\d+\.\d+[^/\s]*)/.exec(address)?.[1];
        if (!address.startsWith(`${REPOSITORY}/`) && !address.startsWith(`${REPOSITORY}.git`)) wrong.push(`${file}: ${address}`);
        else if (tag !== undefined && tag !== `v${version}`) wrong.push(`${file}: ${address} (not v${version})`);
      }
    }
    expect(count).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  // The relay answers 404 for any path outside its routes and never calls `next`: mounted at an Express app's root
  // it would answer every route of the game's own app registered after it.
  it('no example mounts toNodeHandler at the root of an Express app', () => {
    const rootMounts: string[] = [];
    for (const file of markdownFiles() as string[]) {
      for (const [line] of readFileSync(join(ROOT, file), 'utf8').matchAll(/^.*\b(?:app|router)\.use\(\s*toNodeHandler\(.*$/gm)) rootMounts.push(`${file}: ${line.trim()}`);
    }
    expect(rootMounts).toEqual([]);
  });

  // A `<script>` user copies the files the guides name: a file the build no longer makes (the IIFE's flusher, folded
  // into the bundle by issue 28) would be a copy step that fails, or a sibling served for nothing.
  it('every game-campaign.<name>.js a guide names is a file the build makes (the IIFE and its siblings)', () => {
    const built = new Set([IIFE.file, ...Object.values(IIFE_SIBLINGS).map((sibling) => sibling.file)].map((file) => file.replace(/^dist\//, '')));
    const unknown: string[] = [];
    // The Unity package's optional WebGL template tells its user which files to copy too (its README.txt listed the
    // flusher and housekeeping siblings, gone since they moved into the IIFE).
    const template = 'adapters/unity/WebGLTemplates~/GameCampaign';
    const files = ['README.md', ...readdirSync(join(ROOT, 'docs/guides')).map((guide) => `docs/guides/${guide}`), `${template}/index.html`, `${template}/TemplateData/README.txt`];
    for (const file of files) {
      for (const [name] of readFileSync(join(ROOT, file), 'utf8').matchAll(/game-campaign\.[a-z0-9-]+\.js\b/g)) if (!built.has(name)) unknown.push(`${file}: ${name}`);
    }
    expect(unknown).toEqual([]);
  });

  // samples/README: "Everything runs against the local emulator". A sample whose CampaignServer is fixed to 'sandbox'
  // cannot (the Express sample was, and answered every relay call 503: the real sandbox is not reachable here). Express
  // is not a dependency of this repository, so the sample is checked by what it reads, not run.
  it('every sample that makes a CampaignServer can be pointed at the emulator', () => {
    const fixed: string[] = [];
    for (const file of readdirSync(join(ROOT, 'samples'), { recursive: true, encoding: 'utf8' }).filter((name) => /\.(ts|tsx|mjs|js)$/.test(name))) {
      const text = readFileSync(join(ROOT, 'samples', file), 'utf8');
      if (!text.includes('new CampaignServer(')) continue;
      if (!/baseUrl: (emulator\.url|process\.env(\.|\[')CAMPAIGN_BASE_URL)/.test(text)) fixed.push(`samples/${file}`);
    }
    expect(fixed).toEqual([]);
  });

  // The browser guide gives each sibling's gzipped size (what a `<script>` game downloads on first use): a figure
  // that no longer matches the built file misleads whoever weighs that download (the web view's 1.7 KB was 1.9).
  it('every "game-campaign.<name>.js (N KB gzipped" figure in a guide is the built file\'s gzip size, within 0.1 KB', () => {
    if (!existsSync(join(ROOT, IIFE.file))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
    const wrong: string[] = [];
    let count = 0;
    for (const file of ['README.md', ...readdirSync(join(ROOT, 'docs/guides')).map((guide) => `docs/guides/${guide}`)]) {
      for (const [, name, figure] of readFileSync(join(ROOT, file), 'utf8').matchAll(/`(game-campaign\.[a-z0-9-]+\.js)` \(([\d.]+) KB gzipped/g)) {
        count++;
        const kb = gzipBytes(readFileSync(join(ROOT, 'dist', name!))) / 1024;
        if (Math.abs(kb - Number(figure)) > 0.1) wrong.push(`${file}: ${name} says ${figure} KB, is ${kb.toFixed(1)} KB`);
      }
    }
    expect(count).toBeGreaterThanOrEqual(Object.keys(IIFE_SIBLINGS).length);
    expect(wrong).toEqual([]);
  });
});
