/**
 * The check behind promise-arrays.test.ts: in game-client code, `Promise.all` and `Promise.race` get an array
 * (by type, so a `Set` or a `Map`'s `values()` is caught however it is named), and `Promise.allSettled` and
 * `Promise.any` are not called. React Native 0.70's Hermes (0.12) has a Promise whose `all` reads only
 * array-likes (a Set counts as empty: `stop()` once spun forever on `Promise.all(pending)`), whose `race` walks its
 * argument with `forEach` (an iterator has none: it rejects), and which has neither `allSettled` nor `any`.
 * An AST scan cannot tell an array from a Set held in a variable; the TypeScript checker can.
 */
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(import.meta.dirname, '../..');
/** The combinators that must get an array, and those Hermes 0.12 does not have. */
const ARRAY_ONLY = new Set(['all', 'race']);
const MISSING = new Set(['allSettled', 'any']);

/** The game-client sources: core/ and adapters/ (not adapters/node, the server's). */
export function gameClientSources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return path === 'adapters/node' ? [] : walk(path);
      return /\.tsx?$/.test(entry.name) && !/\.d\.ts$/.test(entry.name) ? [join(ROOT, path)] : [];
    });
  return [...walk('core'), ...walk('adapters')];
}

/** The project's compiler options (tsconfig.json). */
function compilerOptions(): ts.CompilerOptions {
  const file = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  return { ...ts.parseJsonConfigFileContent(file.config, ts.sys, ROOT).options, noEmit: true };
}

/**
 * Every call that breaks the rule, as `file:line: message`, in `files`; `extra` adds in-memory sources (name ->
 * text) to check with them (the test's own examples).
 */
export function promiseCombinatorOffences(files: string[], extra: Record<string, string> = {}): string[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  const virtual = new Map(Object.entries(extra).map(([name, text]) => [join(ROOT, name), text]));
  host.readFile = (name) => virtual.get(name) ?? read(name);
  host.fileExists = (name) => virtual.has(name) || fileExists(name);
  host.getSourceFile = (name, language, onError) => (virtual.has(name) ? ts.createSourceFile(name, virtual.get(name)!, language, true) : getSourceFile(name, language, onError));
  const program = ts.createProgram([...files, ...virtual.keys()], options, host);
  const checker = program.getTypeChecker();
  const checked = new Set([...files, ...virtual.keys()]);
  const offences: string[] = [];
  for (const source of program.getSourceFiles()) {
    if (!checked.has(source.fileName)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ts.isIdentifier(node.expression.expression) && node.expression.expression.text === 'Promise') {
        const method = node.expression.name.text;
        const at = `${relative(ROOT, source.fileName)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
        if (MISSING.has(method)) offences.push(`${at}: Promise.${method} does not exist on Hermes 0.12 (React Native 0.70)`);
        const argument = node.arguments[0];
        if (ARRAY_ONLY.has(method) && argument) {
          const type = checker.getTypeAtLocation(argument);
          const isArray = (t: ts.Type) => checker.isArrayType(t) || checker.isTupleType(t);
          if (!(type.isUnion() ? type.types.every(isArray) : isArray(type))) {
            offences.push(`${at}: Promise.${method} gets ${checker.typeToString(type)}, not an array (Hermes 0.12 reads only arrays)`);
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return offences;
}
