/**
 * The memory store holds each key and value as one flat string, not as the rope concatenation and `JSON.stringify`
 * leave (core/memory-platform.ts `flat`): DESIGN section 11's heap bar (10,000 queued sessions under 5 MB, `npm run
 * bench`) read 6.0 MB with ropes. Measured in a child process run with `--expose-gc`
 * (fixtures/memory-storage-flat.ts) against fresh flat copies of the same strings in a Map. Not a timing: heap
 * sizes after `gc()` are stable within a few per cent an entry here.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = 'test/core/fixtures/memory-storage-flat.ts';

it('holds a queued session in about the bytes of its flat key and text (ropes took half as much again)', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', SCRIPT], { cwd: ROOT });
  const { stored, flatCopies } = JSON.parse(stdout) as { stored: number; flatCopies: number };
  expect(flatCopies).toBeGreaterThan(200);
  // Measured: within 4% of the flat copies (345-365 B an entry here); ropes about 1.5 times them (516-528 B).
  expect(stored).toBeLessThan(flatCopies * 1.2);
});
