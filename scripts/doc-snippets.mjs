#!/usr/bin/env node
// Every TypeScript code block in README.md and docs/ is compiled as a developer copies it into an empty project of
// its kind: the package installed, Node's types on a server, a Cocos project's engine types in the Cocos guide, a
// React Native app's react, react-native and community module types in the React Native guide. Each block becomes
// one module under build/doc-snippets/ (top-level await allowed), so a name a block uses without declaring it is
// "Cannot find name". An ```html block's inline <script> is checked as JavaScript (checkJs) against the IIFE's global
// `GameCampaign`. Errors point at the Markdown file and line. An HTML comment on the line before a block's fence
// says how else to read it (and the check refuses any other):
//   <!-- snippet: continues -->            the block goes on from the block above it in the same file (one module);
//   <!-- snippet: bun -->, <!-- snippet: deno -->   the block runs on that runtime: its globals are declared by
//                                          test/docs/runtime-globals.d.ts, a stand-in for bun-types / Deno's lib;
//   <!-- snippet: fragment: <reason> -->   not a whole program: compiled with `test/docs/snippet-context.d.ts`, which
//                                          declares what a game already has (`token`, `userId`, `platform`...).
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// fileURLToPath, not .pathname: a checkout under a folder with a space would read as %20.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'build/doc-snippets');

/** README.md and every Markdown file under docs/, except the generated API report and reference. */
export function markdownFiles() {
  const walk = (dir) =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return path === 'docs/api' || path === 'docs/reference' ? [] : walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', ...walk('docs')];
}

const MARK = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;

/**
 * The ```ts blocks of a Markdown text: their code, the line the code starts on, and the marker on the line before
 * the fence (`mark`: undefined, 'continues', 'bun', 'deno' or 'fragment'; `reason` for a fragment; `bad` for a
 * marker the check does not know).
 */
export function tsBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript|tsx)\b/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```/.test(lines[end])) end++;
    const block = { line: start + 1, tsx: open[2] === 'tsx', code: lines.slice(start, end).map((l) => l.slice(open[1].length)).join('\n') };
    const marker = i > 0 ? MARK.exec(lines[i - 1]) : null;
    if (marker) {
      const said = marker[1];
      const fragment = /^fragment:\s*(\S.*)$/.exec(said);
      if (fragment) Object.assign(block, { mark: 'fragment', reason: fragment[1] });
      else if (said === 'continues' || said === 'bun' || said === 'deno') block.mark = said;
      else block.bad = said;
    }
    blocks.push(block);
    i = end;
  }
  return blocks;
}

/**
 * The inline `<script>`s (no `src`, not a module of another type) of a Markdown text's ```html blocks: their code
 * and the line it starts on. They are JavaScript a page runs with the IIFE's global `GameCampaign`.
 */
export function htmlScripts(text) {
  const scripts = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```html\b/.exec(lines[i]);
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^\s*```/.test(lines[end])) end++;
    for (let j = i + 1; j < end; j++) {
      if (!/^\s*<script>\s*$/.test(lines[j])) continue;
      let close = j + 1;
      while (close < end && !/^\s*<\/script>/.test(lines[close])) close++;
      scripts.push({ line: j + 2, code: lines.slice(j + 1, close).join('\n') });
      j = close;
    }
    i = end;
  }
  return scripts;
}

/** Markdown files whose blocks compile as a React Native app (tsconfig.react-native.json). */
const REACT_NATIVE_FILES = new Set(['docs/guides/react-native.md']);
/** Markdown files whose blocks compile in a Cocos Creator project (its engine types, `cc`). */
const COCOS_FILES = new Set(['docs/guides/cocos.md']);

