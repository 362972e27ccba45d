/**
 * Storage belongs to the game, on every platform of the contract (issue 28 item 2): the release before kept
 * every game's sessions under the shared `game-campaign` namespace; a game on this release keeps its own under
 * `game-campaign.<CLIENT_KEY_ID>` and moves the shared data in once, at first start; a crash at any point of the
 * move loses nothing and sends nothing twice; two games on one device (one origin) never read, send or recover
 * each other's sessions; an explicit `storageKey` keeps exactly its layout. Played on a {@link GameStorageDevice}:
 * the platform contract's devices with the core facade (`createGameCampaign({ platform })`), and each adapter's own
 * `createGameCampaign` on its fake runtime (test/adapters/react-native, test/adapters/cocos).
 */
import { describe, expect, it, vi } from 'vitest';
import { createGameCampaign, type GameCampaign, type GameCampaignOptions } from '../../core/game-campaign.js';
import type { KeyValueStorage, Platform } from '../../core/platform.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { createEmulator } from '../../emulator/index.js';
import type { ContractDevice, ServerHandler } from './platform-contract.js';

const USER = 'player-1';
const TOKEN = 'Bearer player-1-token';
const API_URL = 'http://emulator.local';
/** Two games of two studios on one origin, each with its own Client key and relay. */
const GAME_A = { clientKey: 'ck_game_a:secret-a', relay: 'http://game-a.local/campaign' };
const GAME_B = { clientKey: 'ck_game_b:secret-b', relay: 'http://game-b.local/campaign' };
const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] };

/** The emulator behind one relay that both games' hosts reach; which host sent which session is kept. */
function service() {
  const emu = createEmulator();
  const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: API_URL }, fetch: (input, init) => emu.fetch(input, { ...init, signal: undefined }), maxRetries: 0, dangerouslyAllowBrowser: true });
  const relay = createRelay({ server, authenticate: (request) => (request.headers.get('authorization') === TOKEN ? { userId: USER } : null) });
  const sentBy: Record<string, string[]> = {};
  const handler: ServerHandler = async (request) => {
    if (!request.url.includes('/campaign/')) return emu.fetch(request);
    if (request.url.endsWith('/playtime/sessions')) {
      const { sessions } = (await request.clone().json()) as { sessions: Array<{ sessionId: string }> };
      (sentBy[new URL(request.url).host] ??= []).push(...sessions.map((s) => s.sessionId));
    }
    return relay.fetch(request);
  };
  /** Play time the service recorded, by session id (a session recorded twice would show as a count). */
  const recorded = () => {
    const sessions = emu.state().sessions as Array<{ sessionId: string; durationSeconds: number }>;
    return { count: sessions.length, durations: Object.fromEntries(sessions.map((s) => [s.sessionId, s.durationSeconds])) };
  };
  return { emu, handler, sentBy, recorded };
}

/** The options of one game's SDK, without the platform (the device supplies it). */
export type GameOptions = Omit<GameCampaignOptions, 'platform'>;

/** One start of a process on a device. */
export interface GameProcess {
  /** The SDK of a game, as the device builds it (`createGameCampaign` of its adapter). */
  game(options: GameOptions): GameCampaign;
  setOnline(online: boolean): void;
  /** The process dies: storage and requests fail from now on; what it stored stays. */
  kill(): void;
}

/** A device whose storage survives restarts. */
export interface GameStorageDevice {
  /** A process start; it dies by itself after `diesAfterWrites` storage writes. */
  start(server: ServerHandler, diesAfterWrites?: number): GameProcess;
  /** What the device holds, read from its storage as it is. */
  keys(prefix: string): Promise<string[]>;
  get(key: string): Promise<unknown>;
}

/** A platform contract device as a {@link GameStorageDevice}: the core facade on its platform. */
export function contractGameDevice(device: ContractDevice): GameStorageDevice {
  /** The storage of the last start, unwrapped: it reads the device whether that process lives or not. */
  let last: KeyValueStorage | undefined;
  const storage = () => (last ??= device.start(async () => new Response('{}')).platform.storage);
  return {
    start(server, diesAfterWrites) {
      const run = device.start(server);
      last = run.platform.storage;
      const process = mortal(run.platform, diesAfterWrites);
      return { game: (options) => createGameCampaign({ ...options, platform: process.platform }), setOnline: run.setOnline, kill: process.kill };
    },
    keys: (prefix) => storage().keys(prefix),
    get: (key) => storage().get(key),
  };
}

/**
 * A platform whose process dies at `kill()`, or by itself after `writes` storage writes: every later call
 * rejects (what it stored stays on the device).
 */
