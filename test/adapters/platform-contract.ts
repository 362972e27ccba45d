/**
 * The one contract every {@link Platform} keeps, run against each adapter on a faithful fake of its runtime
 * (test/adapters/platforms.test.ts). Adding a platform is one line there: `describePlatformContract(name, makeDevice)`.
 * It checks storage (round trip, prefix listing, a restart on the same device), lifecycle events, random
 * bytes and SHA-256 against known vectors, fetch semantics, and one tracker story against the emulator:
 * play, background, offline, stop, crash, restart on the same storage, recovery, flush, and each session
 * recorded exactly once; and the game's own storage namespace (./game-storage-contract.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameCampaign } from '../../core/game-campaign.js';
import type { FetchLike, KeyValueStorage, Lifecycle, Platform } from '../../core/platform.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { createEmulator, DEMO_ACTIVE_CAMPAIGN_ID, type Emulator } from '../../emulator/index.js';
import { contractGameDevice, describeGameStorageContract } from './game-storage-contract.js';

/** The in-process service side: what a request from the game reaches. */
export type ServerHandler = (request: Request) => Promise<Response>;

/** One start of the game on a device. */
export interface ContractRun {
  platform: Platform;
  /** The host says the game went to the background / came back (engine event, AppState, ...). */
  background(): void;
  foreground(): void;
  /** Connectivity: the platform's network signal (if it has one) says so, and requests fail while offline. */
  setOnline(online: boolean): void;
}

/** A simulated device: its storage persists across {@link ContractDevice.start}s. */
export interface ContractDevice {
  /** A process start: a new platform on this device's storage, its requests answered by `server`. */
  start(server: ServerHandler): ContractRun;
}

export const RELAY_URL = 'http://game.local/campaign';
export const API_URL = 'http://emulator.local';
export const USER = 'player-1';
export const TOKEN = 'Bearer player-1-token';

/** The emulator behind a relay, in-process. */
export function startService(): { emu: Emulator; handler: ServerHandler } {
  const emu = createEmulator();
  // The game server runs elsewhere with Node's own AbortController; in this one process the global may be the
  // Cocos stand-in, which Node's Request refuses, so the server side sends without a signal.
  const serverFetch: FetchLike = (input, init) => emu.fetch(input, { ...init, signal: undefined });
  const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: API_URL }, fetch: serverFetch, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => (request.headers.get('authorization') === TOKEN ? { userId: USER } : null) });
  return { emu, handler: (request) => (request.url.startsWith(RELAY_URL) ? relay.fetch(request) : emu.fetch(request)) };
}

/** A platform that "dies" on `kill()`: storage and fetch reject, lifecycle events stop (the process crashed). */
export function killable(platform: Platform): { platform: Platform; kill(): void } {
  let dead = false;
  const guard = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => (...args: A): Promise<R> => (dead ? Promise.reject(new Error('process died')) : call(...args));
  const storage: KeyValueStorage = {
    get: guard((key) => platform.storage.get(key)),
    set: guard((key, value) => platform.storage.set(key, value)),
    delete: guard((key) => platform.storage.delete(key)),
    keys: guard((prefix) => platform.storage.keys(prefix)),
  };
  const alive = (subscribe: (listener: () => void) => () => void) => (listener: () => void) => subscribe(() => dead || listener());
  const lifecycle: Lifecycle = { onBackground: alive((l) => platform.lifecycle.onBackground(l)), onForeground: alive((l) => platform.lifecycle.onForeground(l)) };
  const { lock: _lock, ...rest } = platform;
  return { platform: { ...rest, storage, lifecycle, fetch: guard((input, init) => platform.fetch(input, init)) }, kill: () => (dead = true) };
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
const utf8 = (text: string) => new TextEncoder().encode(text);
const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] };

