// The package as users get it: the exports map, the built files of every entry, CJS and ESM loading, the IIFE global.
// Runs after the build (`npm test` builds first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { build } from 'esbuild';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES, IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { structuralDeclarations } from '../../scripts/structural-declarations.mjs';
import { typeOnlyExports } from '../../scripts/type-only-exports.mjs';

const ROOT = join(import.meta.dirname, '../..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const require = createRequire(import.meta.url);

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/index.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
});

describe('package.json', () => {
  it('is ESM first with CJS, side-effect free, for Node >= 20', () => {
    expect(pkg.name).toBe('game-campaign-sdk');
    expect(pkg.type).toBe('module');
    expect(pkg.sideEffects).toBe(false);
    expect(pkg.engines.node).toBe('>=20');
  });

  it('maps exactly the entries that hold code, each with types for import and require', () => {
    // The built files of the <script> form (the IIFE, its types, its SHA-256 fallback) are plain files, not entries.
    const subpaths = Object.keys(pkg.exports).filter((key) => key !== './package.json' && !key.startsWith('./game-campaign.'));
    expect(subpaths.sort()).toEqual(ENTRIES.map((e) => e.subpath).sort());
    for (const entry of ENTRIES) {
      expect(pkg.exports[entry.subpath]).toEqual({
        import: { types: `./dist/${entry.name}.d.ts`, default: `./dist/${entry.name}.js` },
        require: { types: `./dist/${entry.name}.d.cts`, default: `./dist/${entry.name}.cjs` },
      });
    }
  });

  it('builds declarations for exactly those entries', () => {
    const build = JSON.parse(readFileSync(join(ROOT, 'tsconfig.build.json'), 'utf8'));
    expect(build.files.sort()).toEqual(ENTRIES.map((e) => e.source).sort());
  });
});

// test/release/packed-package.test.ts compiles what one entry makes against another entry's types.
describe('rolled-up declarations (scripts/structural-declarations.mjs)', () => {
  it('leave out the members that make a class compare by name, and keep a private constructor', () => {
    const declared = 'declare class A {\r\n    #private;\r\n    private constructor();\r\n    protected readonly transport: Transport;\r\n    private cache;\r\n    get(): void;\r\n}\r\n';
    expect(structuralDeclarations(declared)).toBe('declare class A {\r\n    private constructor();\r\n    get(): void;\r\n}\r\n');
  });

  it('declare without exporting a value the module lacks, its type of the same name still exported (scripts/type-only-exports.mjs)', () => {
    const declared = 'export declare const Creator: Schema;\nexport declare type Creator = Infer<typeof Creator>;\nexport declare function run(): void;\nexport { Item_2 as Item }\nexport { Other_2 as Other }\n';
    expect(typeOnlyExports(declared, new Set(['run', 'Other']))).toBe(
      'declare const Creator: Schema;\nexport declare type Creator = Infer<typeof Creator>;\nexport declare function run(): void;\nexport type { Item_2 as Item }\nexport { Other_2 as Other }\n',
    );
  });

  it('fail the build on such a member declared over several lines', () => {
    expect(() => structuralDeclarations('declare class A {\n    protected read(options: {\n        id: string;\n    }): void;\n}\n')).toThrow('structural-declarations: a private or protected member over several lines is left');
  });
});