export function mortal(platform: Platform, writes = Infinity): { platform: Platform; kill(): void } {
  let left = writes;
  const dead = () => Promise.reject(new Error('process died'));
  const alive = <A extends unknown[], R>(call: (...args: A) => Promise<R>) => (...args: A) => (left < 0 ? dead() : call(...args));
  const write = <A extends unknown[]>(call: (...args: A) => Promise<void>) => (...args: A) => (left-- > 0 ? call(...args) : ((left = -1), dead()));
  const storage: KeyValueStorage = {
    get: alive((key: string) => platform.storage.get(key)),
    keys: alive((prefix?: string) => platform.storage.keys(prefix)),
    set: write((key: string, value: unknown) => platform.storage.set(key, value)),
    delete: write((key: string) => platform.storage.delete(key)),
  };
  const { lock: _lock, ...rest } = platform;
  return { platform: { ...rest, storage, fetch: alive((input, init) => platform.fetch(input, init)) }, kill: () => void (left = -1) };
}

/** The stories, on the devices `makeDevice` creates. */
export function describeGameStorageContract(makeDevice: () => GameStorageDevice): void {
  describe('storage belongs to the game', () => {
    const game = (process: GameProcess, which: typeof GAME_A, storageKey?: string): GameCampaign =>
      process.game({
        clientKey: which.clientKey,
        environment: { baseUrl: API_URL },
        relay: { url: which.relay, headers: { authorization: TOKEN } },
        userId: USER,
        maxRetries: 0,
        ...(storageKey ? { tracker: { storageKey } } : {}),
      });

    /**
     * What the release before left on the device: one session queued offline (4 s) and one running when the
     * process died (20 s in, checkpointed at 15 s), under the shared `game-campaign` (exactly the layout an
     * explicit `storageKey: 'game-campaign'` keeps).
     */
    async function previousRelease(device: GameStorageDevice, handler: ServerHandler) {
      const { process, gc } = await startOffline(device, handler, GAME_A, 'game-campaign');
      const queued = gc.tracker.start();
      await vi.advanceTimersByTimeAsync(4_000);
      await gc.tracker.stop();
      const running = gc.tracker.start();
      await vi.advanceTimersByTimeAsync(20_000);
      const keys = await device.keys('game-campaign:');
      expect(keys.filter((key) => key.startsWith(`game-campaign:player:${USER}:queue:`))).toHaveLength(1);
      expect(keys).toContain(`game-campaign:player:${USER}:running:${running}`);
      process.kill(); // what it stored stays on the device
      await gc.dispose().catch(() => undefined);
      return { queued, running };
    }

    /** A start of `which` on the device, offline, once its start-up has read storage. */
    async function startOffline(device: GameStorageDevice, handler: ServerHandler, which: typeof GAME_A, storageKey?: string) {
      const process = device.start(handler);
      process.setOnline(false);
      const gc = game(process, which, storageKey);
      await vi.advanceTimersByTimeAsync(100);
      return { process, gc };
    }

    /** A start of `which` on the device, online, until its start-up flush is answered. */
    async function startAndFlush(device: GameStorageDevice, handler: ServerHandler, which: typeof GAME_A, storageKey?: string) {
      const process = device.start(handler);
      process.setOnline(true);
      const gc = game(process, which, storageKey);
      const ended: string[] = [];
      gc.tracker.on('session:end', ({ sessionId, reason }) => reason === 'recovered' && ended.push(sessionId));
      await vi.advanceTimersByTimeAsync(2_000);
      const flush = gc.tracker.flush();
      await vi.advanceTimersByTimeAsync(1_000);
      await flush;
      return { gc, recovered: ended };
    }

    it("moves the shared namespace into the game's own once: queued and crashed sessions delivered once, through this game's relay", async () => {
      vi.useFakeTimers(FAKE_TIMERS);
      const { emu, handler, sentBy, recorded } = service();
      const device = makeDevice();
      const { queued, running } = await previousRelease(device, handler);

      const { gc, recovered } = await startAndFlush(device, handler, GAME_A);
      expect(recovered).toEqual([running]);
      expect(recorded()).toEqual({ count: 2, durations: { [queued]: 4, [running]: 15 } });
      expect(sentBy['game-a.local']!.sort()).toEqual([queued, running].sort());
      expect(await device.keys('game-campaign:')).toEqual([]);
      // Its data, queue and locks now live under the game's namespace.
      expect(await device.get('game-campaign.ck_game_a.moved')).toBe(true);
      const id = gc.tracker.start();
      await vi.advanceTimersByTimeAsync(1_500);
      expect(await device.keys('game-campaign.ck_game_a:')).toEqual([`game-campaign.ck_game_a:player:${USER}:running:${id}`]);
      await gc.dispose();

      // Restarted: nothing more to move, nothing sent again.
      const again = await startAndFlush(device, handler, GAME_A);
      expect(recorded()).toEqual({ count: 3, durations: { [queued]: 4, [running]: 15, [id]: 1 } });
      await again.gc.dispose();
      await emu.close();
    });

    it('a crash at any point of the move loses nothing and sends nothing twice as another session', async () => {
      vi.useFakeTimers(FAKE_TIMERS);
      // The move writes each of the 2 keys then deletes it, then its marker: 5 writes; die after each of them.
      for (let writes = 0; writes <= 5; writes++) {
        const { emu, handler, recorded } = service();
        const device = makeDevice();
        const { queued, running } = await previousRelease(device, handler);
        const dying = device.start(handler, writes);
        dying.setOnline(true);
        const crashed = game(dying, GAME_A);
        await vi.advanceTimersByTimeAsync(2_000);
        await crashed.dispose().catch(() => undefined);

        const { gc } = await startAndFlush(device, handler, GAME_A);
        expect({ writes, ...recorded() }).toEqual({ writes, count: 2, durations: { [queued]: 4, [running]: 15 } });
        expect(await device.keys('game-campaign:')).toEqual([]);
        expect(await device.keys('game-campaign.ck_game_a:')).toEqual([]);
        expect(await device.get('game-campaign.ck_game_a.moved')).toBe(true);
        await gc.dispose();
        await emu.close();
      }
    });

    it("two games on one device: the first to start takes the shared data; neither ever reads, sends or recovers the other's sessions", async () => {
      vi.useFakeTimers(FAKE_TIMERS);
      const { emu, handler, sentBy, recorded } = service();
      const device = makeDevice();
      const shared = await previousRelease(device, handler);
      const first = await startAndFlush(device, handler, GAME_A);
      await first.gc.dispose();

      // Game B starts on the same device: nothing of A's (nor of the shared data A took) reaches it.
      const { process: bProcess, gc: b } = await startOffline(device, handler, GAME_B);
      const bQueued = b.tracker.start();
      await vi.advanceTimersByTimeAsync(3_000);
      await b.tracker.stop();
      const bRunning = b.tracker.start();
      await vi.advanceTimersByTimeAsync(16_000);
      bProcess.kill(); // B's process dies mid-session
      await b.dispose().catch(() => undefined);

      // A again, online: it neither sends B's queue nor recovers B's running session.
      const aAgain = await startAndFlush(device, handler, GAME_A);
      expect(aAgain.recovered).toEqual([]);
      expect(sentBy['game-a.local']!.sort()).toEqual([shared.queued, shared.running].sort());
      expect(recorded().count).toBe(2);
      await aAgain.gc.dispose();

      // B again: its own two sessions, through its own relay, once each.
      const bAgain = await startAndFlush(device, handler, GAME_B);
      expect(bAgain.recovered).toEqual([bRunning]);
      expect(sentBy['game-b.local']!.sort()).toEqual([bQueued, bRunning].sort());
      expect(recorded()).toEqual({ count: 4, durations: { [shared.queued]: 4, [shared.running]: 15, [bQueued]: 3, [bRunning]: 15 } });
      await bAgain.gc.dispose();
      await emu.close();
    });

    it('an explicit storageKey keeps exactly its layout: no namespace, nothing moved', async () => {
      vi.useFakeTimers(FAKE_TIMERS);
      const { emu, handler, sentBy } = service();
      const device = makeDevice();
      const shared = await previousRelease(device, handler);
      const before = await device.keys('game-campaign');

      // A game that named its own key: its sessions under `my-game:`, the shared data left alone.
      const { gc: mine } = await startOffline(device, handler, GAME_B, 'my-game');
      const id = mine.tracker.start();
      await vi.advanceTimersByTimeAsync(1_500);
      expect(await device.keys('my-game:')).toEqual([`my-game:player:${USER}:running:${id}`]);
      await mine.dispose();
      expect(await device.keys('game-campaign')).toEqual(before);

      // `storageKey: 'game-campaign'` is the release before's layout itself: it sends the shared data as it did.
      const legacy = await startAndFlush(device, handler, GAME_A, 'game-campaign');
      expect(legacy.recovered).toEqual([shared.running]);
      expect(sentBy['game-a.local']!.sort()).toEqual([shared.queued, shared.running].sort());
      expect(await device.get('game-campaign.ck_game_a.moved')).toBeUndefined();
      await legacy.gc.dispose();
      await emu.close();
    });
  });
}
