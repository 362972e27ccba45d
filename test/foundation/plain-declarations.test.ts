// The client entries' declarations name no zod (scripts/plain-declarations.mjs writes each schema-derived type out
// plainly), and each plain type is the zod-inferred one: every exported type alias of such an entry's built
// declarations is mutually assignable with the same name in the rollup the build had before (kept in
// build/zod-declarations/, where the schema types are `z.infer<typeof Schema>`), compiled with the repository's
// TypeScript. A schema change the build did not carry into the plain types fails here. Runs after the build (`npm
// test` builds first).
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRIES } from '../../scripts/entries.mjs';
import { importsZod, plainDeclarations, zodReferences } from '../../scripts/plain-declarations.mjs';

const ROOT = join(import.meta.dirname, '../..');
/** Inside the repository, so that the copies resolve zod (and the check files the sources) from its node_modules. */
const WORK = join(ROOT, 'temp', `plain-check-${process.pid}`);
const PLAIN_ENTRIES = ENTRIES.filter((entry) => !importsZod(join(ROOT, `dist/${entry.name}.js`)));

beforeAll(() => {
  if (!existsSync(join(ROOT, 'build/zod-declarations/index.d.ts'))) throw new Error('build/zod-declarations/ is missing: run `npm run build` (npm test does it first)');
  mkdirSync(WORK, { recursive: true });
});
afterAll(() => rmSync(WORK, { recursive: true, force: true }));

/** The names a declaration file exports as non-generic type aliases (`export declare type X =`, `export type { X_2 as X }`). */
function exportedAliases(declarations: string): string[] {
  const source = ts.createSourceFile('entry.d.ts', declarations, ts.ScriptTarget.ES2022, true);
  const aliases = new Map<string, ts.TypeAliasDeclaration>();
  for (const statement of source.statements) if (ts.isTypeAliasDeclaration(statement)) aliases.set(statement.name.text, statement);
  const names: string[] = [];
  for (const statement of source.statements) {
    const exported = ts.canHaveModifiers(statement) && ts.getModifiers(statement)?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
    if (ts.isTypeAliasDeclaration(statement) && exported && !statement.typeParameters) names.push(statement.name.text);
    if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) {
        const alias = aliases.get((element.propertyName ?? element.name).text);
        if (alias && !alias.typeParameters) names.push(element.name.text);
      }
    }
  }
  return names;
}

/**
 * Compiles, for each entry, a check that its declarations' exported type aliases (the files in `declarations`, by
 * entry name) equal the zod-typed rollup's, and returns the errors, as `entry: Name` for a type that differs.
 */
function differences(declarations: Record<string, string>): string[] {
  const files: string[] = [];
  for (const entry of PLAIN_ENTRIES) {
    writeFileSync(join(WORK, `${entry.name}.d.ts`), declarations[entry.name]!);
    const inferred = relative(WORK, join(ROOT, `build/zod-declarations/${entry.name}.js`));
    const checks = exportedAliases(declarations[entry.name]!).map((name) => `export const ${name}: Same<Plain.${name}, Inferred.${name}> = true;`);
    expect(checks.length, entry.name).toBeGreaterThan(0);
    writeFileSync(join(WORK, `check-${entry.name}.ts`), [
      `import type * as Plain from './${entry.name}.js';`,
      `import type * as Inferred from '${inferred}';`,
      '/** Mutually assignable, and neither is `any` (which would be assignable both ways to anything). */',
      'type Same<A, B> = 0 extends 1 & A ? false : 0 extends 1 & B ? false : [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
      ...checks,
    ].join('\n'));
    files.push(join(WORK, `check-${entry.name}.ts`));
  }
  const config = ts.getParsedCommandLineOfConfigFile(join(ROOT, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const program = ts.createProgram(files, { ...config.options, noEmit: true });
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const file = diagnostic.file ? relative(WORK, diagnostic.file.fileName) : '';
    const line = diagnostic.file ? diagnostic.file.text.split('\n')[diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start!).line]! : '';
    const name = /^export const (\w+): Same/.exec(line)?.[1];
    return name ? `${file.replace(/^check-|\.ts$/g, '')}: ${name}` : `${file}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
  });
}

describe('client declarations without zod', () => {
  const built = () => Object.fromEntries(PLAIN_ENTRIES.map((entry) => [entry.name, readFileSync(join(ROOT, `dist/${entry.name}.d.ts`), 'utf8')]));

  it('are written for exactly the client entries (their built module graphs import no zod; the server ones do)', () => {
    expect(PLAIN_ENTRIES.map((entry) => entry.name)).toEqual(ENTRIES.filter((entry) => entry.client).map((entry) => entry.name));
  });

  it('name no zod: no import of it, no `z.` type, no schema constant (.d.ts and .d.cts alike)', () => {
    for (const entry of PLAIN_ENTRIES) {
      const declarations = readFileSync(join(ROOT, `dist/${entry.name}.d.ts`), 'utf8');
      expect(readFileSync(join(ROOT, `dist/${entry.name}.d.cts`), 'utf8')).toBe(declarations);
      expect(zodReferences(declarations), entry.name).toEqual([]);
      expect(declarations, entry.name).not.toMatch(/^import /m);
    }
    // The server entries keep theirs (they run zod).
    expect(readFileSync(join(ROOT, 'dist/server.d.ts'), 'utf8')).toMatch(/^import \* as z from 'zod\/mini';$/m);
  });

  it('declare each type as its schema infers it: every exported type alias is mutually assignable with the zod-inferred one', () => {
    expect(differences(built())).toEqual([]);
  }, 120_000);

  it('fail that check when a plain type drifts from its schema (the check itself works)', () => {
    const drifted = built();
    expect(drifted.index).toMatch(/export declare type Creator = \{\n {4}creatorId: number;/);
    drifted.index = drifted.index!.replace(/(export declare type Creator = \{\n {4}creatorId: )number;/, '$1string;');
    drifted.browser = drifted.browser!.replace(/(export declare type BoostRecord = \{\n(?: {4}\w+: \w+;\n)*? {4}isActive: )boolean;/, '$1boolean | undefined;');
    expect(differences(drifted).sort()).toEqual(['browser: BoostRecord', 'index: Creator']);
  }, 120_000);

  it('refuses declarations with a zod reference it cannot write plainly', () => {
    const file = join(WORK, 'left.d.ts');
    const declarations = "import * as z from 'zod/mini';\ndeclare const Id: z.ZodMiniString<string>;\nexport declare const ids: typeof Id;\nexport { }\n";
    expect(() => plainDeclarations(declarations, file)).toThrow(/no plain type for `typeof Id`|still refers to zod/);
    const plain = plainDeclarations("import * as z from 'zod/mini';\n/** An id. */\ndeclare const Id: z.ZodMiniString<string>;\nexport declare type Id = z.infer<typeof Id>;\nexport { }\n", file);
    expect(plain).toBe('/** An id. */\nexport declare type Id = string;\nexport { }\n');
  });
});
