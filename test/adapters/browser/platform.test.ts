// @vitest-environment happy-dom
// The browser platform as a whole, in happy-dom with fake-indexeddb: crypto (WebCrypto, and the SHA-256 fallback where
// `subtle` is missing), fetch with keepalive passed through, the background flush split into keepalive bodies
// under the shared 64 KiB quota, and createGameCampaign carrying on in memory when IndexedDB is unavailable.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBrowserPlatform, createGameCampaign, PlaytimeTracker, StorageUnavailableError } from '../../../adapters/browser/index.js';
import type { FetchLike } from '../../../core/platform.js';
import { KEEPALIVE_BODY_LIMIT } from '../../../core/tracker/body-size.js';

const RELAY = { url: 'https://game.example/campaign' };
const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const ABC_SHA256 = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
// Counts the lazy SHA-256 fallback's hashes: a page with crypto.subtle must never use (or load) it.
const fallback = vi.hoisted(() => ({ calls: 0 }));
vi.mock('../../../adapters/shared/sha256.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../adapters/shared/sha256.js')>();
  return { sha256: (data: Uint8Array) => (fallback.calls++, real.sha256(data)) };
});
let dbCount = 0;
const dbName = () => `platform-db-${++dbCount}`;
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** A relay stand-in: answers every batch SUCCESS (401 while `refuse` is set), recording each request. */
function fakeRelay() {
  const state = { refuse: false };
  const calls: Array<{ keepalive: boolean; bytes: number; sessionIds: string[] }> = [];
  let inFlightKeepalive = 0;
  let maxInFlightKeepalive = 0;
  const fetch: FetchLike = async (_input, init) => {
    const body = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
    const bytes = new TextEncoder().encode(String(init?.body)).length;
    const keepalive = init?.keepalive === true;
    calls.push({ keepalive, bytes, sessionIds: body.sessions.map((s) => s.sessionId) });
    if (keepalive) maxInFlightKeepalive = Math.max(maxInFlightKeepalive, (inFlightKeepalive += bytes));
    await new Promise((resolve) => setTimeout(resolve, 1));
    if (keepalive) inFlightKeepalive -= bytes;
    if (state.refuse) return Response.json({ status: 401, error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'no' }, { status: 401 });
    return Response.json({ data: { total: body.sessions.length, successful: body.sessions.length, failed: 0, skipped: 0, results: body.sessions.map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' })) } });
  };
  return { fetch, calls, state, maxInFlight: () => maxInFlightKeepalive };
}

describe('createBrowserPlatform: crypto', () => {
  it('gives secure random bytes of any length and SHA-256 from crypto.subtle', async () => {
    const platform = createBrowserPlatform({ dbName: dbName() });
    const bytes = await platform.crypto.randomBytes(100_000); // past getRandomValues' 65 536-byte limit
    expect(bytes).toHaveLength(100_000);
    expect(new Set(bytes.subarray(70_000, 70_100)).size).toBeGreaterThan(1);
    expect(hex(await platform.crypto.sha256(new TextEncoder().encode('abc')))).toBe(ABC_SHA256);
    expect(fallback.calls).toBe(0);
  });

  it("a session started in the tracker's first tick takes its id from crypto.getRandomValues, not Math.random (Safari seeds it with 32 bits)", () => {
    // JavaScriptCore seeds each global object's Math.random with 32 bits (JSGlobalObject's m_weakRandom), so ids drawn
    // from it at start-up would repeat across a game's players on Safari and iOS web views, and repeats are SKIPPED.
    const fixed = { getRandomValues: <T extends ArrayBufferView | null>(array: T) => ((array as unknown as Uint8Array).fill(0x3c), array), subtle: globalThis.crypto.subtle } as unknown as Crypto;
    const random = vi.spyOn(Math, 'random');
    const platform = createBrowserPlatform({ dbName: dbName(), window: Object.defineProperty(Object.create(window), 'crypto', { value: fixed }) });
    const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: RELAY });
    expect(tracker.start()).toBe('3c3c3c3c-3c3c-4c3c-bc3c-3c3c3c3c3c3c');
    expect(random).not.toHaveBeenCalled();
    void tracker.dispose();
  });

  it('falls back to the lazily loaded SHA-256 where crypto.subtle is missing (an insecure origin)', async () => {
    const insecure = { getRandomValues: (array: Uint8Array<ArrayBuffer>) => globalThis.crypto.getRandomValues(array) } as unknown as Crypto;
    const platform = createBrowserPlatform({ dbName: dbName(), window: Object.defineProperty(Object.create(window), 'crypto', { value: insecure }) });
    const before = fallback.calls;
    expect(hex(await platform.crypto.sha256(new TextEncoder().encode('abc')))).toBe(ABC_SHA256);
    expect(fallback.calls).toBe(before + 1);
    expect(await platform.crypto.randomBytes(16)).toHaveLength(16);
  });
});

describe('createBrowserPlatform: fetch, clocks', () => {
  it("calls the page's fetch on its window with keepalive passed through", async () => {
    const seen: Array<RequestInit | undefined> = [];
    const pageFetch = vi.fn(function (this: unknown, _input: string | Request, init?: RequestInit) {
      seen.push(init);
      return Promise.resolve(new Response('ok'));
    });
    vi.stubGlobal('fetch', pageFetch);
    const platform = createBrowserPlatform({ dbName: dbName(), window: globalThis as Window & typeof globalThis });
    await platform.fetch('https://game.example/x', { method: 'POST', body: '{}', keepalive: true });
    expect(seen[0]).toMatchObject({ method: 'POST', body: '{}', keepalive: true });
    const t0 = platform.monotonic();
    expect(platform.monotonic()).toBeGreaterThanOrEqual(t0);
    expect(Math.abs(platform.now() - Date.now())).toBeLessThan(1_000);
  });
});

describe('background flush on the browser platform', () => {
  it('goes out as keepalive bodies each under 64 KiB, never more than 64 KiB in flight, every session once', async () => {
    const name = dbName();
    const platform = createBrowserPlatform({ dbName: name });
    // 300 finished sessions left queued by an earlier visit (~190 KB as JSON).
    const ids = Array.from({ length: 300 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
    for (const [i, sessionId] of ids.entries()) {
      await platform.storage.set(`game-campaign:player:player-1:queue:${String(i).padStart(12, '0')}:${sessionId}`, {
        sessionId,
        userId: 'player-1',
        durationSeconds: 60,
        startedAt: '2025-01-01T11:58:00.000Z',
        endedAt: '2025-01-01T11:59:00.000Z',
        metadata: { level: 'x'.repeat(500) },
      });
    }
    const relay = fakeRelay();
    relay.state.refuse = true; // the start-up flush is refused: everything stays queued
    const tracker = new PlaytimeTracker({ platform: { ...platform, fetch: createBrowserPlatform({ dbName: name, fetch: relay.fetch }).fetch }, userId: 'player-1', relay: RELAY });
    const errors: unknown[] = [];
    tracker.on('error', (event) => void errors.push(event.kind));
    await vi.waitFor(() => expect(errors).toContain('auth'));
    await tracker.flush(); // joins the start-up flush (or is refused in turn): no flush runs after this
    const refused = relay.calls.length;
    relay.state.refuse = false;

    window.dispatchEvent(new Event('pagehide'));
    await tracker.flush();
    const background = relay.calls.slice(refused);
    expect(background.length).toBeGreaterThanOrEqual(3);
    expect(background.every((call) => call.keepalive && call.bytes < KEEPALIVE_BODY_LIMIT)).toBe(true);
    expect(relay.maxInFlight()).toBeLessThan(KEEPALIVE_BODY_LIMIT);
    // The page's exit request goes first, the newest sessions the start-up flush read (a body's worth, newest first),
    // then the background flush the rest, oldest first: each session once.
    const sent = background.flatMap((call) => call.sessionIds);
    expect(background[0]!.sessionIds[0]).toBe(ids[ids.length - 1]);
    expect([...sent].sort()).toEqual(ids);
    expect(await platform.storage.keys('game-campaign:player:player-1:queue:')).toEqual([]);
    await tracker.dispose();
  });
});

describe('createGameCampaign (browser)', () => {
  it('when IndexedDB is unavailable: one StorageUnavailableError to onError, and play time still reaches the relay', async () => {
    vi.stubGlobal('indexedDB', undefined);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date', 'performance'] });
    const relay = fakeRelay();
    const onError = vi.fn();
    const gc = createGameCampaign({ clientKey: 'ck_test:secret', relay: RELAY, userId: 'player-1', browser: { fetch: relay.fetch, onError, window: globalThis as Window & typeof globalThis } });
    const sessionId = gc.tracker.start();
    await vi.advanceTimersByTimeAsync(5_000);
    await gc.tracker.stop();
    const flushed = gc.tracker.flush();
    await vi.advanceTimersByTimeAsync(10);
    await flushed;
    expect(onError).toHaveBeenCalledTimes(1);
    expect(onError.mock.calls[0]![0]).toBeInstanceOf(StorageUnavailableError);
    expect(relay.calls.flatMap((call) => call.sessionIds)).toEqual([sessionId]);
    await gc.dispose();
  });
});
