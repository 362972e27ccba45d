/**
 * Field conditions: one device, several players (a shared tablet, a family console, a guest who signs in).
 * Each player's sessions are sent only by a tracker of that player, with that player's credentials; another
 * player's wait on the device, and expire after the relay's maximum session age.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../core/memory-platform.js';
import { DAY, T0, closedFor, fieldService, flushNow, iso, pass, startGame, useFieldClock } from './field-service.js';

beforeEach(useFieldClock);
afterEach(() => void vi.useRealTimers());

describe('two players on one device', () => {
  it('A plays offline and leaves; B plays online: B sends only its own; A back later: A\'s sessions recorded for A, nothing dropped', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const a = startGame(service, storage, 'player-a', { online: false });
    await pass();
    const a1 = await a.play(4_000);
    const a2 = await a.play(6_000);
    await a.tracker.dispose();

    const b = startGame(service, storage, 'player-b');
    await pass();
    const b1 = await b.play(3_000);
    await flushNow(b);
    expect(service.recorded().map((s) => [s.sessionId, s.userId])).toEqual([[b1, 'player-b']]);
    expect(b.events('dropped')).toEqual([]);
    await b.tracker.dispose();

    const aBack = startGame(service, storage, 'player-a');
    await flushNow(aBack);
    expect(service.recorded('player-a').map((s) => [s.sessionId, s.durationSeconds])).toEqual([[a1, 4], [a2, 6]]);
    expect(aBack.events('dropped')).toEqual([]);
    await aBack.tracker.dispose();
  });

  it('A crashes while playing, then B starts: B does not recover A\'s session; A\'s next start recovers it for A', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const a = startGame(service, storage, 'player-a', { online: false });
    await pass();
    const a1 = a.tracker.start();
    await pass(20_000); // checkpointed at 1 s and 15 s
    a.platform.crash();

    const b = startGame(service, storage, 'player-b');
    await flushNow(b);
    expect(b.events('session:end')).toEqual([]);
    expect(service.recorded()).toEqual([]);
    await b.tracker.dispose();

    const aBack = startGame(service, storage, 'player-a');
    await flushNow(aBack);
    expect(aBack.events('session:end').map((e) => [e.sessionId, e.reason])).toEqual([[a1, 'recovered']]);
    expect(service.recorded().map((s) => [s.sessionId, s.userId, s.durationSeconds])).toEqual([[a1, 'player-a', 15]]);
    await aBack.tracker.dispose();
  });

  it('guest then account: nothing is sent under the account; a tracker for the guest id with the guest\'s credentials delivers the guest\'s play', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const guest = startGame(service, storage, 'guest-7f3a', { online: false });
    await pass();
    const played = await guest.play(9_000);
    await guest.tracker.dispose();

    const account = startGame(service, storage, 'player-9');
    await pass();
    await account.play(2_000);
    await flushNow(account);
    expect(service.recorded().map((s) => s.userId)).toEqual(['player-9']);
    expect(account.events('dropped')).toEqual([]);

    // The game still holds the guest's sign-in: one run of a tracker for the guest sends what the guest played.
    const guestAgain = startGame(service, storage, 'guest-7f3a');
    await flushNow(guestAgain);
    expect(service.recorded('guest-7f3a').map((s) => [s.sessionId, s.durationSeconds])).toEqual([[played, 9]]);
    await Promise.all([guestAgain.tracker.dispose(), account.tracker.dispose()]);
  });

  it('A signs out and B signs in while A\'s tracker still runs: A\'s sessions sent with B\'s credentials stay queued (error auth), none dropped; A\'s next run delivers them to A', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const a = startGame(service, storage, 'player-a', { online: false });
    await pass();
    const a1 = await a.play(20 * 60_000);
    a.token = service.signIn('player-b'); // the game's one sign-in is B's now; A's tracker is not disposed yet
    a.platform.setOnline(true); // its flush goes out with B's credentials
    await pass(1_000);
    await flushNow(a);
    expect(service.recorded()).toEqual([]);
    expect(a.events('dropped')).toEqual([]);
    // Reported at each flush, as a 401 is (the network's return and the manual flush).
    expect(a.events('error').map((e) => [e.kind, (e.error as Error).message])).toEqual(Array(2).fill(['auth', expect.stringContaining('userId does not match')]));
    await a.tracker.dispose();

    const aBack = startGame(service, storage, 'player-a');
    await flushNow(aBack);
    expect(service.recorded().map((s) => [s.sessionId, s.userId, s.durationSeconds])).toEqual([[a1, 'player-a', 1200]]);
    await aBack.tracker.dispose();
  });

  it('another player\'s sessions older than the relay\'s maximum age expire: dropped (expired) by the tracker that notices; younger ones stay', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const a = startGame(service, storage, 'player-a', { online: false });
    await pass();
    const old = await a.play(4_000);
    a.platform.crash(); // the running record path too: a session A was playing when the game died
    closedFor(20 * DAY);
    const a2 = startGame(service, storage, 'player-a', { online: false });
    await pass();
    const young = await a2.play(5_000);
    const crashed = a2.tracker.start();
    await pass(2_000);
    a2.platform.crash();
    closedFor(11 * DAY); // `old` is 31 days old now; `young` and `crashed` 11

    const b = startGame(service, storage, 'player-b');
    await flushNow(b);
    expect(b.events('dropped').map((d) => [d.sessionId, d.reason, d.session?.userId])).toEqual([[old, 'expired', 'player-a']]);
    await b.tracker.dispose();

    closedFor(20 * DAY); // `crashed` and `young` are 31 days old too
    const c = startGame(service, storage, 'player-c');
    await flushNow(c);
    expect(c.events('dropped').map((d) => [d.sessionId, d.reason]).sort()).toEqual([[crashed, 'expired'], [young, 'expired']].sort());
    expect(await storage.keys('game-campaign:player:player-a:')).toEqual([]);
    expect(service.recorded()).toEqual([]);
    await c.tracker.dispose();
  });
});

describe('storage written by SDK 0.1.0 (one shared queue)', () => {
  it('is moved to each session\'s player on first start: each player\'s tracker sends its own, nothing lost', async () => {
    const service = fieldService();
    const storage = createMemoryStorage();
    const queued = (sessionId: string, userId: string, minutesAgo: number) => ({ sessionId, userId, campaignId: 'cmp_spring_festival', durationSeconds: 60, startedAt: iso(T0 - minutesAgo * 60_000), endedAt: iso(T0 - (minutesAgo - 1) * 60_000) });
    await storage.set('game-campaign:queue:000000000000:00000000-0000-4000-8000-00000000000a', queued('00000000-0000-4000-8000-00000000000a', 'player-a', 30));
    await storage.set('game-campaign:queue:000000000001:00000000-0000-4000-8000-00000000000b', queued('00000000-0000-4000-8000-00000000000b', 'player-b', 20));
    await storage.set('game-campaign:running:00000000-0000-4000-8000-00000000000c', {
      sessionId: '00000000-0000-4000-8000-00000000000c', userId: 'player-a', campaignId: 'cmp_spring_festival', owner: 'an-old-run', startedAtMs: T0 - 10 * 60_000, spanMs: 120_000, playedMs: 120_000,
    });

    const a = startGame(service, storage, 'player-a');
    await flushNow(a);
    expect(service.recorded().map((s) => [s.sessionId, s.userId]).sort()).toEqual([
      ['00000000-0000-4000-8000-00000000000a', 'player-a'],
      ['00000000-0000-4000-8000-00000000000c', 'player-a'],
    ]);
    expect(await storage.keys('game-campaign:queue:')).toEqual([]);
    expect(await storage.keys('game-campaign:running:')).toEqual([]);
    await a.tracker.dispose();

    const b = startGame(service, storage, 'player-b');
    await flushNow(b);
    expect(service.recorded('player-b').map((s) => s.sessionId)).toEqual(['00000000-0000-4000-8000-00000000000b']);
    expect(a.events('dropped')).toEqual([]);
    expect(b.events('dropped')).toEqual([]);
    await b.tracker.dispose();
  });
});
