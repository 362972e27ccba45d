// Debian's Chromium driven by playwright-core (never a downloaded browser). Where it is missing the browser
// suite is skipped with a notice, except under CI=true, where a missing Chromium fails the run.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/** True when the browser suite can run; prints why not, and throws under CI where it must run. */
export function chromiumAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env['CI'] === 'true') throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; .ci/run installs it with apt-get`);
  console.warn(`[browser tests skipped] no Chromium at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  return false;
}

/** A headless Chromium with a fresh profile; `close()` removes the profile. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'gc-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, headless: true, args: FLAGS });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
