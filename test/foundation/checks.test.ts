// The checks `npm test` and CI rely on: an outdated API report fails the build, and the closing line CI reads.
// Runs after the build (`npm test` builds first: the API check reads build/types).
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const run = promisify(execFile);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'gc-checks-'));
  dirs.push(dir);
  return dir;
}

/** Runs a script, resolving with its exit code and output whatever the code. */
async function script(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, args, { cwd: ROOT });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, stdout: failure.stdout, stderr: failure.stderr };
  }
}

describe('the API report check', () => {
  const REPORT = 'game-campaign-sdk-node.api.md';

  it('passes against the committed report', async () => {
    const folder = tempDir();
    copyFileSync(join(ROOT, 'docs/api', REPORT), join(folder, REPORT));
    const result = await script(['scripts/api-report.mjs', '--entry', 'node', '--report-folder', folder]);
    expect(result.stdout).toContain(`api-report: 1 entries match ${folder}`);
    expect(result.code).toBe(0);
  });

  it('fails when the public API differs from the report (an exported signature changed, the report not updated)', async () => {
    const folder = tempDir();
    const report = readFileSync(join(ROOT, 'docs/api', REPORT), 'utf8');
    expect(report).toContain('export function toNodeHandler(handler: FetchHandler): NodeHandlerWithClientError;');
    writeFileSync(join(folder, REPORT), report.replace('export function toNodeHandler(handler: FetchHandler): NodeHandlerWithClientError;', 'export function toNodeHandler(handler: FetchHandler, basePath: string): NodeHandlerWithClientError;'));
    const result = await script(['scripts/api-report.mjs', '--entry', 'node', '--report-folder', folder]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('api-report: ./node: the public API changed: run `npm run build` and commit docs/api/');
  });
});

describe('the closing line CI reads (scripts/test-summary.mjs)', () => {
  const summary = async (report: object | undefined) => {
    const file = join(tempDir(), 'vitest.json');
    if (report) writeFileSync(file, JSON.stringify(report));
    return script(['scripts/test-summary.mjs', file]);
  };

  it('prints `N passed, N failed` from the vitest JSON report, and the skipped count when there are skips', async () => {
    expect((await summary({ numPassedTests: 12, numFailedTests: 1, numPendingTests: 0, numFailedTestSuites: 1 })).stdout).toBe('12 passed, 1 failed\n');
    expect((await summary({ numPassedTests: 5, numFailedTests: 0, numPendingTests: 3, numFailedTestSuites: 0 })).stdout).toBe('5 passed, 0 failed, 3 skipped\n');
  });

  it('counts a suite that failed to load as a failure, and a missing report as one', async () => {
    expect((await summary({ numPassedTests: 3, numFailedTests: 0, numPendingTests: 0, numFailedTestSuites: 2 })).stdout).toBe('3 passed, 2 failed\n');
    expect((await summary(undefined)).stdout).toBe('0 passed, 1 failed\n');
  });
});