/** Runs the platform contract against the devices `makeDevice` creates. */
export function describePlatformContract(name: string, makeDevice: () => ContractDevice): void {
  describe(`platform contract: ${name}`, () => {
    let emulator: Emulator | undefined;
    afterEach(async () => {
      vi.useRealTimers();
      vi.unstubAllGlobals();
      await emulator?.close();
      emulator = undefined;
    });
    const echo: ServerHandler = async () => new Response('{}');

    it('storage: JSON values round trip; missing keys read undefined; delete removes', async () => {
      const { storage } = makeDevice().start(echo).platform;
      const value = { text: 'héllo ✓', n: 42.5, list: [1, null, true], nested: { empty: '' } };
      await storage.set('gc:a', value);
      await storage.set('gc:s', '');
      await storage.set('gc:zero', 0);
      expect(await storage.get('gc:a')).toEqual(value);
      expect(await storage.get('gc:s')).toBe('');
      expect(await storage.get('gc:zero')).toBe(0);
      expect(await storage.get('gc:missing')).toBeUndefined();
      await storage.delete('gc:a');
      expect(await storage.get('gc:a')).toBeUndefined();
      await expect(storage.set('gc:bad', undefined)).rejects.toThrow(TypeError);
    });

    it('storage: keys(prefix) lists only that prefix, in key order, and survives a restart', async () => {
      const device = makeDevice();
      const first = device.start(echo).platform.storage;
      for (const key of ['q:2', 'other:1', 'q:10', 'q:1', 'qq:1']) await first.set(key, key);
      const second = device.start(echo).platform.storage;
      expect(await second.keys('q:')).toEqual(['q:1', 'q:10', 'q:2']);
      expect(await second.keys()).toEqual(expect.arrayContaining(['other:1', 'q:1', 'q:10', 'q:2', 'qq:1']));
      expect(await second.get('q:10')).toBe('q:10');
    });

    it('lifecycle: each change reaches each listener once (a page also hears each later report of its being hidden); unsubscribed listeners hear nothing', () => {
      const run = makeDevice().start(echo);
      const heard: string[] = [];
      const offBackground = run.platform.lifecycle.onBackground(() => heard.push('background'));
      const offForeground = run.platform.lifecycle.onForeground(() => heard.push('foreground'));
      run.background();
      run.background();
      run.foreground();
      offBackground();
      offForeground();
      run.background();
      run.foreground();
      // A page (pageExit) is told each later report of a hidden page too: any may be its last (adapters/browser/lifecycle.ts).
      const changes = run.platform.lifecycle.pageExit ? heard.filter((change, index) => change !== heard[index - 1]) : heard;
      expect(changes).toEqual(['background', 'foreground']);
    });

    it('crypto: SHA-256 matches the FIPS 180-2 vectors; random bytes have the asked length and differ', async () => {
      const { crypto } = makeDevice().start(echo).platform;
      expect(hex(await crypto.sha256(utf8('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      expect(hex(await crypto.sha256(utf8('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(hex(await crypto.sha256(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
      const [a, b, big] = await Promise.all([crypto.randomBytes(32), crypto.randomBytes(32), crypto.randomBytes(70_000)]);
      expect([a.length, b.length, big.length]).toEqual([32, 32, 70_000]);
      expect(hex(a)).not.toBe(hex(b));
      expect(new Set(big).size).toBeGreaterThan(200); // not a constant fill
    });

    it('fetch: method, body, headers and status go both ways; an error status resolves; offline and abort reject', async () => {
      const seen: Array<{ method: string; url: string; contentType: string | null; custom: string | null; body: string }> = [];
      const server: ServerHandler = async (request) => {
        if (request.url.endsWith('/hang')) {
          return new Promise<Response>((_, reject) => request.signal.addEventListener('abort', () => reject(new Error('aborted'))));
        }
        seen.push({ method: request.method, url: request.url, contentType: request.headers.get('content-type'), custom: request.headers.get('x-custom'), body: await request.text() });
        return request.url.endsWith('/missing')
          ? new Response('{"code":"NOT_FOUND"}', { status: 404, headers: { 'content-type': 'application/json' } })
          : new Response(JSON.stringify({ ok: 1 }), { status: 201, headers: { 'x-answer': 'yes', 'retry-after': '3', 'content-type': 'application/json' } });
      };
      const run = makeDevice().start(server);
      const { fetch } = run.platform;
      const response = await fetch(`${RELAY_URL}/echo`, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Custom': 'a b' }, body: '{"x":1}' });
      expect([response.status, response.ok, response.headers.get('X-Answer'), response.headers.get('retry-after')]).toEqual([201, true, 'yes', '3']);
      expect(JSON.parse(await response.text())).toEqual({ ok: 1 });
      expect(seen).toEqual([{ method: 'POST', url: `${RELAY_URL}/echo`, contentType: 'application/json', custom: 'a b', body: '{"x":1}' }]);

      const missing = await fetch(`${RELAY_URL}/missing`);
      expect([missing.status, missing.ok, await missing.text()]).toEqual([404, false, '{"code":"NOT_FOUND"}']);

      const controller = new AbortController();
      const hanging = fetch(`${RELAY_URL}/hang`, { signal: controller.signal });
      controller.abort();
      await expect(hanging).rejects.toBeDefined();

      run.setOnline(false);
      await expect(fetch(`${RELAY_URL}/echo`)).rejects.toBeDefined();
    });

    it('API reads go through the platform fetch with the Client key (query strings included)', async () => {
      const { emu, handler } = startService();
      emulator = emu;
      const gc = createGameCampaign({ platform: makeDevice().start(handler).platform, clientKey: emu.clientKey, environment: { baseUrl: API_URL }, relay: { url: RELAY_URL }, userId: USER, maxRetries: 0 });
      expect((await gc.campaigns.get(DEMO_ACTIVE_CAMPAIGN_ID)).campaignId).toBe(DEMO_ACTIVE_CAMPAIGN_ID);
      const found = await gc.creators.search({ query: 'a b', limit: 2 });
      expect(found.length).toBeLessThanOrEqual(2);
      await gc.dispose();
    });

    it('tracker story: play, background, offline, stop, crash, restart, recovery, flush: each session recorded exactly once', async () => {
      vi.useFakeTimers(FAKE_TIMERS);
      const { emu, handler } = startService();
      emulator = emu;
      const device = makeDevice();
      const options = { clientKey: emu.clientKey, environment: { baseUrl: API_URL }, relay: { url: RELAY_URL, headers: { authorization: TOKEN } }, userId: USER, tracker: { campaignId: DEMO_ACTIVE_CAMPAIGN_ID } };

      const run1 = device.start(handler);
      const process1 = killable(run1.platform);
      const gc1 = createGameCampaign({ ...options, platform: process1.platform });
      const flushed: string[] = [];
      gc1.tracker.on('flushed', (event) => flushed.push(...event.results.filter((r) => r.status === 'SUCCESS').map((r) => r.sessionId)));
      await vi.advanceTimersByTimeAsync(100); // start-up: queue loaded, random pool filled

      // A: 5 s of play, 10 s in the background (not play time), 3 s more.
      const a = gc1.tracker.start();
      await vi.advanceTimersByTimeAsync(5_000);
      run1.background();
      await vi.advanceTimersByTimeAsync(10_000);
      run1.foreground();
      await vi.advanceTimersByTimeAsync(3_000);
      await gc1.tracker.stop();
      const flushA = gc1.tracker.flush();
      await vi.advanceTimersByTimeAsync(1_000); // the relay's coalescing window
      await flushA;
      expect(flushed).toContain(a);

      // B: played offline; the flush keeps it.
      run1.setOnline(false);
      const b = gc1.tracker.start();
      await vi.advanceTimersByTimeAsync(4_000);
      await gc1.tracker.stop();
      await gc1.tracker.flush();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(flushed).not.toContain(b);

      // C: running when the process dies, 20 s in (last checkpoint at 15 s).
      const c = gc1.tracker.start();
      await vi.advanceTimersByTimeAsync(20_000);
      process1.kill();

      // Next start-up on the same device, back online: C is recovered, B and C are flushed.
      const run2 = device.start(handler);
      run2.setOnline(true);
      const gc2 = createGameCampaign({ ...options, platform: run2.platform });
      const ended: Array<{ sessionId: string; reason: string }> = [];
      gc2.tracker.on('session:end', ({ sessionId, reason }) => ended.push({ sessionId, reason }));
      await vi.advanceTimersByTimeAsync(2_000);
      const flush2 = gc2.tracker.flush();
      await vi.advanceTimersByTimeAsync(1_000);
      await flush2;
      expect(ended).toEqual([{ sessionId: c, reason: 'recovered' }]);

      const recorded = emu.state().sessions.filter((s: { userId: string }) => s.userId === USER) as Array<{ sessionId: string; durationSeconds: number }>;
      const durations = Object.fromEntries(recorded.map((s) => [s.sessionId, s.durationSeconds]));
      expect(recorded).toHaveLength(3);
      expect(durations).toEqual({ [a]: 8, [b]: 4, [c]: 15 });
      // The game's own namespace (its Client key's id), emptied by the flush; the shared one never used.
      const keyId = emu.clientKey.slice(0, emu.clientKey.indexOf(':'));
      expect(await run2.platform.storage.keys(`game-campaign.${keyId}:player:${encodeURIComponent(USER)}:queue:`)).toEqual([]);
      expect(await run2.platform.storage.get(`game-campaign.${keyId}.moved`)).toBe(true);
      expect(await run2.platform.storage.keys('game-campaign:')).toEqual([]);
      await gc2.dispose();
      await gc1.dispose().catch(() => undefined);
    });

    describeGameStorageContract(() => contractGameDevice(makeDevice()));
  });
}
