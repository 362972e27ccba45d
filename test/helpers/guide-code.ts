/** Running a guide's code blocks: edited where a test must point them elsewhere, then imported as modules of their own. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'vitest';

/** `code` with `from` replaced by `to`, failing when the guide no longer holds `from`. */
export function edit(code: string, from: string, to: string): string {
  expect(code, `the example still holds ${from}`).toContain(from);
  return code.replace(from, to);
}

/** Imports `code` as a module of its own, written to `folder` as `{name}.mts`. */
export async function runAsModule<T>(folder: string, name: string, code: string): Promise<T> {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, `${name}.mts`);
  writeFileSync(file, code);
  return (await import(/* @vite-ignore */ pathToFileURL(file).href)) as T;
}
