/** Editing a guide's code block before running it, failing loudly when the guide no longer says what a test relies on. */
import { expect } from 'vitest';

/** `code` with `from` replaced by `to`, failing when the guide no longer holds `from`. */
export function edit(code: string, from: string, to: string): string {
  expect(code, `the example still holds ${from}`).toContain(from);
  return code.replace(from, to);
}
