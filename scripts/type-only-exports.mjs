// api-extractor's rollup exports a re-exported name's value along with its type even where the source re-exports
// the type only (`export type { Creator }`, `export type *`: microsoft/rushstack#1760), so dist/<entry>.d.ts declared
// `export declare const Creator: z.ZodMiniObject<...>` for every zod schema while the module exports none: a game's
// `Creator.parse(...)` compiled and then failed in Node ("does not provide an export named 'Creator'").

/** A value declaration or a renaming export: `export declare const X`, `export { X_2 as X }`. */
const DECLARED_VALUE = /^export declare ((?:abstract )?class|const|let|var|function|enum|namespace) (\w+)/gm;
const RENAMED = /^export \{ (\w+) as (\w+) \}/gm;

/**
 * `declarations` (a rolled-up .d.ts) with the values `runtime` (the names its built module exports) lacks declared
 * but not exported: their type of the same name stays exported, and the file's closing `export { }` keeps the rest
 * unimportable.
 */
export function typeOnlyExports(declarations, runtime) {
  return declarations
    .replace(DECLARED_VALUE, (line, kind, name) => (runtime.has(name) ? line : `declare ${kind} ${name}`))
    .replace(RENAMED, (line, local, name) => (runtime.has(name) ? line : `export type { ${local} as ${name} }`));
}