describe('built entries', () => {
  it.each(ENTRIES.map((e) => [e.subpath, e] as const))('%s has ESM, CJS, .d.ts and .d.cts', (_, entry) => {
    for (const ext of ['js', 'cjs', 'd.ts', 'd.cts']) expect(existsSync(join(ROOT, `dist/${entry.name}.${ext}`)), `${entry.name}.${ext}`).toBe(true);
  });

  it('loads through require() and import() with the same public names', async () => {
    const cjs = require(join(ROOT, 'dist/index.cjs'));
    const esm = await import(join(ROOT, 'dist/index.js'));
    expect(Object.keys(cjs).sort()).toEqual(Object.keys(esm).sort());
    expect(typeof esm.CampaignClient).toBe('function');
    const server = await import(join(ROOT, 'dist/server.js'));
    expect(typeof server.CampaignServer).toBe('function');
    expect(typeof require(join(ROOT, 'dist/server.cjs')).CampaignServer).toBe('function');
  });

  // The types must not promise a value the module lacks: `import { Creator } from 'game-campaign-sdk'` compiled against
  // the rolled-up .d.ts (api-extractor emits a re-export's value and type alike, `export type` or not: rushstack#1760),
  // then failed in Node ("does not provide an export named 'Creator'"); the zod schemas are exported as types only.
  it.each(ENTRIES.map((e) => [e.subpath, e] as const))('%s: every value its .d.ts exports is exported by its module', async (_, entry) => {
    const file = join(ROOT, `dist/${entry.name}.d.ts`);
    const program = ts.createProgram([file], { noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [] });
    const checker = program.getTypeChecker();
    const declared = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!);
    const isValue = (symbol: ts.Symbol) => {
      // `export type { A as B }` keeps B a type whatever A is.
      const typeOnly = (node: ts.Node) => ts.isExportSpecifier(node) && (node.isTypeOnly || node.parent.parent.isTypeOnly);
      if (symbol.flags & ts.SymbolFlags.Alias && symbol.declarations?.some(typeOnly)) return false;
      return Boolean((symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol).flags & ts.SymbolFlags.Value);
    };
    const values = declared.filter(isValue).map((symbol) => symbol.name).sort();
    const exported = new Set(Object.keys(await import(join(ROOT, `dist/${entry.name}.js`))));
    expect(values.length).toBeGreaterThan(0);
    expect(values.filter((name) => !exported.has(name))).toEqual([]);
  });

  // A game server's tests bundled for Node as an ES module (esbuild): a CommonJS `require` of a Node built-in there
  // is a "Dynamic require" that throws when it runs; rate-limiter-flexible's index requires `cluster`.
  it('the emulator runs bundled by esbuild for Node as an ES module', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gc-emulator-bundle-'));
    try {
      const file = join(dir, 'emulator.mjs');
      const entry = `import { createEmulator } from ${JSON.stringify(join(ROOT, 'dist/emulator.js'))};
        const emulator = createEmulator();
        const answer = await emulator.fetch(new Request('http://emulator/v1/client/creators/PIXEL', { headers: { authorization: 'Bearer ' + emulator.clientKey } }));
        console.log(answer.status);`;
      await build({ stdin: { contents: entry, resolveDir: ROOT, loader: 'js' }, bundle: true, platform: 'node', format: 'esm', outfile: file, logLevel: 'silent' });
      const run = spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 30_000 });
      expect(run.stderr).toBe('');
      expect(run.stdout).toBe('200\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('maps the IIFE bundle and its declaration of the global', () => {
    expect(pkg.exports['./game-campaign.iife.js']).toBe(`./${IIFE.file}`);
    expect(pkg.exports['./game-campaign.iife.d.ts']).toBe(`./${IIFE.file.replace(/\.js$/, '.d.ts')}`);
  });

  it('resolves every file the browser guide tells a <script> user to serve through the export map, and lists exactly the built siblings', () => {
    // A copy step finds them with require.resolve / import.meta.resolve, through the package's own name.
    const self = createRequire(join(ROOT, 'package.json'));
    const guide = readFileSync(join(ROOT, 'docs/guides/browser.md'), 'utf8');
    const served = [...new Set(guide.match(/game-campaign\.[a-z0-9-]+\.js/g))].sort();
    expect(served).toEqual(['game-campaign.iife.js', ...Object.values(IIFE_SIBLINGS).map((sibling) => basename(sibling.file))].sort());
    for (const file of served) expect(self.resolve(`game-campaign-sdk/${file}`), file).toBe(join(ROOT, 'dist', file));
  });

  it('the IIFE bundle defines the global GameCampaign with the browser entry', () => {
    const sandbox: Record<string, unknown> = {};
    runInNewContext(readFileSync(join(ROOT, IIFE.file), 'utf8'), sandbox);
    const global = sandbox[IIFE.name] as Record<string, unknown>;
    expect(typeof global['CampaignClient']).toBe('function');
    expect(() => new (global['CampaignClient'] as new (o: object) => unknown)({ clientKey: 'no-colon' })).toThrow(/<key_id>:<secret>/);
  });
});
