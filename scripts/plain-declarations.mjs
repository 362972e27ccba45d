// The client entries run no zod (DESIGN section 11), yet api-extractor's rollup of their declarations imported
// `zod/mini` and declared the internal schemas (`declare const BoostRecord: z.ZodMiniObject<...>`,
// `type BoostRecord = z.infer<typeof BoostRecord>`), so a game compiled zod 4's declarations too: TypeScript 5.5 and
// `esModuleInterop`/`skipLibCheck` at least. `plainDeclarations` writes every type derived from a schema as the plain
// type the TypeScript compiler infers for it, from the rolled-up file itself (the schemas stay the one rule source),
// and leaves the schemas and the zod import out. test/foundation/plain-declarations.test.ts proves each plain type
// equal to the zod-inferred one.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** `import * as z from 'zod/mini'`, `import { z } from 'zod'`, ... */
const ZOD_MODULE = /^zod(?:\/|$)/;

const PRINT_FLAGS = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.MultilineObjectLiterals | ts.NodeBuilderFlags.UseSingleQuotesForStringLiteralType;

/** Whether the built module `file` (an ES module of dist/) or a module it imports, statically or lazily, imports zod. */
export function importsZod(file, seen = new Set()) {
  if (seen.has(file)) return false;
  seen.add(file);
  const code = readFileSync(file, 'utf8');
  for (const [, specifier] of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["']([^"']+)["']/g)) {
    if (ZOD_MODULE.test(specifier)) return true;
    if (specifier.startsWith('.') && importsZod(resolve(dirname(file), specifier), seen)) return true;
  }
  return false;
}

/** The leftmost identifier of a name (`z.core.$strip` → `z`) or a `typeof` query's expression. */
function leftmost(name) {
  let node = name;
  while (ts.isQualifiedName(node) || ts.isPropertyAccessExpression(node)) node = ts.isQualifiedName(node) ? node.left : node.expression;
  return ts.isIdentifier(node) ? node.text : undefined;
}

/**
 * Whether `node` refers to zod (a type or `typeof` whose name starts with one of `zodNames`, or an `import()`
 * type) or queries a schema (`typeof X` with X in `schemas`; a type reference `X` names the type, not the schema).
 */
function mentions(node, zodNames, schemas) {
  if (ts.isTypeReferenceNode(node) && zodNames.has(leftmost(node.typeName))) return true;
  if (ts.isExpressionWithTypeArguments(node) && zodNames.has(leftmost(node.expression))) return true;
  if (ts.isTypeQueryNode(node) && (zodNames.has(leftmost(node.exprName)) || schemas.has(leftmost(node.exprName)))) return true;
  if (ts.isImportTypeNode(node)) return true;
  return ts.forEachChild(node, (child) => mentions(child, zodNames, schemas) || undefined) ?? false;
}

/**
 * `declarations` (a rolled-up .d.ts of an entry that runs no zod, at `fileName` so that `zod` resolves from there)
 * with each type node that refers to zod or to a schema written as the type TypeScript infers for it, without the
 * schemas (their doc comment moves to the type of the same name) or the zod import. Throws when zod is left.
 */