/** Runs tsc on a snippet directory's tsconfig; returns its output (empty when all build). */
function tsc(dir, tsconfig) {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
  try {
    execFileSync(join(ROOT, 'node_modules/.bin/tsc'), ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false'], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return `${error.stdout ?? ''}${error.stderr ?? ''}`;
  }
}

/** The compilations: where a block goes, and the program it is checked in. */
const GROUPS = {
  // A server's or a web game's project: Node's types and the DOM (tsconfig.json's lib).
  plain: { tsconfig: 'tsconfig.json', types: ['node'] },
  // A Cocos Creator project, and Bun or Deno (their globals' stand-ins).
  platform: { tsconfig: 'tsconfig.json', types: ['node', '@cocos/creator-types/engine'], extra: ['test/docs/runtime-globals.d.ts'] },
  fragment: { tsconfig: 'tsconfig.json', types: ['node', '@cocos/creator-types/engine'], extra: ['test/docs/runtime-globals.d.ts', 'test/docs/snippet-context.d.ts'] },
  'react-native': { tsconfig: 'tsconfig.react-native.json' },
  'react-native-fragment': { tsconfig: 'tsconfig.react-native.json', extra: ['test/docs/snippet-context.d.ts'] },
  // A page's inline <script>: JavaScript, checked (checkJs) against the IIFE's global `GameCampaign`. A value possibly
  // null is not its error (plain JavaScript has no null checks: `document.getElementById('stop').onclick` is fine),
  // and the option is not turned off here, since it would reach the SDK's sources the global's type is read from.
  script: { tsconfig: 'tsconfig.json', types: [], js: true },
};

/**
 * Writes the snippets and runs tsc; returns the errors mapped to Markdown locations (empty when all build), and
 * the fragments with their reasons. `documents` (tests) replaces the repository's Markdown: `[{ file, text }]`.
 */
export function checkSnippets(documents, out = OUT) {
  rmSync(out, { recursive: true, force: true });
  const origins = new Map();
  const used = new Map();
  const errors = [];
  const fragments = [];
  let count = 0;
  for (const { file, text } of documents ?? markdownFiles().map((file) => ({ file, text: readFileSync(join(ROOT, file), 'utf8') }))) {
    for (const script of htmlScripts(text)) {
      count++;
      const name = `${file.replace(/[^\w]+/g, '_')}_L${script.line}.js`;
      mkdirSync(join(out, 'script'), { recursive: true });
      used.set('script', [...(used.get('script') ?? []), name]);
      writeFileSync(join(out, 'script', name), `export {};\n${script.code}\n`);
      // types/game-campaign.iife.d.ts's global, its import resolved to the sources (as the tsconfig's paths do).
      writeFileSync(join(out, 'script', 'iife-global.d.ts'), "import type * as Browser from 'game-campaign-sdk/browser';\ndeclare global { const GameCampaign: typeof Browser; }\nexport {};\n");
      origins.set(name, { file, line: script.line - 2, skip: 1 });
    }
    let chain; // the module the block above began: { group, code, lines, name }
    for (const block of tsBlocks(text)) {
      count++;
      if (block.bad !== undefined) errors.push(`${file}:${block.line - 2}: unknown snippet marker "${block.bad}" (continues, bun, deno or fragment: <reason>)`);
      const rn = REACT_NATIVE_FILES.has(file);
      let group = rn ? 'react-native' : COCOS_FILES.has(file) || block.mark === 'bun' || block.mark === 'deno' ? 'platform' : 'plain';
      if (block.mark === 'fragment') {
        group = rn ? 'react-native-fragment' : 'fragment';
        fragments.push(`${file}:${block.line}: ${block.reason}`);
      }
      let prefix = '';
      if (block.mark === 'continues') {
        if (!chain) errors.push(`${file}:${block.line - 2}: "continues" on the first TypeScript block of the file`);
        else ({ group } = chain), (prefix = `${chain.code}\n`);
      }
      const name = `${file.replace(/[^\w]+/g, '_')}_L${block.line}.${block.tsx || chain?.tsx ? 'tsx' : 'ts'}`;
      const code = `${prefix}${block.code}`;
      const dir = join(out, group);
      mkdirSync(dir, { recursive: true });
      used.set(group, [...(used.get(group) ?? []), name]);
      // Line 1 of the snippet file is the `export {}` that makes it a module; an earlier block's lines come first
      // (their errors are that block's, reported once, there).
      const skip = prefix ? prefix.split('\n').length - 1 : 0;
      writeFileSync(join(dir, name), `export {};\n${code}\n`);
      origins.set(name, { file, line: block.line - 2 - skip, skip: skip + 1 });
      chain = { group, code, tsx: block.tsx || (block.mark === 'continues' && chain?.tsx) };
    }
  }
  let output = '';
  for (const [group, names] of used) {
    const { tsconfig, types, extra = [], js } = GROUPS[group];
    const dir = join(out, group);
    output += tsc(dir, {
      extends: relative(dir, join(ROOT, tsconfig)),
      compilerOptions: {
        ...{ noEmit: true, noUnusedLocals: false, ...(types ? { types } : {}), ...(group.startsWith('react') ? {} : { jsx: 'preserve' }) },
        ...(js ? { allowJs: true, checkJs: true } : {}),
      },
      // `include: []`: the base config's include (the whole project, test/docs/snippet-context.d.ts with it) is not inherited.
      files: [...names, ...extra.map((path) => relative(dir, join(ROOT, path))), ...(js ? ['iife-global.d.ts'] : [])],
      include: [],
    });
  }
  for (const line of output.split('\n').filter((text) => text.trim())) {
    const match = /([\w.]+\.(?:tsx?|js))\((\d+),(\d+)\): (.*)$/.exec(line);
    const origin = match && origins.get(match[1]);
    if (!origin) errors.push(line);
    else if (match[1].endsWith('.js') && /error TS(18047|2531):/.test(match[4])) continue;
    else if (Number(match[2]) > origin.skip) errors.push(`${origin.file}:${origin.line + Number(match[2])}: ${match[4]}`);
  }
  return { count, errors, fragments };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { count, errors, fragments } = checkSnippets();
  console.log(`${count} TypeScript blocks and inline scripts in README.md and docs/, ${fragments.length} marked as fragments:`);
  for (const fragment of fragments) console.log(`  ${fragment}`);
  for (const error of errors) console.log(error);
  process.exitCode = errors.length ? 1 : 0;
}
