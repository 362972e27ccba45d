// A Node process that uses the SDK exits when its own work is done, also without `gc.dispose()`: the tracker's flush
// interval and retry wait do not hold it open (a headless game, a bot, a CLI tool). The script runs in a child
// process (node --import tsx: one process, so the guard's kill ends it), as a developer's would.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const SCRIPT = join(import.meta.dirname, 'fixtures/undisposed-facade.ts');
/** Far above the script's own work (about 1 s): a process still running then is held open by the SDK. */
const HELD_OPEN_AFTER_MS = 15_000;

async function runScript(mode: string): Promise<{ code: number | null; heldOpen: boolean; stdout: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT, mode], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  let heldOpen = false;
  const guard = setTimeout(() => ((heldOpen = true), child.kill('SIGKILL')), HELD_OPEN_AFTER_MS);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearTimeout(guard);
  return { code, heldOpen, stdout };
}

describe('a Node script that never disposes the SDK', () => {
  it('exits once the facade is created and nothing is played', async () => {
    const run = await runScript('idle');
    expect(run.heldOpen, 'the process was still running: a timer of the SDK held it open').toBe(false);
    expect(run).toMatchObject({ code: 0, stdout: 'done idle, 0 failed request(s)\n' });
  }, 30_000);

  it('exits after a session whose flush failed (the retry wait does not hold it)', async () => {
    const run = await runScript('played');
    expect(run.heldOpen, 'the process was still running: a timer of the SDK held it open').toBe(false);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('done played, 1 failed request(s)\n');
  }, 30_000);
});
