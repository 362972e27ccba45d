/**
 * The memory platform frees what each call used once the call settles: 100 000 storage calls, fetches and
 * lock calls on one live platform leave (nearly) nothing on the heap after a full collection. Measured in a
 * child process run with `--expose-gc` (fixtures/memory-platform-retention.ts), so `gc()` is real and no other
 * test's garbage is counted. Not a timing: heap sizes after `gc()` are stable within tens of kilobytes.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const SCRIPT = 'test/core/fixtures/memory-platform-retention.ts';
/**
 * What 100 000 calls may leave behind: 1 MiB, 10 bytes a call. The leak this guards against kept ~310 bytes
 * per call (31-36 MB for 100 000); a run without it measures within ±0.3 MB of zero.
 */
const BOUND_BYTES = 1024 * 1024;

it('retains under 1 MiB after 100 000 storage calls, 100 000 fetches and 100 000 lock calls (after gc)', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', SCRIPT], { cwd: ROOT });
  const retained = JSON.parse(stdout) as { calls: number; storage: number; fetch: number; lock: number };
  expect(retained.calls).toBe(100_000);
  const overBound = Object.entries({ storage: retained.storage, fetch: retained.fetch, lock: retained.lock }).filter(([, bytes]) => bytes >= BOUND_BYTES);
  expect(overBound).toEqual([]); // on failure: which kinds of call kept how many bytes
});
