/**
 * Field conditions: storage that fails (a full phone, storage denied), a sign-in that expires in the middle of
 * a flush, and a game killed in the background. Nothing is lost: what this run cannot store it still sends,
 * and what it can neither store nor send is recovered at the next start.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../core/memory-platform.js';
import type { KeyValueStorage } from '../../core/platform.js';
import { T0, fieldService, flushNow, iso, pass, startGame, useFieldClock } from './field-service.js';

beforeEach(useFieldClock);
afterEach(() => void vi.useRealTimers());

/** A store that refuses every write while `full` (as a browser does over quota); reads and deletes work. */
function fillableStorage(inner: KeyValueStorage = createMemoryStorage()) {
  const state = { full: false, refused: 0 };
  const storage: KeyValueStorage = {
    get: (key) => inner.get(key),
    keys: (prefix) => inner.keys(prefix),
    delete: (key) => inner.delete(key),
    set: (key, value) => {
      if (!state.full) return inner.set(key, value);
      state.refused++;
      return Promise.reject(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    },
  };
  return { storage, state };
}

describe('storage that throws on write', () => {
  it('online: every session is still delivered while the game runs, the failure reported once, nothing thrown', async () => {
    const service = fieldService();
    const { storage, state } = fillableStorage();
    state.full = true;
    const game = startGame(service, storage, 'player-1');
    await pass();
    const ids = [await game.play(3_000), await game.play(20_000), await game.play(4_000)];
    await flushNow(game);
    expect(service.recorded().map((s) => [s.sessionId, s.durationSeconds])).toEqual([[ids[0], 3], [ids[1], 20], [ids[2], 4]]);
    expect(state.refused).toBeGreaterThan(3);
    expect(game.events('error').map((e) => [e.kind, (e.error as DOMException).name])).toEqual([['storage', 'QuotaExceededError']]);
    expect(game.events('dropped')).toEqual([]);
    await game.tracker.dispose();
  });

  it('offline: a session whose queue write failed keeps its running record, so the next start recovers and delivers it', async () => {
    const service = fieldService();
    const { storage, state } = fillableStorage();
    const game = startGame(service, storage, 'player-1', { online: false });
    await pass();
    const sessionId = game.tracker.start();
    await pass(20_000); // checkpointed at 1 s and 15 s, before the device filled up
    state.full = true;
    await game.tracker.stop(); // the queue write fails: held in memory, and offline
    game.platform.crash(); // the app closes

    state.full = false; // the player freed some space
    const next = startGame(service, storage, 'player-1');
    await flushNow(next);
    expect(next.events('session:end').map((e) => [e.sessionId, e.reason])).toEqual([[sessionId, 'recovered']]);
    expect(service.recorded().map((s) => [s.sessionId, s.durationSeconds])).toEqual([[sessionId, 15]]);
    await next.tracker.dispose();
  });

  it('a session held in memory and delivered gives up its running record: the next start recovers nothing, sends nothing twice', async () => {
    const service = fieldService();
    const { storage, state } = fillableStorage();
    const game = startGame(service, storage, 'player-1');
    await pass();
    const sessionId = game.tracker.start();
    await pass(5_000);
    state.full = true;
    await game.tracker.stop();
    await flushNow(game);
    expect(service.recorded().map((s) => s.sessionId)).toEqual([sessionId]);
    expect(await storage.keys('game-campaign:player:player-1:')).toEqual([]);
    await game.tracker.dispose();
    const next = startGame(service, storage, 'player-1');
    await flushNow(next);
    expect(next.log).toEqual([]);
    await next.tracker.dispose();
  });
});

describe('the sign-in expiring in the middle of a flush', () => {
  it('the rest is kept (error auth) and delivered by the next flush with a fresh token, each session once', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    // 1 500 sessions left by an earlier offline run: two batches of at most 1 000.
    const ids = Array.from({ length: 1_500 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const [i, sessionId] of ids.entries()) {
      await storage.set(`game-campaign:player:player-1:queue:${String(i).padStart(12, '0')}:${sessionId}`, {
        sessionId, userId: 'player-1', campaignId: 'cmp_spring_festival', durationSeconds: 60, startedAt: iso(T0 - 3_600_000 + i), endedAt: iso(T0 - 3_540_000 + i),
      });
    }
    const game = startGame(service, storage, 'player-1', { online: false });
    await pass();
    let answered = 0;
    game.tracker.on('flushed', () => void (++answered === 1 && service.expire(game.token))); // expires after the first batch
    game.platform.setOnline(true);
    await flushNow(game);
    expect(service.recorded()).toHaveLength(1_000);
    expect(game.events('error').map((e) => [e.kind, e.status])).toEqual([['auth', 401]]);
    expect(await storage.keys('game-campaign:player:player-1:queue:')).toHaveLength(500);

    game.refreshToken();
    await flushNow(game);
    expect(service.recorded().map((s) => s.sessionId).sort()).toEqual(ids);
    expect(game.events('dropped')).toEqual([]);
    await game.tracker.dispose();
  });
});

describe('the game killed while in the background', () => {
  it('the session is recovered at the next start, ended when it went to the background, and delivered once', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const game = startGame(service, storage, 'player-1');
    await pass();
    const sessionId = game.tracker.start();
    await pass(12_000);
    game.platform.background(); // checkpointed on the way
    await pass(30_000);
    game.platform.crash(); // the system kills the app in the background

    const next = startGame(service, storage, 'player-1');
    await flushNow(next);
    expect(next.events('session:end').map((e) => [e.sessionId, e.reason])).toEqual([[sessionId, 'recovered']]);
    expect(service.recorded().map((s) => [s.sessionId, s.durationSeconds])).toEqual([[sessionId, 12]]);
    await next.tracker.dispose();
  });
});
