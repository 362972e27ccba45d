// api-extractor's rollup exports a re-exported name's value along with its type even where the source re-exports
// the type only (`export type { Creator }`, `export type *`: microsoft/rushstack#1760), so dist/<entry>.d.ts declared
// `export declare const Creator: z.ZodMiniObject<...>` for every zod schema while the module exports none: a game's
// `Creator.parse(...)` compiled and then failed in Node ("does not provide an export named 'Creator'"). Its API report
// (docs/api/) and doc model (docs/reference/, through api-documenter) say the same. These functions make all three
// say what the built module exports; `runtime` is the set of names it exports.

/** A value declaration or a renaming export: `export declare const X`, `export { X_2 as X }`. */
const DECLARED_VALUE = /^export declare ((?:abstract )?class|const|let|var|function|enum|namespace) (\w+)/gm;
const RENAMED = /^export \{ (\w+) as (\w+) \}/gm;
/** The same in an API report, which prints declarations without `declare`. */
const REPORTED_VALUE = /^export ((?:abstract )?class|const|let|var|function|enum|namespace) (\w+)/gm;
/** Kinds that are a type as well as a value: exported as a type only, they stay importable with `import type`. */
const HAS_TYPE = /class|enum|namespace/;

/**
 * `declarations` (a rolled-up .d.ts) with the values `runtime` lacks declared but not exported: their type of the
 * same name stays exported (for a class, enum or namespace, through `export type { X }`: `import type { Creators }`
 * compiles, `new Creators()` does not), and the file's closing `export { }` keeps the rest unimportable.
 */
export function typeOnlyExports(declarations, runtime) {
  const types = new Set();
  const text = declarations
    .replace(DECLARED_VALUE, (line, kind, name) => {
      if (runtime.has(name)) return line;
      if (HAS_TYPE.test(kind)) types.add(name);
      return `declare ${kind} ${name}`;
    })
    .replace(RENAMED, (line, local, name) => (runtime.has(name) ? line : `export type { ${local} as ${name} }`));
  return types.size ? `${text.replace(/\n*$/, '\n')}export type { ${[...types].sort().join(', ')} };\n` : text;
}

/**
 * An API report (api-extractor's docs/api/*.api.md) that exports as values only the names `runtime` has: a schema
 * the module exports as a type only reads `const Creator: ...` (as api-extractor prints a declaration it does not
 * export) next to its `export type Creator`, a type-only class `export type { Creators };` above `class Creators`.
 */
export function typeOnlyReport(report, runtime) {
  return report
    .replace(REPORTED_VALUE, (line, kind, name) => {
      if (runtime.has(name)) return line;
      const declaration = line.replace(/^export /, '');
      return HAS_TYPE.test(kind) ? `export type { ${name} };\n${declaration}` : declaration;
    })
    .replace(RENAMED, (line, local, name) => (runtime.has(name) ? line : `export type { ${local} as ${name} }`));
}

/** The sentence a type-only class, enum or namespace gets in the reference (docs/reference/). */
export const TYPE_ONLY_NOTE = 'Exported as a type only (`import type`): the module exports no value of this name.';

/** `docComment` (a TSDoc comment, or '') with `note` as the first paragraph of its remarks. */
function withRemark(docComment, note) {
  const lines = docComment ? docComment.replace(/\n$/, '').split('\n') : ['/**', ' */'];
  const remarks = lines.findIndex((line) => /^\s*\*\s*@remarks\b/.test(line));
  if (remarks >= 0) lines.splice(remarks + 1, 0, ` * ${note}`, ' *');
  else {
    const block = lines.findIndex((line) => /^\s*\*\s*@\w+/.test(line));
    lines.splice(block >= 0 ? block : lines.length - 1, 0, ' * @remarks', ` * ${note}`, ...(block >= 0 ? [' *'] : []));
  }
  return `${lines.join('\n')}\n`;
}

/** The sentence before a schema's shape on its type's page. */
export const SCHEMA_NOTE = 'The shape of the zod schema this type is inferred from (the SDK\'s own, not exported):';

/**
 * A doc model (api-extractor's .api.json, which api-documenter turns into docs/reference/) of one entry, changed in
 * place: a variable or function the module does not export is left out (its type alias of the same name, which
 * shared its page, becomes that page, with the schema's description and shape; references to it become plain
 * text), a class, enum or namespace it exports as a type only says so and is declared without `export`. Returns
 * the names it changed.
 */
export function typeOnlyModel(model, runtime) {
  const entry = model.members[0];
  const removed = new Map();
  const schemas = new Map();
  const typeOnly = [];
  entry.members = entry.members.filter((item) => {
    // A renamed export's item is named after its local declaration (`PaymentItem_2`); its excerpt names the export.
    const exported = /^(?:export )?(?:declare )?(?:(?:abstract )?class |const |let |var |function |enum |namespace |type )?(\w+)/.exec(item.excerptTokens?.[0]?.text ?? '')?.[1] ?? item.name;
    if (runtime.has(exported) || runtime.has(item.name)) return true;
    if (item.kind === 'Variable' || item.kind === 'Function') {
      removed.set(item.canonicalReference, item.canonicalReference.replace('!', '!~'));
      if (item.kind === 'Variable') schemas.set(item.name, item);
      return false;
    }
    if (item.kind === 'Class' || item.kind === 'Enum' || item.kind === 'Namespace') {
      item.docComment = withRemark(item.docComment, TYPE_ONLY_NOTE);
      item.excerptTokens[0].text = item.excerptTokens[0].text.replace(/^export /, '');
      typeOnly.push(item.name);
    }
    return true;
  });
  for (const item of entry.members) {
    const schema = item.kind === 'TypeAlias' && schemas.get(item.name);
    if (!schema) continue;
    const shape = schema.excerptTokens.map((token) => token.text).join('').replace(/^\w+: /, '');
    item.docComment = withRemark(item.docComment || schema.docComment, [SCHEMA_NOTE, ' *', ' * ```ts', ...shape.split('\n').map((line) => ` * ${line}`), ' * ```'].join('\n'));
  }
  // api-extractor names a declaration it renamed to avoid a global of the same name (`PaymentItem_2`, lib.dom's
  // PaymentItem) by its local name; the game imports it by the exported one, which its excerpt prints.
  const names = new Set(entry.members.map((item) => item.name));
  const renamed = new Map();
  for (const item of entry.members) {
    const local = /^(\w+)_\d+$/.exec(item.name)?.[1];
    if (!local || names.has(local) || !new RegExp(`^export (?:declare )?type ${local}\\b`).test(item.excerptTokens?.[0]?.text ?? '')) continue;
    const reference = item.canonicalReference.replace(`!${item.name}:`, `!${local}:`);
    renamed.set(item.canonicalReference, reference);
    item.canonicalReference = reference;
    item.name = local;
  }
  const visit = (node) => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node && typeof node === 'object') {
      if (node.kind === 'Reference' && removed.has(node.canonicalReference)) node.canonicalReference = removed.get(node.canonicalReference);
      if (node.kind === 'Reference' && renamed.has(node.canonicalReference)) node.canonicalReference = renamed.get(node.canonicalReference);
      Object.values(node).forEach(visit);
    }
  };
  visit(entry);
  return { removed: [...removed.keys()].map((reference) => reference.replace(/^[^!]*!|:\w+$/g, '')), typeOnly };
}
