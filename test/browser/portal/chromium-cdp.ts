/**
 * Debian's Chromium started by the suite itself and driven over the DevTools protocol, so the browser keeps the
 * defaults players have. Playwright's own `launch` adds `--disable-back-forward-cache` and
 * `--disable-features=...,ThirdPartyStoragePartitioning,...` (playwright-core's `chromiumSwitches`, read in
 * node_modules/playwright-core/lib/coreBundle.js of 1.65.1): a portal story run that way would test a browser
 * no player has. Here only the switches below are passed; `assertPlayerDefaults` checks none of Playwright's
 * disabling switches slipped in, and the stories check bfcache and partitioning by their effects.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { CHROMIUM_PATH } from '../../helpers/chromium.js';

/** The project's usual switches (test/helpers/chromium.ts), none of which touches storage or the page cache. */
const SWITCHES = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** What Playwright's launch adds that would take the point out of these stories. */
const DISABLING = [/--disable-back-forward-cache/, /--disable-features=[^ ]*ThirdPartyStoragePartitioning/, /--disable-features=[^ ]*BackForwardCache/];

/** A running Chromium: its default (persistent-profile) context, and `close()` that ends it and removes the profile. */
export interface CdpChromium {
  browser: Browser;
  context: BrowserContext;
  /** The command line Chromium was started with (for the check that no disabling switch is in it). */
  args: readonly string[];
  close(): Promise<void>;
}

/** Throws when a switch that turns off the back/forward cache or storage partitioning is on the command line. */
export function assertPlayerDefaults(args: readonly string[]): void {
  const line = args.join(' ');
  for (const pattern of DISABLING)
    if (pattern.test(line)) throw new Error(`Chromium was started with ${pattern.source}: the portal stories need the browser's defaults`);
}

/** A Chromium this file started: its DevTools address and command line, and `close()` that ends it and removes its profile. */
export interface StartedChromium {
  /** The browser's DevTools WebSocket address. */
  endpoint: string;
  args: readonly string[];
  close(): Promise<void>;
}

/**
 * Starts headless Chromium with a fresh profile, every `*.test` host resolved to 127.0.0.1 (so `portal.test`,
 * `cdn.test` and `studio.test` are three sites on one local server; `*.localhost` is loopback already), listening
 * for DevTools on a free port. Nothing is attached to its pages: see {@link launchChromiumOverCdp} for Playwright.
 */
export async function startChromium(options: { profile?: string } = {}): Promise<StartedChromium> {
  // A profile the caller passes is the player's browser profile across restarts: the caller removes it.
  const profile = options.profile ?? mkdtempSync(join(tmpdir(), 'gc-portal-chromium-'));
  const args = [
    ...SWITCHES,
    '--headless',
    '--remote-debugging-port=0',
    `--user-data-dir=${profile}`,
    '--host-resolver-rules=MAP *.test 127.0.0.1',
    'about:blank',
  ];
  assertPlayerDefaults(args);
  // A process group of its own: the browser and its helper processes end together (stopProcess).
  const child = spawn(CHROMIUM_PATH, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  // A test process that dies without afterAll leaves no browser behind.
  const killOnExit = () => signalGroup(child, 'SIGKILL');
  process.once('exit', killOnExit);
  child.once('exit', () => process.off('exit', killOnExit));
  const close = async () => {
    await stopProcess(child);
    if (!options.profile) removeProfile(profile);
  };
  try {
    return { endpoint: await devToolsEndpoint(child), args, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** {@link startChromium}, with Playwright connected over CDP. */
export async function launchChromiumOverCdp(options: { profile?: string } = {}): Promise<CdpChromium> {
  const started = await startChromium(options);
  try {
    const browser = await chromium.connectOverCDP(started.endpoint);
    return {
      browser,
      context: browser.contexts()[0]!,
      args: started.args,
      close: async () => {
        await browser.close().catch(() => undefined);
        await started.close();
      },
    };
  } catch (error) {
    await started.close();
    throw error;
  }
}

/** The `ws://` address Chromium prints on stderr once it listens (30 s at most, then the error says what it printed). */
function devToolsEndpoint(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(() => reject(new Error(`Chromium printed no DevTools address within 30 s:\n${printed}`)), 30_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      const found = /DevTools listening on (ws:\/\/\S+)/.exec(printed);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Chromium exited (${code}) before listening:\n${printed}`));
    });
  });
}

/**
 * Removes the temporary profile (retried: a helper process may still be closing its files); a profile left in the
 * temp folder after that is only warned about.
 */
export function removeProfile(profile: string): void {
  try {
    rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  } catch (error) {
    console.warn(`[portal stories] could not remove Chromium's temporary profile ${profile}: ${String(error)}`);
  }
}

/** Sends `signal` to the process group this file started (the browser and its helpers), if it is still there. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    process.kill(-child.pid!, signal);
  } catch {
    // ESRCH: the group has ended
  }
}

/** Ends the browser this file started and its helper processes (its own process group only), waiting for it to exit. */
async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    signalGroup(child, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  // Helpers that outlived the browser would keep writing to the profile.
  signalGroup(child, 'SIGKILL');
}
