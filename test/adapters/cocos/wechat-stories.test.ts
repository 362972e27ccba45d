/**
 * A WeChat mini-game player's stories on the fake `wx` (test/adapters/fakes/fake-wx.ts, Cocos's XHR wrapper over
 * `wx.request`): the game hidden (`wx.onHide`, which the engine hears as `game_on_hide`) and destroyed there with a
 * delivery in flight, `wx.setStorageSync` refusing writes past the game's 10 MB, and `wx.request` failing with `errno`.
 */
import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TrackerErrorEvent } from '../../../core/index.js';
import { createFakeCc } from '../fakes/fake-cc.js';
import { createFakeWx, type FakeWxOptions } from '../fakes/fake-wx.js';
import { firstCopyService } from '../second-sdk.js';
import { freshAdapter, microtasksOnly } from './fresh-adapter.js';

const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] };
/** WeChat's errMsg when the game's 10 MB are used up (PLATFORMS.md: 10 MB per user, `wx.setStorageSync` throws). */
const FULL = 'setStorageSync:fail exceed storage max size 10MB';

afterEach(() => {
  vi.useRealTimers();
});

/** A mini-game started on the device whose storage is `table`, its relay `handler`; its error events in `errors`. */
async function startGame(table: Map<string, unknown>, handler: (request: Request) => Promise<Response>, wxOptions?: FakeWxOptions) {
  const { createGameCampaign } = await freshAdapter();
  const cc = createFakeCc('wechat');
  cc.start();
  const fake = createFakeWx(table, handler, wxOptions);
  const gc = createGameCampaign({
    cc,
    wx: fake.wx,
    XMLHttpRequest: fake.XMLHttpRequest,
    getRandomValues: (array) => webcrypto.getRandomValues(array as Uint8Array) as never,
    onStorageError: () => undefined,
    clientKey: 'ck_key:secret',
    relay: { url: 'https://game.example/campaign' },
    userId: 'player-1',
  });
  const errors: TrackerErrorEvent[] = [];
  gc.tracker.on('error', (event) => errors.push(event));
  await gc.tracker.flush(); // start-up done (it may wait for WeChat's storage code)
  return { cc, fake, gc, errors };
}

describe('WeChat: hidden (wx.onHide) and destroyed there, no onShow, while the background delivery is in flight', () => {
  it.each([
    ['recorded it', true],
    ['not received it yet', false],
  ] as const)('a session stopped, then hidden; the relay %s: the next start delivers the session once, whole', async (_, records) => {
    vi.useFakeTimers(FAKE_TIMERS);
    const recorded = new Map<string, number>();
    const service = firstCopyService(recorded);
    let hang = true;
    let requests = 0;
    const handler = async (request: Request) => {
      requests++;
      if (!hang) return service(request);
      if (records) await service(request.clone());
      return new Promise<Response>(() => {}); // no answer before the game is destroyed
    };
    const table = new Map<string, unknown>();
    const first = await startGame(table, handler);
    const id = first.gc.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(103_000);
    // Stopped (the round is over; queued, the next interval flush 30 s away), then the player leaves the game.
    await first.gc.tracker.stop();
    expect(requests).toBe(0);
    first.cc.emit('game_on_hide');
    await microtasksOnly();
    expect(requests).toBe(1); // the hide's delivery is on its way
    expect(recorded.size).toBe(records ? 1 : 0);
    // Destroyed here (WeChat may destroy a hidden game without another event): its storage goes to the next start.
    hang = false;
    const second = await startGame(new Map(table), handler);
    await second.gc.tracker.flush();
    expect(Object.fromEntries(recorded)).toEqual({ [id]: 103 });
    expect(second.errors).toEqual([]);
    expect([...table.keys()].filter((key) => /:(queue|running):/.test(key))).not.toEqual([]); // the copy the first left
    await second.gc.dispose();
  });
});

describe('WeChat storage full mid-run (wx.setStorageSync past the 10 MB)', () => {
  it('a session stored before is not lost, the one refused is held in memory: both delivered once; one storage error event with WeChat\'s errMsg', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const recorded = new Map<string, number>();
    const service = firstCopyService(recorded);
    let online = false;
    const table = new Map<string, unknown>();
    const game = await startGame(table, async (request) => {
      if (!online) throw new TypeError('offline');
      return service(request);
    });
    game.fake.setOnline(false);
    const stored = game.gc.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(60_000);
    await game.gc.tracker.stop();
    expect([...table.keys()].some((key) => key.includes(`queue:`) && key.endsWith(stored))).toBe(true);

    const setStorageSync = game.fake.wx.setStorageSync;
    game.fake.wx.setStorageSync = () => {
      throw new Error(FULL);
    };
    const held = game.gc.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(120_000);
    await game.gc.tracker.stop();
    expect(game.errors).toEqual([{ kind: 'storage', error: expect.objectContaining({ message: expect.stringContaining(FULL) }) }]);
    expect([...table.keys()].some((key) => key.endsWith(stored))).toBe(true);

    online = true;
    game.fake.setOnline(true);
    await vi.advanceTimersByTimeAsync(1_000);
    await game.gc.tracker.flush();
    expect(Object.fromEntries(recorded)).toEqual({ [stored]: 60, [held]: 120 });
    expect(game.errors).toHaveLength(1);
    game.fake.wx.setStorageSync = setStorageSync;
    await game.gc.dispose();
  });
});

describe('WeChat: wx.request failing with errno (fail results carry errno beside errMsg)', () => {
  it('a relay off the request domain list (errno 600002): one relay error event, a RequestBlockedError naming the host; the session stays stored', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const table = new Map<string, unknown>();
    const game = await startGame(table, async () => new Response('{}'), { domains: ['other.example'], errno: true });
    const id = game.gc.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(60_000);
    await game.gc.tracker.stop();
    await game.gc.tracker.flush();
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    // The adapter's class of this run's fresh modules (freshAdapter): matched by name and code.
    expect(game.errors).toEqual([{ kind: 'relay', error: expect.objectContaining({ name: 'RequestBlockedError', code: 'REQUEST_BLOCKED' }) }]);
    expect(String((game.errors[0]!.error as Error).message)).toMatch(/WeChat refused POST https:\/\/game\.example\/campaign\/playtime\/sessions: https:\/\/game\.example is not on this mini-game's request domain list/);
    expect([...table.keys()].some((key) => key.endsWith(id))).toBe(true);
    await game.gc.dispose();
  });

  it('a request that fails while WeChat says connected (errno and errMsg, the relay unreachable): no error event for one failure, the session delivered once when the relay answers', async () => {
    vi.useFakeTimers(FAKE_TIMERS);
    const recorded = new Map<string, number>();
    const service = firstCopyService(recorded);
    let reachable = false;
    const table = new Map<string, unknown>();
    // Unreachable: the fake fails wx.request with `request:fail TypeError: ...` and errno 600001.
    const game = await startGame(table, async (request) => {
      if (!reachable) throw new TypeError('connect ECONNREFUSED');
      return service(request);
    }, { errno: true });
    const requestsBefore = game.fake.requests.length;
    const id = game.gc.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(60_000);
    await game.gc.tracker.stop();
    await game.gc.tracker.flush();
    expect(game.fake.requests.length).toBeGreaterThan(requestsBefore); // a request went out and failed
    expect(recorded.size).toBe(0);
    reachable = true;
    await vi.advanceTimersByTimeAsync(60_000);
    await game.gc.tracker.flush();
    expect(Object.fromEntries(recorded)).toEqual({ [id]: 60 });
    expect(game.errors).toEqual([]);
    await game.gc.dispose();
  });
});
