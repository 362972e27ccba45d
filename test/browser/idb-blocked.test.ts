// IndexedDB blocked by another tab, in real Chromium: a page of the origin (an older release of the game, or its own
// code through idb-keyval's `createStore`) holds the game's database open and ignores `versionchange`, while a
// deletion or an upgrade of that database waits for it. Every later open of the database queues behind that request
// (IndexedDB 3.0, "open a database connection" and "delete a database": requests wait in the database's connection
// queue until those before them are done), and no event reaches the queued open. The game's page must still start,
// record, send (its exit included) and stop. Time is the page clock's: the storage's deadline passes when the test runs
// the clock, never by waiting.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/chromium.js';
import { chromiumGame, keyedGame } from '../helpers/chromium-game.js';

/** The storage's deadline on an open (adapters/browser/idb-connection.ts `openDatabase`). */
const DEADLINE_MS = 5_000;
/** Until the storage falls back to memory: the first operation's open, and its one retry on a new connection. */
const FALLBACK_MS = 2 * DEADLINE_MS;

describe.runIf(chromiumAvailable())('IndexedDB blocked by another tab (Chromium)', () => {
  const suite = chromiumGame(keyedGame);
  const recorded = (sessionId: string) => suite.game.emulator.state().sessions.filter((session) => session.sessionId === sessionId);
  const errors = (page: Page) => page.evaluate(() => (window as any).errors as string[]);

  /**
   * Another page of the origin opens `name` (with the SDK's store) and ignores `versionchange`, then a deletion
   * (`version` undefined) or an upgrade to `version` of it is asked for and reported `blocked`. Resolves the page;
   * closing it lets the waiting request through.
   */
  const blockDatabase = async (name: string, version?: number) => {
    const blocker = await suite.browser.context.newPage();
    await blocker.goto(`${suite.game.origin}/sdk.mjs`);
    const outcome = await blocker.evaluate(
      ({ name, version }) =>
        new Promise<string>((resolve) => {
          const open = indexedDB.open(name);
          open.onupgradeneeded = () => open.result.createObjectStore('kv');
          open.onsuccess = () => {
            (window as any).held = open.result; // no onversionchange: idb-keyval's createStore keeps it open
            const waiting = version === undefined ? indexedDB.deleteDatabase(name) : indexedDB.open(name, version);
            waiting.onblocked = () => resolve('blocked');
            waiting.onsuccess = () => resolve('not blocked');
          };
        }),
      { name, version },
    );
    expect(outcome).toBe('blocked');
    return blocker;
  };

  /** Runs `call` in the page without awaiting it there; resolves a getter of whether it has settled. */
  const started = async (page: Page, call: string) => {
    await page.evaluate((call) => {
      (window as any).settled ??= {};
      (window as any).settled[call] = false;
      void (0, eval)(call).then(() => ((window as any).settled[call] = true));
    }, call);
    return () => page.evaluate((call) => (window as any).settled[call] as boolean, call);
  };

  it.each([
    ['deletion', undefined],
    ['upgrade', 2],
  ])('a %s blocked by another page: the game falls back to memory after the deadline, records, sends and stops', async (_, version) => {
    const keyId = `ck_blocked_${version ?? 'delete'}`;
    const blocker = await blockDatabase(`game-campaign.${keyId}`, version);
    const page = await suite.open(`key=${keyId}`);
    const sessionId = await page.evaluate(() => (window as any).gc.tracker.start() as string);
    await page.clock.runFor(3_000);
    const stopped = await started(page, 'gc.tracker.stop()');
    await page.clock.runFor(DEADLINE_MS); // past the first open's deadline, before the retry's
    expect(await stopped()).toBe(false); // the open waits behind the blocked request: no event reaches it
    await page.clock.runFor(FALLBACK_MS - DEADLINE_MS);
    await expect.poll(stopped, { timeout: 15_000 }).toBe(true);
    expect(await errors(page)).toEqual([expect.stringMatching(/^StorageUnavailableError: IndexedDB is unavailable \(Error: IndexedDB open blocked for 5 s\)/)]);
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await expect.poll(() => recorded(sessionId).length, { timeout: 15_000 }).toBe(1);
    expect(recorded(sessionId)[0]!.durationSeconds).toBe(3);
    // The other page goes: the waiting request runs, then the game's opens that gave up, each closed as it opens,
    // so the game's page (still open) blocks no one's next deletion.
    await blocker.close();
    const deletion = await suite.browser.context.newPage();
    await deletion.goto(`${suite.game.origin}/sdk.mjs`);
    const deleted = await deletion.evaluate(
      (name) =>
        new Promise<string>((resolve) => {
          const request = indexedDB.deleteDatabase(name);
          request.onblocked = () => resolve('blocked by the game');
          request.onsuccess = () => resolve('deleted');
        }),
      `game-campaign.${keyId}`,
    );
    expect(deleted).toBe('deleted');
    await deletion.close();
    await page.close();
  });

  it('the tab closed after the fallback: the session goes out in its exit, and what an earlier visit queued is sent by the next one, each once', async () => {
    const keyId = 'ck_blocked_exit';
    // An earlier visit, offline, queued a session in IndexedDB and closed.
    const earlierPage = await suite.open(`key=${keyId}`);
    await suite.browser.context.setOffline(true);
    const earlier = await earlierPage.evaluate(() => (window as any).gc.tracker.start() as string);
    await earlierPage.clock.runFor(2_000);
    await earlierPage.evaluate(() => (window as any).gc.tracker.stop());
    await earlierPage.close();
    await suite.browser.context.setOffline(false);

    const blocker = await blockDatabase(`game-campaign.${keyId}`, 2);
    const page = await suite.open(`key=${keyId}`);
    await page.clock.runFor(FALLBACK_MS); // start-up ends in memory
    await expect.poll(() => errors(page), { timeout: 15_000 }).toHaveLength(1);
    const sessionId = await page.evaluate(() => (window as any).gc.tracker.start() as string);
    await page.clock.runFor(4_000);
    await page.close({ runBeforeUnload: false }); // the exit: from memory, keepalive
    await expect.poll(() => recorded(sessionId).length, { timeout: 15_000 }).toBe(1);
    expect(recorded(sessionId)[0]!.durationSeconds).toBe(4);
    expect(recorded(earlier)).toEqual([]); // still on disk, untouched by the page that could not read it

    await blocker.close(); // the upgrade goes through; the database keeps what it held
    // The next visit sends it (its start-up may already have: the flush below then finds nothing left to send).
    const next = await suite.open(`key=${keyId}`);
    await next.evaluate(() => (window as any).gc.tracker.flush());
    await expect.poll(() => recorded(earlier).length, { timeout: 15_000 }).toBe(1);
    expect(recorded(sessionId)).toHaveLength(1);
    expect(await errors(next)).toEqual([]);
    await next.close();
  });

  it('blocked while the game runs: a write that meets it fails after the deadline, reported once, and the session is still sent; stop() ends', async () => {
    const keyId = 'ck_blocked_running';
    const page = await suite.open(`key=${keyId}`);
    await page.evaluate(() => (window as any).gc.tracker.flush()); // start-up done, on IndexedDB
    const sessionId = await page.evaluate(() => (window as any).gc.tracker.start() as string);
    await page.clock.runFor(1_500);
    // The other page's upgrade asks the game's connection to close (it does), then waits for the other page's own.
    const blocker = await blockDatabase(`game-campaign.${keyId}`, 2);
    await page.clock.runFor(1_500);
    const stopped = await started(page, 'gc.tracker.stop()');
    await page.clock.runFor(4 * DEADLINE_MS); // the session's queue write, then its running record's: two opens each
    await expect.poll(stopped, { timeout: 15_000 }).toBe(true);
    expect(await errors(page)).toEqual([expect.stringMatching(/^storage: Error: IndexedDB open blocked for 5 s/)]);
    await started(page, 'gc.tracker.flush()'); // the flush lists the queue first: storage fails again, the session held in memory is sent
    await page.clock.runFor(FALLBACK_MS);
    await expect.poll(() => recorded(sessionId).length, { timeout: 15_000 }).toBe(1);
    expect(recorded(sessionId)[0]!.durationSeconds).toBe(3);
    await page.close();
    await blocker.close();
  });
});
