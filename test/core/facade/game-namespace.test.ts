/**
 * The game's storage namespace, below the adapters: the key id a Client key gives, a malformed key refused before
 * anything is stored, and a move of the shared namespace that fails reported once (`error`, kind `storage`) and
 * finished at the next start, nothing lost. The stories on every platform: test/adapters/game-storage-contract.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameCampaign } from '../../../core/game-campaign.js';
import { createMemoryPlatform, createMemoryStorage } from '../../../core/memory-platform.js';
import type { KeyValueStorage } from '../../../core/platform.js';
import { gameStorageKey } from '../../../core/tracker/game-namespace.js';

afterEach(() => void vi.useRealTimers());
const options = { clientKey: 'ck_live_42:secret', relay: { url: 'http://game.local/campaign' }, userId: 'player-1' };
const queued = { sessionId: '00000000-0000-4000-8000-000000000001', userId: 'player-1', startedAt: '2026-11-26T08:00:00.000Z', endedAt: '2026-11-26T08:00:05.000Z', durationSeconds: 5 };
const SHARED_KEY = 'game-campaign:player:player-1:queue:000000000000:00000000-0000-4000-8000-000000000001';

describe('gameStorageKey', () => {
  it("is game-campaign.<the Client key's id>; a malformed key is refused", () => {
    expect(gameStorageKey('ck_live_42:secret:with:colons')).toBe('game-campaign.ck_live_42');
    expect(gameStorageKey('ck_sandbox_42:secret')).toBe('game-campaign.ck_sandbox_42');
    expect(() => gameStorageKey('no-secret')).toThrow(TypeError);
    expect(() => createGameCampaign({ ...options, clientKey: ':secret', platform: createMemoryPlatform() })).toThrow(TypeError);
  });
});

describe('a move that fails', () => {
  it('is reported once as a storage error, loses nothing, and is finished at the next start', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const disk = createMemoryStorage();
    await disk.set(SHARED_KEY, queued);
    let unreadable = true;
    const storage: KeyValueStorage = { ...disk, keys: async (prefix) => (unreadable && prefix === 'game-campaign:' ? Promise.reject(new Error('shared store unreadable')) : disk.keys(prefix)) };
    const sent: string[] = [];
    const fetch = async (_input: string | Request, init?: RequestInit) => {
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      sent.push(...sessions.map((s) => s.sessionId));
      return Response.json({ data: { total: sessions.length, successful: sessions.length, failed: 0, skipped: 0, results: sessions.map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' })) } });
    };
    const first = createGameCampaign({ ...options, platform: createMemoryPlatform({ storage, fetch }) });
    const errors: Array<{ kind: string; error: unknown }> = [];
    first.tracker.on('error', (event) => errors.push(event));
    await vi.advanceTimersByTimeAsync(1_000);
    await first.tracker.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: 'storage' });
    expect(String(errors[0]!.error)).toMatch(/shared store unreadable/);
    expect(sent).toEqual([]);
    expect(await disk.get(SHARED_KEY)).toEqual(queued); // still there
    await first.dispose();

    unreadable = false;
    const second = createGameCampaign({ ...options, platform: createMemoryPlatform({ storage, fetch }) });
    await vi.advanceTimersByTimeAsync(1_000);
    await second.tracker.flush();
    expect(sent).toEqual([queued.sessionId]);
    expect(Object.keys(disk.snapshot())).toEqual(['game-campaign.ck_live_42.moved']);
    await second.dispose();
  });
});

describe('a move whose lock cannot be taken', () => {
  it('(the <script> bundle without its lease-lock sibling) is never reported as storage: the tracker reports its lock, the game sends its own sessions, and the shared data is moved at the next start that can take the lock', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const disk = createMemoryStorage();
    await disk.set(SHARED_KEY, queued);
    const sent: string[] = [];
    const fetch = async (_input: string | Request, init?: RequestInit) => {
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      sent.push(...sessions.map((s) => s.sessionId));
      return Response.json({ data: { total: sessions.length, successful: sessions.length, failed: 0, skipped: 0, results: sessions.map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' })) } });
    };
    // As adapters/browser/sibling-script.ts rejects every lock while game-campaign.lease-lock.js cannot load.
    const missing = new Error('game-campaign.lease-lock.js did not load from https://cdn.example/game/game-campaign.lease-lock.js (global GameCampaignLeaseLock)');
    const platform = createMemoryPlatform({ storage: disk, fetch });
    const first = createGameCampaign({ ...options, platform: Object.assign(Object.create(platform) as typeof platform, { lock: () => Promise.reject(missing) }) });
    const errors: Array<{ kind: string; error: unknown }> = [];
    first.tracker.on('error', (event) => errors.push(event));
    await vi.advanceTimersByTimeAsync(1_000);
    await first.tracker.flush();
    expect(errors.map((event) => event.kind)).not.toContain('storage');
    expect(errors.length).toBeGreaterThan(0);
    for (const event of errors) expect(event).toEqual({ kind: 'lock', error: missing });
    expect(await disk.get(SHARED_KEY)).toEqual(queued); // not moved, not lost
    expect(await disk.get('game-campaign.ck_live_42.moved')).toBeUndefined();
    await first.dispose();

    const second = createGameCampaign({ ...options, platform: createMemoryPlatform({ storage: disk, fetch }) });
    await vi.advanceTimersByTimeAsync(1_000);
    await second.tracker.flush();
    expect(sent).toEqual([queued.sessionId]);
    expect(Object.keys(disk.snapshot())).toEqual(['game-campaign.ck_live_42.moved']);
    await second.dispose();
  });
});
