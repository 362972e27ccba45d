/**
 * What the API report (docs/api/) and the reference (docs/reference/) list as a value, a game can import, through the
 * package's own name and exports map, from ES modules and CommonJS alike; what they list as a type the declarations
 * export. Before, both listed the 41 zod schemas (`export const Creator: z.ZodMiniObject<...>`, a "Creator variable"
 * page) on the main, /browser, /server and /testing entries, and the resource classes (`Creators`, `Webhooks`, ...) as
 * classes, none of which the modules export; and the rolled-up declarations, made to stop promising those values,
 * exported no type `Creators` at all (`import type { Creators }` failed to compile). scripts/type-only-exports.mjs.
 * Runs after the build (`npm test` builds first).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ENTRIES } from '../../scripts/entries.mjs';
import { SCHEMA_NOTE, TYPE_ONLY_NOTE, typeOnlyExports, typeOnlyModel, typeOnlyReport } from '../../scripts/type-only-exports.mjs';

const ROOT = join(import.meta.dirname, '../..');
const reportName = (entry: (typeof ENTRIES)[number]) => (entry.subpath === '.' ? 'game-campaign-sdk' : `game-campaign-sdk-${entry.name}`);
const specifier = (entry: (typeof ENTRIES)[number]) => (entry.subpath === '.' ? 'game-campaign-sdk' : `game-campaign-sdk/${entry.subpath.slice(2)}`);

/** The names a report exports as values: declarations with `export` and renaming exports that are not `export type`. */
function reportedValues(report: string): string[] {
  const declared = [...report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|const|let|var|function|enum|namespace) (\w+)/gm)].map((m) => m[1]!);
  const renamed = [...report.matchAll(/^export \{ \w+ as (\w+) \}/gm)].map((m) => m[1]!);
  return [...new Set([...declared, ...renamed])].sort();
}

/** Every name a report exports, types included. */
function reportedNames(report: string): string[] {
  const declared = [...report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|const|let|var|function|enum|namespace|interface|type) (\w+)/gm)].map((m) => m[1]!);
  const lists = [...report.matchAll(/^export (?:type )?\{ ([^}]+) \}/gm)].flatMap((m) => m[1]!.split(',').map((part) => part.trim().split(/\s+as\s+/).pop()!));
  return [...new Set([...declared, ...lists])].sort();
}

/**
 * The names a reference index page (docs/reference/<report>.md) lists as values: its functions and variables, and
 * its classes, enums and namespaces whose page does not say they are exported as a type only.
 */
function referencedValues(name: string): string[] {
  const index = readFileSync(join(ROOT, 'docs/reference', `${name}.md`), 'utf8');
  const names: string[] = [];
  for (const section of index.split(/^## /m)) {
    const title = section.split('\n')[0]!.trim();
    if (!['Classes', 'Functions', 'Variables', 'Enumerations', 'Namespaces'].includes(title)) continue;
    for (const [, label, page] of section.matchAll(/^\[([^\]]+)\]\(\.\/([^)]+)\)/gm)) {
      const text = readFileSync(join(ROOT, 'docs/reference', page!), 'utf8');
      if (title !== 'Functions' && title !== 'Variables' && text.includes(TYPE_ONLY_NOTE.replace('`import type`', '`import type`<!-- -->'))) continue;
      names.push(label!.replace(/\\(.)/g, '$1').replace(/\(.*$/, ''));
    }
  }
  return [...new Set(names)].sort();
}

