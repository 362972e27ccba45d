/**
 * The player's off switch and erasure: recording and sending stop and stay stopped across restarts; erasure
 * deletes everything this player stored on the device, and nothing of another player's.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../core/memory-platform.js';
import { fieldService, flushNow, pass, startGame, useFieldClock } from './field-service.js';

beforeEach(useFieldClock);
afterEach(() => void vi.useRealTimers());

describe('setOptOut', () => {
  it('off: the running session is not recorded, start() records nothing, nothing is sent; the choice survives a restart; on again: recording resumes and the queue is sent', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const game = startGame(service, storage, 'player-1', { online: false });
    await pass();
    const queued = await game.play(4_000); // queued before the switch: kept, unsent
    const running = game.tracker.start();
    await pass(3_000);
    await game.tracker.setOptOut(true);
    expect(game.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([[running, 'opted-out']]);
    expect(game.tracker.start()).toBe('');
    await pass(5_000);
    await game.tracker.stop();
    game.platform.setOnline(true);
    await flushNow(game);
    expect(service.recorded()).toEqual([]);
    await game.tracker.dispose();

    const restarted = startGame(service, storage, 'player-1');
    await flushNow(restarted);
    expect(restarted.tracker.start()).toBe('');
    expect(service.recorded()).toEqual([]);

    await restarted.tracker.setOptOut(false);
    await pass();
    const later = await restarted.play(2_000);
    await flushNow(restarted);
    expect(service.recorded().map((s) => s.sessionId).sort()).toEqual([queued, later].sort());
    await restarted.tracker.dispose();
  });

  it('the optOut option is the default for a player with no stored choice; a stored choice wins over it', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const noConsentYet = startGame(service, storage, 'player-1', { tracker: { optOut: true } });
    await pass();
    expect(noConsentYet.tracker.start()).toBe('');
    await noConsentYet.tracker.setOptOut(false); // the player consented
    await noConsentYet.tracker.dispose();
    const next = startGame(service, storage, 'player-1', { tracker: { optOut: true } });
    await pass();
    const sessionId = next.tracker.start();
    expect(sessionId).not.toBe('');
    await pass(2_000);
    await next.tracker.stop();
    await flushNow(next);
    expect(service.recorded().map((s) => s.sessionId)).toEqual([sessionId]);
    await next.tracker.dispose();
  });

  it('a session started before the stored choice was read (at start-up) is not recorded', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    await storage.set('game-campaign:player:player-1:opt-out', true);
    const game = startGame(service, storage, 'player-1');
    const sessionId = game.tracker.start(); // synchronously after construction: the choice is not loaded yet
    await pass(3_000);
    await game.tracker.stop();
    await flushNow(game);
    expect(game.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([[sessionId, 'opted-out']]);
    expect(service.recorded()).toEqual([]);
    await game.tracker.dispose();
  });
});

describe('two tabs of one player', () => {
  it('a switch this run could not store holds for the run: its own earlier stored choice, read again at flushes and checkpoints, does not undo it', async () => {
    const service = fieldService();
    const memory = createMemoryStorage();
    let full = false;
    const storage = { ...memory, set: (key: string, value: unknown) => (full ? Promise.reject(new Error('disk full')) : memory.set(key, value)) };
    const game = startGame(service, storage, 'player-1');
    await pass();
    await game.tracker.setOptOut(false); // stored
    const running = game.tracker.start();
    await pass(2_000);
    full = true;
    await expect(game.tracker.setOptOut(true)).rejects.toThrow('disk full');
    await pass(60_000); // checkpoints and flushes read the stored choice (false)
    expect(game.tracker.start()).toBe('');
    await pass(5_000);
    await flushNow(game);
    expect(game.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([[running, 'opted-out']]);
    expect(service.recorded()).toEqual([]);
    await game.tracker.dispose();
  });

  it('off in one tab: the other sends nothing, not even what was queued before, and drops its running session at its next checkpoint; on again there: the other records again', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const tabA = startGame(service, storage, 'player-1', { online: false, page: true });
    const tabB = startGame(service, storage, 'player-1', { online: false, page: true });
    await pass();
    const queued = await tabB.play(4_000); // queued before the switch: kept, unsent
    const running = tabB.tracker.start();
    await pass(3_000);
    await tabA.tracker.setOptOut(true);
    tabB.platform.setOnline(true); // the network comes back: tab B flushes
    await pass(1_000);
    expect(service.recorded()).toEqual([]);
    await pass(15_000); // tab B's checkpoint reads the choice
    expect(tabB.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([[running, 'opted-out']]);
    expect(tabB.tracker.start()).toBe('');
    tabB.platform.background(); // the tab is closed: its exit sends nothing
    await pass(30_000);
    await flushNow(tabB);
    expect(service.recorded()).toEqual([]);

    tabB.platform.foreground();
    await tabA.tracker.setOptOut(false);
    await pass(31_000); // tab B's interval flush reads the choice, and sends the queue
    expect(service.recorded().map((s) => s.sessionId)).toEqual([queued]);
    const later = await tabB.play(2_000);
    await flushNow(tabB);
    expect(service.recorded().map((s) => s.sessionId)).toEqual([queued, later]);
    await tabA.tracker.dispose();
    await tabB.tracker.dispose();
  });

  it('a tab shown again after the player switched recording off in another drops the session it continues, and its exit sends nothing', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const tabA = startGame(service, storage, 'player-1', { page: true });
    const tabB = startGame(service, storage, 'player-1', { page: true });
    await pass();
    const first = tabB.tracker.start();
    await pass(5_000);
    tabB.platform.background(); // the player goes to tab A: tab B's session is sent as it is hidden
    await pass(1_000);
    expect(service.recorded().map((s) => s.sessionId)).toEqual([first]);
    await tabA.tracker.setOptOut(true);
    tabB.platform.foreground(); // back to tab B, which continues its session
    await pass(10);
    const continued = tabB.events('session:start').map((s) => s.sessionId)[1];
    expect(tabB.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([[continued, 'opted-out']]);
    await pass(5_000);
    tabB.platform.background();
    await pass(30_000);
    expect(service.recorded().map((s) => s.sessionId)).toEqual([first]);
    await tabA.tracker.dispose();
    await tabB.tracker.dispose();
  });
});

describe('deleteStoredData', () => {
  it('deletes this player\'s queue and running session (dropped, erased), keeps the opt-out choice and other players\' data', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const other = startGame(service, storage, 'player-2', { online: false });
    await pass();
    const othersSession = await other.play(3_000);
    await other.tracker.dispose();

    const game = startGame(service, storage, 'player-1', { online: false });
    await pass();
    const queued = [await game.play(3_000), await game.play(4_000)];
    const running = game.tracker.start();
    await pass(2_000);
    await game.tracker.setOptOut(true);
    await game.tracker.setOptOut(false);
    const runningNow = game.tracker.start();
    await pass(2_000);
    await game.tracker.setOptOut(true);
    await game.tracker.deleteStoredData();
    expect(game.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([
      [running, 'opted-out'],
      [runningNow, 'opted-out'],
      [queued[0], 'erased'],
      [queued[1], 'erased'],
    ]);
    expect(Object.keys((storage as ReturnType<typeof createMemoryStorage>).snapshot('game-campaign:player:player-1:'))).toEqual(['game-campaign:player:player-1:opt-out']);
    await game.tracker.dispose();

    const back = startGame(service, storage, 'player-2');
    await flushNow(back);
    expect(service.recorded().map((s) => s.sessionId)).toEqual([othersSession]);
    await back.tracker.dispose();
  });

  it('erases a session that is running while recording is on', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const game = startGame(service, storage, 'player-1');
    await pass();
    const running = game.tracker.start();
    await pass(4_000);
    await game.tracker.deleteStoredData();
    await flushNow(game);
    expect(game.events('dropped').map((d) => [d.sessionId, d.reason])).toEqual([[running, 'erased']]);
    expect(service.recorded()).toEqual([]);
    expect(await storage.keys('game-campaign:player:player-1:')).toEqual([]);
    await game.tracker.dispose();
  });
});
