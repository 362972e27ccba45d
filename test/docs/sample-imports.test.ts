/**
 * The samples are meant to be copied out of the repository: each imports only the package's public entries (the
 * subpaths package.json exports), other packages and node: modules, never a source file of the SDK (the resolver
 * maps `game-campaign-sdk/*` to the sources here, so a copied sample runs on the installed package). Before,
 * samples/game-server imported `../../core/schema/webhooks.js`, which a copy cannot resolve.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SAMPLES = join(ROOT, 'samples');
const exported = Object.keys((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, unknown> }).exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'game-campaign-sdk' : `game-campaign-sdk/${key.slice(2)}`));

/** The code files of a sample folder, at any depth. */
function codeFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(?:[cm]?[jt]sx?)$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every module specifier of `source`: static imports and re-exports, `import()` and `require()` of a string. */
function specifiers(source: string): string[] {
  const found = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*|^\s*import\s+)(['"])([^'"\n]+)\1/gm)].map((match) => match[2]!);
  return [...new Set(found)];
}

describe('samples import only what a copy can', () => {
  const folders = readdirSync(SAMPLES, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => join(SAMPLES, entry.name));

  it.each(folders.map((folder) => [relative(ROOT, folder), folder]))('%s', (_name, folder) => {
    const wrong: string[] = [];
    for (const file of codeFiles(folder)) {
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        const where = `${relative(ROOT, file)}: ${specifier}`;
        if (specifier.startsWith('.')) {
          // A file of the sample itself travels with it; one outside its folder does not.
          if (relative(folder, resolve(file, '..', specifier)).startsWith('..')) wrong.push(where);
        } else if (specifier === 'game-campaign-sdk' || specifier.startsWith('game-campaign-sdk/')) {
          if (!exported.includes(specifier)) wrong.push(where);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  // The declarations can name a value the entry does not export at run time (a type-only re-export of a zod schema
  // reads as `export declare const` in dist/*.d.ts): a copied sample then type-checks and fails to load.
  it.each(folders.map((folder) => [relative(ROOT, folder), folder]))('%s: every value it imports from the package exists in dist/', async (_name, folder) => {
    const packageExports = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, { import?: { default?: string } }> }).exports;
    const missing: string[] = [];
    for (const file of codeFiles(folder)) {
      const source = readFileSync(file, 'utf8');
      for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*'(game-campaign-sdk(?:\/[\w/-]+)?)'/g)) {
        const names = match[1]!.split(',').map((part) => part.trim()).filter((part) => part !== '' && !part.startsWith('type '));
        const target = packageExports[match[2] === 'game-campaign-sdk' ? '.' : `./${match[2]!.slice('game-campaign-sdk/'.length)}`]?.import?.default;
        const entry = (await import(join(ROOT, target!))) as Record<string, unknown>;
        for (const name of names) if (!(name.split(/\s+as\s+/)[0]! in entry)) missing.push(`${relative(ROOT, file)}: ${name} from ${match[2]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('finds the imports it checks (the parser is not blind)', () => {
    expect(specifiers(readFileSync(join(SAMPLES, 'game-server/server.ts'), 'utf8'))).toEqual(expect.arrayContaining(['game-campaign-sdk/server', 'node:crypto', 'hono']));
  });
});
