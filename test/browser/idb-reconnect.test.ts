// A lost IndexedDB connection in real Chromium (issue 28 item 3): an init script captures every IDBDatabase the page
// opens (wrapping indexedDB.open) and the test close()s them under the running game, as WebKit's lost server or a
// closing connection leave a page. A session played after the close is stored (it survives a reload) and sent, with
// Web Locks and with the IndexedDB lease (pages without Web Locks keep their lock in the same store). Each game here
// has its own Client key, so its own database (`game-campaign.<CLIENT_KEY_ID>`). Time is the page clock's; outcomes
// are polled, never timed. Another connection's upgrade (`versionchange`) is let through and the game reopens.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../helpers/chromium.js';
import { chromiumGame, keyedGame, storedKeys } from '../helpers/chromium-game.js';

/** Runs before the page's scripts: every IDBDatabase the page opens is kept, for the test to close under it. */
const captureDatabases = () => {
  const opened: IDBDatabase[] = [];
  (window as unknown as { closeDatabases(): number }).closeDatabases = () => {
    for (const db of opened) db.close();
    return opened.length;
  };
  const open = IDBFactory.prototype.open;
  IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
    const request = open.apply(this, args);
    request.addEventListener('success', () => opened.push(request.result));
    return request;
  };
};

describe.runIf(chromiumAvailable())('a lost IndexedDB connection in Chromium', () => {
  const suite = chromiumGame(keyedGame);
  const withoutWebLocksScript = () => Object.defineProperty(Navigator.prototype, 'locks', { get: () => undefined, configurable: true });
  const newGamePage = (keyId: string, withoutWebLocks: boolean) => suite.open(`key=${keyId}`, captureDatabases, ...(withoutWebLocks ? [withoutWebLocksScript] : []));
  /** The game loaded again in `page` (from the HTTP cache when offline; its init scripts run again), once ready. */
  const reload = async (page: Page) => {
    await page.goto(page.url());
    await page.waitForFunction(() => (window as unknown as { ready?: boolean }).ready === true);
  };
  /** A session of `ms` on the page clock, stopped (queued). */
  const playSession = async (page: Page, ms: number) => {
    const sessionId = await page.evaluate(() => (window as any).gc.tracker.start() as string);
    await page.clock.runFor(ms);
    await page.evaluate(() => (window as any).gc.tracker.stop());
    return sessionId;
  };
  const recorded = (sessionId: string) => suite.game.emulator.state().sessions.filter((session) => session.sessionId === sessionId);
  const errors = (page: Page) => page.evaluate(() => (window as any).errors as string[]);

  it.each([
    ['Web Locks', false],
    ['the IndexedDB lease (no navigator.locks)', true],
  ])('a session played after the connection was closed under the page is stored, survives a reload and is recorded once, with %s', async (_, withoutWebLocks) => {
    const keyId = withoutWebLocks ? 'ck_reconnect_lease' : 'ck_reconnect_locks';
    const page = await newGamePage(keyId, withoutWebLocks);
    expect(await page.evaluate(() => navigator.locks === undefined)).toBe(withoutWebLocks);
    await suite.browser.context.setOffline(true);
    const before = await playSession(page, 2_000);
    expect(await page.evaluate(() => (window as any).closeDatabases())).toBeGreaterThan(0);

    const after = await playSession(page, 3_000); // written on a connection the storage had to replace
    await page.evaluate(() => (window as any).gc.tracker.flush()); // offline: nothing is sent
    expect(recorded(before).concat(recorded(after))).toEqual([]);

    await reload(page); // still offline: only what reached IndexedDB is left
    // What the reload finds queued in the game's IndexedDB (read by hand: every database of the SDK on the origin).
    const stored = (await storedKeys(page, { prefix: 'game-campaign' })).filter((key) => key.includes(':queue:')).map((key) => key.split(':').pop());
    expect(stored).toEqual(expect.arrayContaining([before, after]));

    await suite.browser.context.setOffline(false); // `online`: the tracker flushes
    await expect.poll(() => [recorded(before).length, recorded(after).length], { timeout: 15_000 }).toEqual([1, 1]);
    expect(recorded(after)[0]!.durationSeconds).toBe(3);
    expect(await errors(page)).toEqual([]); // the reopen worked: nothing to report
    await page.close();
  });

  it("another connection's upgrade (versionchange) is not blocked by the game's, and the game reopens after it", async () => {
    const keyId = 'ck_reconnect_upgrade';
    const page = await newGamePage(keyId, false);
    await playSession(page, 1_500); // the game's connection is open
    // Another tab, a newer version of the page or devtools upgrades every SDK database of the origin (the game's among them).
    const upgrade = await page.evaluate(async () => {
      const outcomes: string[] = [];
      for (const { name, version } of await indexedDB.databases()) {
        if (!name?.startsWith('game-campaign')) continue;
        outcomes.push(
          await new Promise<string>((resolve) => {
            const request = indexedDB.open(name, (version ?? 1) + 1);
            request.onblocked = () => resolve(`${name}: blocked by an open connection`);
            request.onsuccess = () => (request.result.close(), resolve('upgraded'));
            request.onerror = () => resolve(String(request.error));
          }),
        );
      }
      return [...new Set(outcomes)].join(', ');
    });
    expect(upgrade).toBe('upgraded');
    const after = await playSession(page, 2_000);
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await expect.poll(() => recorded(after).length, { timeout: 15_000 }).toBe(1);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it("the game's database deleted by another tab (the game's own reset, an older release, devtools) while sessions wait offline: the page still holds them and sends them, each recorded once", async () => {
    // Found by a hostile-player probe: the deletion let through (versionchange), the queue's index still named both
    // sessions, the flush read nothing back and forgot them as if another tab had sent them: neither was recorded,
    // nor `dropped`, nor any error.
    const keyId = 'ck_reconnect_deleted';
    const page = await newGamePage(keyId, false);
    await suite.browser.context.setOffline(true);
    const first = await playSession(page, 2_000);
    const second = await playSession(page, 3_000);
    const other = await suite.browser.context.newPage();
    await other.goto(`${suite.game.origin}/sdk.mjs`);
    const deleted = await other.evaluate(
      (name) => new Promise<string>((resolve) => Object.assign(indexedDB.deleteDatabase(name), { onsuccess: () => resolve('deleted'), onblocked: () => resolve('blocked'), onerror: () => resolve('failed') })),
      `game-campaign.${keyId}`,
    );
    expect(deleted).toBe('deleted');
    await other.close();

    await suite.browser.context.setOffline(false); // `online`: the tracker flushes
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await expect.poll(() => [recorded(first).length, recorded(second).length], { timeout: 15_000 }).toEqual([1, 1]);
    expect(recorded(second)[0]!.durationSeconds).toBe(3);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it("the site's data cleared (Storage.clearDataForOrigin) while a flush waits on a relay answering 503: the sessions are sent once it answers, each recorded once", async () => {
    const page = await newGamePage('ck_reconnect_cleared', false);
    let failing = true;
    // The order is the test's, not the machine's: the flush's request is held until the data is cleared, then answered
    // 503 (a timer here let a loaded CI machine clear before the flush read its batch, or after the answer).
    let arrived!: () => void;
    const requestArrived = new Promise<void>((resolve) => (arrived = resolve));
    let release!: () => void;
    const cleared = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/campaign/playtime/sessions', async (route) => {
      if (!failing) return route.continue();
      arrived();
      await cleared;
      return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":{"code":"UNAVAILABLE","message":"down"}}' });
    });
    await suite.browser.context.setOffline(true);
    const first = await playSession(page, 2_000);
    const second = await playSession(page, 2_500);
    await suite.browser.context.setOffline(false);
    const flushing = page.evaluate(() => (window as any).gc.tracker.flush());
    await requestArrived;
    const cdp = await suite.browser.context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin: suite.game.origin, storageTypes: 'all' });
    release();
    await flushing;
    expect(recorded(first).concat(recorded(second))).toEqual([]);

    failing = false;
    // A storage call first, in real time: it reopens the database once the clearing let it. Jumping the page's fake clock
    // 300 s while that reopen still waited would fire its 5 s deadline ("IndexedDB open blocked for 5 s"), a time that
    // never passed (seen under load).
    await page.evaluate(() => (window as any).gc.tracker.setOptOut(false));
    await page.clock.runFor(300_000); // past the backoff
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await expect.poll(() => [recorded(first).length, recorded(second).length], { timeout: 15_000 }).toEqual([1, 1]);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it("Safari 14's first open that hangs until IndexedDB is woken (WebKit bug 226547): the game's storage wakes it, stores and sends", async () => {
    // As WebKit 14.1 did after the browser started: every open stays pending (no event, ever) until something asks
    // IndexedDB for its databases. Before the change the tracker's start-up, stop() and flush() waited for ever and
    // nothing was sent or reported.
    const hangingFirstOpen = () => {
      const open = IDBFactory.prototype.open;
      const databases = IDBFactory.prototype.databases;
      const waiting: Array<() => void> = [];
      let asleep = true;
      IDBFactory.prototype.open = function (this: IDBFactory, ...args: Parameters<IDBFactory['open']>) {
        if (!asleep) return open.apply(this, args);
        // A pending request: its handlers are called (and its result read) once the real open runs.
        const pending = { result: undefined, error: null, transaction: null } as unknown as Record<string, any>;
        waiting.push(() => {
          const request = open.apply(indexedDB, args);
          for (const name of ['onsuccess', 'onerror', 'onupgradeneeded', 'onblocked'])
            (request as unknown as Record<string, unknown>)[name] = (event: Event) => {
              Object.assign(pending, { result: request.result, error: request.error, transaction: request.transaction });
              pending[name]?.(event);
            };
        });
        return pending as unknown as IDBOpenDBRequest;
      };
      IDBFactory.prototype.databases = function (this: IDBFactory) {
        asleep = false;
        for (const wake of waiting.splice(0)) wake();
        return databases.call(this);
      };
    };
    const page = await suite.open('key=ck_reconnect_asleep', hangingFirstOpen);
    const sessionId = await playSession(page, 2_000);
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await expect.poll(() => recorded(sessionId).length, { timeout: 15_000 }).toBe(1);
    expect(await storedKeys(page, { exactly: 'game-campaign.ck_reconnect_asleep' })).toContain('game-campaign.ck_reconnect_asleep.moved'); // in IndexedDB, not memory
    expect(await errors(page)).toEqual([]);
    await page.close();
  });

  it('a session played after the close is sent at once, while the page runs', async () => {
    const page = await newGamePage('ck_reconnect_online', true);
    await playSession(page, 1_500);
    await page.evaluate(() => (window as any).closeDatabases());
    const after = await playSession(page, 2_000);
    await page.evaluate(() => (window as any).gc.tracker.flush());
    await expect.poll(() => recorded(after).length, { timeout: 15_000 }).toBe(1);
    expect(await errors(page)).toEqual([]);
    await page.close();
  });
});
