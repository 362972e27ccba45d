// core/ runs on every runtime a game uses, so it may not touch a platform global or module (DESIGN section 2).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const CORE = join(import.meta.dirname, '../../core');
/** The one allowed exception: detecting a game-client runtime to refuse a Server key there (reads globalThis by name). */
const ALLOWED = new Set(['server/runtime.ts']);

const FORBIDDEN: Array<[string, RegExp]> = [
  ['window', /\bwindow\b/],
  ['document', /\bdocument\b/],
  ['indexedDB', /\bindexedDB\b/],
  ['localStorage', /\blocalStorage\b/],
  ['navigator', /\bnavigator\b/],
  ['cc', /\bcc\s*[.[]|from\s+['"]cc['"]|require\(\s*['"]cc['"]\s*\)/],
  ['react-native', /['"]react-native['"]/],
  ['node:', /['"]node:[a-z_/]+['"]/],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Code without comments, so that a doc comment may name what the code must not use. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
}

/** Every forbidden reference in a source text, as `name` strings. */
function platformReferences(text: string): string[] {
  const stripped = code(text);
  return FORBIDDEN.filter(([, pattern]) => pattern.test(stripped)).map(([name]) => name);
}

describe('core is platform-neutral', () => {
  it('finds each kind of forbidden reference (the check itself works)', () => {
    expect(platformReferences('const w = window.innerWidth;')).toEqual(['window']);
    expect(platformReferences("import fs from 'node:fs';")).toEqual(['node:']);
    expect(platformReferences("import { sys } from 'cc';\nsys.localStorage.getItem('k');")).toEqual(['localStorage', 'cc']);
    expect(platformReferences("import { AppState } from 'react-native';")).toEqual(['react-native']);
    expect(platformReferences('navigator.sendBeacon(url); document.title; indexedDB.open("x")')).toEqual(['document', 'indexedDB', 'navigator']);
    expect(platformReferences('// window.location is not used here\nconst a = 1;')).toEqual([]);
  });

  it('no file under core/ references window, document, indexedDB, localStorage, navigator, cc, react-native or node:*', () => {
    const offenders = sources(CORE)
      .map((file) => ({ file: relative(CORE, file), refs: platformReferences(readFileSync(file, 'utf8')) }))
      .filter(({ file, refs }) => refs.length > 0 && !ALLOWED.has(file));
    expect(offenders).toEqual([]);
  });
});