export function plainDeclarations(declarations, fileName) {
  const options = { strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile;
  const getSourceFile = host.getSourceFile;
  host.readFile = (name) => (name === fileName ? declarations : readFile.call(host, name));
  host.getSourceFile = (name, ...rest) => (name === fileName ? ts.createSourceFile(name, declarations, ts.ScriptTarget.ES2022, true) : getSourceFile.call(host, name, ...rest));
  const program = ts.createProgram([fileName], options, host);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(fileName);

  // The zod import's names, then (as they are found) the schemas: constants whose type refers to zod.
  const zodNames = new Set();
  const removed = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ZOD_MODULE.test(statement.moduleSpecifier.text)) {
      const bindings = statement.importClause;
      if (bindings?.name) zodNames.add(bindings.name.text);
      if (bindings?.namedBindings && ts.isNamespaceImport(bindings.namedBindings)) zodNames.add(bindings.namedBindings.name.text);
      else for (const element of bindings?.namedBindings?.elements ?? []) zodNames.add(element.name.text);
      removed.push(statement);
    }
  }
  const exported = (statement) => statement.modifiers?.some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  const schemas = new Map();
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement) || exported(statement)) continue;
    const declarations = statement.declarationList.declarations;
    if (declarations.every((declaration) => declaration.type && mentions(declaration.type, zodNames, new Map()))) {
      for (const declaration of declarations) schemas.set(declaration.name.text, statement);
      removed.push(statement);
    }
  }

  // Each type node that refers to zod or a schema, widened to the smallest enclosing type node whose inferred type
  // prints without them (`typeof RESPONSES` prints schemas, `keyof typeof RESPONSES` a union of names).
  const plainOf = (node) => {
    const alias = ts.isTypeAliasDeclaration(node.parent) && node.parent.type === node;
    const printed = checker.typeToTypeNode(checker.getTypeFromTypeNode(node), node, PRINT_FLAGS | (alias ? ts.NodeBuilderFlags.InTypeAlias : 0));
    return printed && !mentions(printed, zodNames, schemas) ? printed : undefined;
  };
  const replacements = new Map();
  const visit = (node) => {
    if (ts.isTypeNode(node) && (ts.isTypeReferenceNode(node) || ts.isTypeQueryNode(node) || ts.isExpressionWithTypeArguments(node)) && mentions(node, zodNames, schemas)) {
      for (let widened = node; widened && ts.isTypeNode(widened); widened = widened.parent) {
        const printed = plainOf(widened);
        if (printed) return void replacements.set(widened, printed);
      }
      throw new Error(`plain-declarations: ${fileName}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}: no plain type for \`${node.getText()}\``);
    }
    ts.forEachChild(node, visit);
  };
  for (const statement of source.statements) if (!removed.includes(statement)) visit(statement);

  // A schema's doc comment goes to its type of the same name, unless that has one of its own.
  const docOf = (node) => ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc).map((doc) => doc.getFullText().trim()).join('\n');
  const movedDocs = new Map();
  for (const statement of source.statements) {
    if (!ts.isTypeAliasDeclaration(statement) || !schemas.has(statement.name.text) || docOf(statement)) continue;
    const doc = docOf(schemas.get(statement.name.text));
    if (doc) movedDocs.set(statement, doc);
  }

  const printer = ts.createPrinter({ newLine: ts.NewLineKind.LineFeed });
  const edits = [
    // A schema's comments go with it; the import's are the file's own (`@packageDocumentation`).
    ...removed.map((statement) => ({ start: ts.isImportDeclaration(statement) ? statement.getStart() : statement.getFullStart(), end: statement.getEnd(), text: '' })),
    ...[...movedDocs].map(([statement, doc]) => ({ start: statement.getStart(), end: statement.getStart(), text: `${doc}\n` })),
    ...[...replacements].map(([node, printed]) => {
      const line = source.text.slice(source.text.lastIndexOf('\n', node.getStart()) + 1, node.getStart());
      const indent = /^\s*/.exec(line)[0];
      const text = printer.printNode(ts.EmitHint.Unspecified, printed, source).replace(/\n/g, `\n${indent}`);
      return { start: node.getStart(), end: node.getEnd(), text };
    }),
  ].sort((a, b) => b.start - a.start || b.end - a.end);
  let text = source.text;
  for (const edit of edits) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  text = text.replace(/\n{3,}/g, '\n\n').replace(/^\n+/, '');
  const left = zodReferences(text);
  if (left.length) throw new Error(`plain-declarations: ${fileName} still refers to zod: ${left.join('; ')}`);
  return text;
}

/** The lines of a declaration file that name zod (an import, `z.`, a `$Zod` type). */
export function zodReferences(declarations) {
  return declarations.split('\n').filter((line) => /['"]zod(?:\/[^'"]*)?['"]|\bz\.|\$Zod|\bZod[A-Z]/.test(line)).map((line) => line.trim());
}
