#!/usr/bin/env node
// Every TypeScript code block in README.md and docs/ is compiled, so a guide never shows code that does not
// build. Each block becomes one module under build/doc-snippets/ (top-level await allowed), type-checked with
// the project's settings and `test/docs/snippet-context.d.ts`, which declares the few names guides use without
// defining them (the game's own token, request, platform...). Errors point at the Markdown file and line.
// The React Native guide's blocks are checked apart, under tsconfig.react-native.json, against the real react,
// react-native and community module types (build/doc-snippets/react-native/).
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

/** The ```ts blocks of a Markdown text: their code and the line the code starts on. */
export function tsBlocks(text) {
  const blocks = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(ts|typescript|tsx)\b/.exec(lines[i]);
    if (!open) continue;
    const start = i + 1;
    let end = start;
    while (end < lines.length && !/^\s*```/.test(lines[end])) end++;
    blocks.push({ line: start + 1, tsx: open[2] === 'tsx', code: lines.slice(start, end).map((l) => l.slice(open[1].length)).join('\n') });
    i = end;
  }
  return blocks;
}

/** Markdown files whose blocks compile as a React Native app (tsconfig.react-native.json). */
const REACT_NATIVE_FILES = new Set(['docs/guides/react-native.md']);

/**
 * Markdown files whose blocks compile as copied into an empty project: without `test/docs/snippet-context.d.ts`, so
 * each defines (or declares) what it uses. README.md and getting-started.md are the pages a studio copies first
 * (their blocks used the context's `token`, `userId`, `platform`, `req`, `rawBody` and `grant`, which a new project
 * does not have: "Cannot find name 'token'").
 */
const SELF_CONTAINED_FILES = new Set(['README.md', 'docs/getting-started.md']);

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

/** Writes the snippets and runs tsc; returns the errors mapped to Markdown locations (empty when all build). */
export function checkSnippets() {
  const RN_OUT = join(OUT, 'react-native');
  const ALONE_OUT = join(OUT, 'self-contained');
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(RN_OUT, { recursive: true });
  mkdirSync(ALONE_OUT, { recursive: true });
  const origins = new Map();
  let count = 0;
  for (const file of markdownFiles()) {
    for (const block of tsBlocks(readFileSync(join(ROOT, file), 'utf8'))) {
      const name = `${file.replace(/[^\w]+/g, '_')}_L${block.line}.${block.tsx ? 'tsx' : 'ts'}`;
      // Line 1 of the snippet file is the `export {}` that makes it a module: code starts on line 2.
      const dir = REACT_NATIVE_FILES.has(file) ? RN_OUT : SELF_CONTAINED_FILES.has(file) ? ALONE_OUT : OUT;
      writeFileSync(join(dir, name), `export {};\n${block.code}\n`);
      origins.set(name, { file, line: block.line - 2 });
      count++;
    }
  }
  const context = (dir) => relative(dir, join(ROOT, 'test/docs/snippet-context.d.ts'));
  const output =
    tsc(OUT, {
      extends: relative(OUT, join(ROOT, 'tsconfig.json')),
      compilerOptions: { noEmit: true, noUnusedLocals: false, jsx: 'preserve', types: ['node', '@cocos/creator-types/engine'] },
      include: ['*.ts', '*.tsx', context(OUT)],
    }) +
    tsc(ALONE_OUT, {
      extends: relative(ALONE_OUT, join(ROOT, 'tsconfig.json')),
      compilerOptions: { noEmit: true, noUnusedLocals: false, types: ['node'] },
      include: ['*.ts'],
    }) +
    tsc(RN_OUT, {
      extends: relative(RN_OUT, join(ROOT, 'tsconfig.react-native.json')),
      compilerOptions: { noUnusedLocals: false },
      files: [],
      include: ['*.ts', '*.tsx', context(RN_OUT)],
    });
  const errors = output
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => {
      const match = /([\w.]+\.tsx?)\((\d+),(\d+)\): (.*)$/.exec(line);
      const origin = match && origins.get(match[1]);
      return origin ? `${origin.file}:${origin.line + Number(match[2])}: ${match[4]}` : line;
    });
  return { count, errors };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { count, errors } = checkSnippets();
  console.log(`${count} TypeScript blocks in README.md and docs/`);
  for (const error of errors) console.log(error);
  process.exitCode = errors.length ? 1 : 0;
}
