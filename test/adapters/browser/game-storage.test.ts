// @vitest-environment happy-dom
// Storage belongs to the game, in the browser (fake-indexeddb, one fresh origin per test): the release before kept
// every game's data in the database `game-campaign`; the browser's createGameCampaign keeps a game's in a database
// of its own, `game-campaign.<CLIENT_KEY_ID>`, and moves the shared one's in once, at first start, under a lock
// every game on the origin takes; a crash at any write of the move loses nothing and sends nothing twice; two games
// on one origin keep apart; an explicit storageKey (or dbName) keeps its layout; a first start creates no shared
// database.
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrowserPlatform, createGameCampaign, createIdbStorage } from '../../../adapters/browser/index.js';
import { createGameCampaign as createCoreGameCampaign } from '../../../core/game-campaign.js';
import type { FetchLike } from '../../../core/platform.js';
import { mortal } from '../game-storage-contract.js';

const USER = 'player-1';
const GAME_A = { clientKey: 'ck_game_a:secret-a', relay: 'https://game-a.example/campaign' };
const GAME_B = { clientKey: 'ck_game_b:secret-b', relay: 'https://game-b.example/campaign' };

/** The games' relays: every session each received (host, id, duration); answers SUCCESS, or fails offline. */
function relays() {
  const state = { online: true };
  const received: Array<{ host: string; sessionId: string; durationSeconds: number }> = [];
  const fetch: FetchLike = async (input, init) => {
    if (!state.online) throw new TypeError('Failed to fetch');
    const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string; durationSeconds: number }> };
    received.push(...sessions.map(({ sessionId, durationSeconds }) => ({ host: new URL(String(input)).host, sessionId, durationSeconds })));
    return Response.json({ data: { total: sessions.length, successful: sessions.length, failed: 0, skipped: 0, results: sessions.map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' })) } });
  };
  return { fetch, received, state };
}

/** Moves the fake clock by `ms` in steps, letting IndexedDB's (real, setImmediate) tasks run after each. */
async function play(ms: number): Promise<void> {
  for (let elapsed = 0; elapsed < ms; elapsed += 100) {
    await vi.advanceTimersByTimeAsync(Math.min(100, ms - elapsed));
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
  }
}

const databases = async () => (await indexedDB.databases()).map((db) => db.name).sort();
const game = (which: typeof GAME_A, fetch: FetchLike, extra: { tracker?: { storageKey: string }; dbName?: string } = {}) =>
  createGameCampaign({ clientKey: which.clientKey, relay: { url: which.relay }, userId: USER, ...(extra.tracker ? { tracker: extra.tracker } : {}), browser: { fetch, ...(extra.dbName ? { dbName: extra.dbName } : {}) } });

/** The release before: one session queued offline (4 s), one running when the tab died (20 s in, checkpoint at 15 s). */
async function previousRelease(fetch: FetchLike, state: { online: boolean }) {
  state.online = false;
  const tab = mortal(createBrowserPlatform({ dbName: 'game-campaign', fetch }));
  const gc = createCoreGameCampaign({ platform: tab.platform, clientKey: GAME_A.clientKey, relay: { url: GAME_A.relay }, userId: USER, tracker: { storageKey: 'game-campaign' } });
  await play(100);
  const queued = gc.tracker.start();
  await play(4_000);
  await gc.tracker.stop();
  const running = gc.tracker.start();
  await play(20_000);
  tab.kill();
  await gc.dispose().catch(() => undefined);
  state.online = true;
  expect(await createIdbStorage({ dbName: 'game-campaign' }).keys('game-campaign:')).toHaveLength(2);
  return { queued, running };
}

/** A start of the game until its start-up flush is answered. */
async function startAndFlush(which: typeof GAME_A, fetch: FetchLike, extra?: Parameters<typeof game>[2], startupMs = 2_000) {
  const gc = game(which, fetch, extra);
  await play(startupMs);
  const flushed = gc.tracker.flush();
  await play(500);
  await flushed;
  return gc;
}

beforeEach(() => {
  vi.stubGlobal('indexedDB', new IDBFactory()); // a fresh origin
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe("the browser's createGameCampaign: a database per game", () => {
  it('moves the shared database into the game\'s own once; both sessions delivered once, through its relay', async () => {
    const { fetch, received, state } = relays();
    const { queued, running } = await previousRelease(fetch, state);

    const gc = await startAndFlush(GAME_A, fetch);
    expect(received.sort((a, b) => a.durationSeconds - b.durationSeconds)).toEqual([
      { host: 'game-a.example', sessionId: queued, durationSeconds: 4 },
      { host: 'game-a.example', sessionId: running, durationSeconds: 15 },
    ]);
    expect(await createIdbStorage({ dbName: 'game-campaign' }).keys('game-campaign:')).toEqual([]);
    const own = createIdbStorage({ dbName: 'game-campaign.ck_game_a' });
    expect(await own.get('game-campaign.ck_game_a.moved')).toBe(true);
    const id = gc.tracker.start();
    await play(1_500);
    expect(await own.keys('game-campaign.ck_game_a:')).toEqual([`game-campaign.ck_game_a:player:${USER}:running:${id}`]);
    await gc.dispose();

    const again = await startAndFlush(GAME_A, fetch);
    expect(received.map((r) => r.sessionId).sort()).toEqual([queued, running, id].sort()); // nothing sent twice
    await again.dispose();
  });

  it('a first start on an origin creates no shared database, only its own; later starts do not even look', async () => {
    const { fetch } = relays();
    const gc = await startAndFlush(GAME_A, fetch);
    expect(await databases()).toEqual(['game-campaign.ck_game_a']);
    await gc.dispose();
    const open = vi.spyOn(indexedDB, 'open');
    const again = await startAndFlush(GAME_A, fetch);
    expect(open.mock.calls.map(([name]) => name)).not.toContain('game-campaign'); // its marker says it moved
    await again.dispose();
  });

  it('a crash at any write of the move (across the two databases) loses nothing and sends nothing twice', async () => {
    const put = IDBObjectStore.prototype.put;
    const remove = IDBObjectStore.prototype.delete;
    for (let writes = 0; writes <= 8; writes++) {
      vi.stubGlobal('indexedDB', new IDBFactory());
      const { fetch, received, state } = relays();
      const { queued, running } = await previousRelease(fetch, state);
      let left = writes;
      const dying = <F extends (...args: never[]) => IDBRequest>(original: F) =>
        function (this: IDBObjectStore, ...args: Parameters<F>) {
          if (left-- <= 0) throw new Error('the tab died');
          return original.apply(this, args);
        };
      vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(dying(put));
      vi.spyOn(IDBObjectStore.prototype, 'delete').mockImplementation(dying(remove));
      state.online = false;
      const crashed = game(GAME_A, fetch);
      await play(2_000);
      left = -Infinity; // the tab is gone: nothing it tries later lands
      await crashed.dispose().catch(() => undefined);
      vi.restoreAllMocks();
      state.online = true;

      // A lease the dead tab held (pages without Web Locks) expires within 10 s: the move waits for it.
      const gc = await startAndFlush(GAME_A, fetch, undefined, 12_000);
      expect({ writes, sent: received.map((r) => `${r.sessionId}:${r.durationSeconds}`).sort() }).toEqual({ writes, sent: [`${queued}:4`, `${running}:15`].sort() });
      expect(await createIdbStorage({ dbName: 'game-campaign' }).keys('game-campaign:')).toEqual([]);
      expect(await createIdbStorage({ dbName: 'game-campaign.ck_game_a' }).get('game-campaign.ck_game_a.moved')).toBe(true);
      await gc.dispose();
    }
  });

  it("two games on one origin: the first takes the shared data; each keeps its own database and never sends or recovers the other's", async () => {
    const { fetch, received, state } = relays();
    const shared = await previousRelease(fetch, state);
    const a = await startAndFlush(GAME_A, fetch);
    await a.dispose();

    const b = await startAndFlush(GAME_B, fetch);
    const bSession = b.tracker.start();
    await play(3_000);
    await b.tracker.stop();
    expect(await createIdbStorage({ dbName: 'game-campaign.ck_game_a' }).keys(`game-campaign.ck_game_a:`)).toEqual([]); // nothing of B's in A's
    const flushed = b.tracker.flush();
    await play(500);
    await flushed;
    expect(await createIdbStorage({ dbName: 'game-campaign.ck_game_b' }).keys('game-campaign')).toEqual(['game-campaign.ck_game_b.moved']); // sent
    await b.dispose();

    expect(received.filter((r) => r.host === 'game-a.example').map((r) => r.sessionId).sort()).toEqual([shared.queued, shared.running].sort());
    expect(received.filter((r) => r.host === 'game-b.example').map((r) => r.sessionId)).toEqual([bSession]);
    expect(await databases()).toEqual(['game-campaign', 'game-campaign.ck_game_a', 'game-campaign.ck_game_b']);
  });

  it('an explicit storageKey keeps the database and keys it had; an explicit dbName keeps its database and moves within it', async () => {
    const { fetch, received, state } = relays();
    const shared = await previousRelease(fetch, state);
    // storageKey 'game-campaign': the release before's layout itself, in its database.
    const legacy = await startAndFlush(GAME_A, fetch, { tracker: { storageKey: 'game-campaign' } });
    expect(received.map((r) => r.sessionId).sort()).toEqual([shared.queued, shared.running].sort());
    await legacy.dispose();
    expect(await databases()).toEqual(['game-campaign']);

    // dbName 'my-db': that database, the game's namespace for its keys.
    const named = game(GAME_B, fetch, { dbName: 'my-db' });
    await play(500);
    const id = named.tracker.start();
    await play(1_500);
    expect(await createIdbStorage({ dbName: 'my-db' }).keys('game-campaign')).toEqual(['game-campaign.ck_game_b.moved', `game-campaign.ck_game_b:player:${USER}:running:${id}`]);
    await named.dispose();
    expect(await databases()).toEqual(['game-campaign', 'my-db']);
  });
});