/** The names each entry's module exports, loaded by `node` from the repository through the package's own name. */
function loaded(kind: 'import' | 'require'): Record<string, string[]> {
  const load = kind === 'import' ? 'await import(s)' : 'require(s)';
  const script = `${kind === 'require' ? "const require = (await import('node:module')).createRequire(process.cwd() + '/');" : ''}
    const out = {};
    for (const s of ${JSON.stringify(ENTRIES.map(specifier))}) out[s] = Object.keys(${load});
    console.log(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' })) as Record<string, string[]>;
}

describe('what the docs list as a value is a value of the built package', () => {
  const esm = loaded('import');
  const cjs = loaded('require');

  it.each(ENTRIES.map((e) => [specifier(e), e] as const))('%s: the API report and the reference, by import and require', (name, entry) => {
    const report = readFileSync(join(ROOT, 'docs/api', `${reportName(entry)}.api.md`), 'utf8');
    const listed = [...new Set([...reportedValues(report), ...referencedValues(reportName(entry))])].sort();
    expect(listed.length).toBeGreaterThan(0);
    expect({ import: listed.filter((value) => !esm[name]!.includes(value)), require: listed.filter((value) => !cjs[name]!.includes(value)) }).toEqual({ import: [], require: [] });
    // And the other way round: the report lists every value the module exports.
    expect(esm[name]!.filter((value) => !reportedValues(report).includes(value))).toEqual([]);
  });

  it.each(ENTRIES.map((e) => [specifier(e), e] as const))('%s: every name the API report exports, types included, its .d.ts exports', (_, entry) => {
    const report = readFileSync(join(ROOT, 'docs/api', `${reportName(entry)}.api.md`), 'utf8');
    const file = join(ROOT, `dist/${entry.name}.d.ts`);
    const program = ts.createProgram([file], { noEmit: true, skipLibCheck: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, types: [] });
    const checker = program.getTypeChecker();
    const declared = new Set(checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)!)!).map((symbol) => symbol.name));
    expect(reportedNames(report).filter((name) => !declared.has(name))).toEqual([]);
  });
});

// Each entry's package comment is what the reference's index says of it. The emulator's was lost in the declarations
// (tsc drops a file's first comment with the type-only import it sits on: "No @packageDocumentation comment"), and
// the index rendered /testing's `{@link Platform}`, which it cannot resolve, as nothing ("an in-memory  with").
describe('every entry is described', () => {
  /** A reference page's text without links' targets and api-documenter's `<!-- -->` separators. */
  const plain = (markdown: string) => markdown.replace(/<!-- -->/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').trim();

  it.each(ENTRIES.map((e) => [specifier(e), e] as const))('%s: in its API report and in the reference index, as on its own page', (_, entry) => {
    expect(readFileSync(join(ROOT, 'docs/api', `${reportName(entry)}.api.md`), 'utf8')).not.toContain('No @packageDocumentation comment');
    // api-documenter ends its lines with CRLF.
    const page = readFileSync(join(ROOT, 'docs/reference', `${reportName(entry)}.md`), 'utf8').replace(/\r\n/g, '\n');
    const description = plain(/^## .* package\n\n([^\n]+)\n/m.exec(page)?.[1] ?? '');
    const index = readFileSync(join(ROOT, 'docs/reference/index.md'), 'utf8').replace(/\r\n/g, '\n');
    const row = new RegExp(`\\[${reportName(entry)}\\]\\(\\./${reportName(entry)}\\.md\\)\\s*</td><td>\\s*([^\\n]*)\\n`).exec(index)?.[1] ?? '';
    expect(description).not.toBe('');
    expect(plain(row)).toBe(description);
  });
});

// TSDoc gives a modifier tag (`@beta`) no text: the words after it belong to the block before. `@beta assumed (...)`
// under a `@throws` put the method's assumption in its exception ("NotFoundError when the user has no boost  assumed
// (DESIGN section 10): ..." on ClientSponsors.get and Boost.current). A modifier with words goes before any block tag.
it('no words after a modifier tag land in an earlier block of the doc comment (the reference would show them there)', () => {
  const MODIFIER = /^\s*\*\s*@(?:alpha|beta|public|internal|sealed|virtual|override|readonly|eventProperty|experimental)\s+\S/;
  const BLOCK = /^\s*\*\s*@(?:throws|returns|param|typeParam|remarks|example|defaultValue|deprecated|see|privateRemarks)\b/;
  const misplaced: string[] = [];
  for (const folder of ['core', 'adapters', 'emulator']) {
    for (const file of readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.ts'))) {
      for (const [comment] of readFileSync(join(ROOT, folder, file), 'utf8').matchAll(/\/\*\*[\s\S]*?\*\//g)) {
        const lines = comment.split('\n');
        const firstBlock = lines.findIndex((line) => BLOCK.test(line));
        if (firstBlock >= 0 && lines.some((line, index) => index > firstBlock && MODIFIER.test(line))) misplaced.push(`${folder}/${file}: ${lines.find((line) => MODIFIER.test(line))!.trim()}`);
      }
    }
  }
  expect(misplaced).toEqual([]);
});

describe('scripts/type-only-exports.mjs', () => {
  const runtime = new Set(['run', 'Other', 'Client']);

  it('the declarations: a type-only class stays a type (`export type { X }`), a schema value is declared unexported', () => {
    const declared = 'export declare const Creator: Schema;\nexport declare type Creator = Infer<typeof Creator>;\nexport declare class Creators {\n}\nexport declare class Client {\n}\nexport declare function run(): void;\nexport { Item_2 as Item }\n\nexport { }\n';
    expect(typeOnlyExports(declared, runtime)).toBe(
      'declare const Creator: Schema;\nexport declare type Creator = Infer<typeof Creator>;\ndeclare class Creators {\n}\nexport declare class Client {\n}\nexport declare function run(): void;\nexport type { Item_2 as Item }\n\nexport { }\nexport type { Creators };\n',
    );
  });

  it('the report: as api-extractor prints a declaration it does not export, a type-only class under `export type`', () => {
    const report = '// @public\nexport const Creator: Schema;\n\n// @public\nexport type Creator = Infer<typeof Creator>;\n\n// @public\nexport class Creators {\n}\n\n// @public\nexport class Client {\n}\n\n// @public\nexport function run(): void;\n\nexport { Item_2 as Item }\n';
    expect(typeOnlyReport(report, runtime)).toBe(
      '// @public\nconst Creator: Schema;\n\n// @public\nexport type Creator = Infer<typeof Creator>;\n\n// @public\nexport type { Creators };\nclass Creators {\n}\n\n// @public\nexport class Client {\n}\n\n// @public\nexport function run(): void;\n\nexport type { Item_2 as Item }\n',
    );
  });

  it('the doc model: the schema leaves, its type keeps its description and shows its shape; a type-only class says so; a renamed type takes its exported name', () => {
    const token = (text: string) => ({ kind: 'Content', text });
    const model = {
      members: [
        {
          members: [
            { kind: 'Variable', name: 'Creator', canonicalReference: 'pkg!Creator:var', docComment: '/**\n * A creator.\n */\n', excerptTokens: [token('Creator: '), token('z.ZodMiniObject<{\n    creatorKey: z.ZodMiniString;\n}>')] },
            { kind: 'TypeAlias', name: 'Creator', canonicalReference: 'pkg!Creator:type', docComment: '', excerptTokens: [token('export type Creator = '), { kind: 'Reference', text: 'Creator', canonicalReference: 'pkg!Creator:var' }] },
            { kind: 'Class', name: 'Creators', canonicalReference: 'pkg!Creators:class', docComment: '/**\n * Reads.\n *\n * @example\n * x\n */\n', excerptTokens: [token('export declare class Creators ')] },
            { kind: 'Class', name: 'Client', canonicalReference: 'pkg!Client:class', docComment: '', excerptTokens: [token('export declare class Client ')] },
            { kind: 'TypeAlias', name: 'Item_2', canonicalReference: 'pkg!Item_2:type', docComment: '', excerptTokens: [token('export type Item = ')] },
            { kind: 'Interface', name: 'Uses', canonicalReference: 'pkg!Uses:interface', docComment: '', excerptTokens: [token('export interface Uses '), { kind: 'Reference', text: 'Item', canonicalReference: 'pkg!Item_2:type' }] },
          ],
        },
      ],
    } as const;
    const copy = JSON.parse(JSON.stringify(model)) as { members: [{ members: Array<Record<string, never>> }] };
    expect(typeOnlyModel(copy, runtime)).toEqual({ removed: ['Creator'], typeOnly: ['Creators'] });
    const items = copy.members[0].members as unknown as Array<{ kind: string; name: string; canonicalReference: string; docComment: string; excerptTokens: Array<{ text: string; canonicalReference?: string }> }>;
    expect(items.map((item) => `${item.kind} ${item.name}`)).toEqual(['TypeAlias Creator', 'Class Creators', 'Class Client', 'TypeAlias Item', 'Interface Uses']);
    expect(items[0]!.docComment).toBe(`/**\n * A creator.\n * @remarks\n * ${SCHEMA_NOTE}\n *\n * \`\`\`ts\n * z.ZodMiniObject<{\n *     creatorKey: z.ZodMiniString;\n * }>\n * \`\`\`\n */\n`);
    expect(items[0]!.excerptTokens[1]!.canonicalReference).toBe('pkg!~Creator:var');
    expect(items[1]!.docComment).toBe(`/**\n * Reads.\n *\n * @remarks\n * ${TYPE_ONLY_NOTE}\n *\n * @example\n * x\n */\n`);
    expect(items[1]!.excerptTokens[0]!.text).toBe('declare class Creators ');
    expect(items[2]!.docComment).toBe('');
    expect(items[3]!.canonicalReference).toBe('pkg!Item:type');
    expect(items[4]!.excerptTokens[1]!.canonicalReference).toBe('pkg!Item:type');
  });
});
