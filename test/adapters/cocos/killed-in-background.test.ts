/**
 * A mini-game (or native app) put in the background and killed there: WeChat suspends a hidden game's JavaScript
 * 5 s into the background and may destroy it later without another event (developers.weixin.qq.com/miniprogram/dev/
 * framework/runtime/operating-mechanism.html, as adapters/cocos/steady-clock.ts cites); a phone may kill a native app
 * the same way. What the session needs must be in
 * storage by the time the `game_on_hide` handlers and the microtasks after them have run: no timer, no callback of
 * the host's, may be needed. The kill is modelled by copying storage at that moment and starting the SDK again from
 * fresh modules (the killed context's in-memory locks gone) on the copy.
 */
import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCc } from '../fakes/fake-cc.js';
import { createFakeWx } from '../fakes/fake-wx.js';
import { firstCopyService } from '../second-sdk.js';
import { freshAdapter, microtasksOnly } from './fresh-adapter.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('Cocos: killed in the background right after game_on_hide', () => {
  it.each(['wechat', 'native'] as const)('%s: the session is on storage once the hide handlers and their microtasks ran, and the next start delivers it whole', async (runtime) => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const recorded = new Map<string, number>();
    const service = firstCopyService(recorded);
    let online = false;
    const handler = async (request: Request) => {
      if (!online) throw new TypeError('offline');
      return service(request);
    };
    const start = async (wxTable: Map<string, unknown>, ccTable: Map<string, string>) => {
      const { createGameCampaign } = await freshAdapter();
      const cc = createFakeCc(runtime, ccTable);
      cc.start();
      const fake = createFakeWx(wxTable, handler);
      const host =
        runtime === 'wechat' ? { wx: fake.wx, XMLHttpRequest: fake.XMLHttpRequest } : { fetch: (input: string | Request, init?: RequestInit) => handler(new Request(input, init)) };
      const gc = createGameCampaign({ cc, ...host, getRandomValues: (array) => webcrypto.getRandomValues(array as Uint8Array) as never, clientKey: 'ck_key:secret', relay: { url: 'https://game.example/campaign' }, userId: 'player-1' });
      return { cc, gc };
    };

    const wxTable = new Map<string, unknown>();
    const ccTable = new Map<string, string>();
    const first = await start(wxTable, ccTable);
    await vi.advanceTimersByTimeAsync(10);
    const id = first.gc.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(103_000); // off the checkpoint ticks: the hide itself must store it
    first.cc.emit('game_on_hide');
    await microtasksOnly();
    // Killed here: storage as it is now, the old context gone.
    const second = await start(new Map(wxTable), new Map(ccTable));
    online = true;
    await vi.advanceTimersByTimeAsync(1_000);
    await second.gc.tracker.flush();
    expect(Object.fromEntries(recorded)).toEqual({ [id]: 103 });
    await second.gc.dispose();
  });
});

describe('Cocos native: the game closed while it is played (game_on_close, no game_on_hide first)', () => {
  // cocos-engine 3.8.4: closing the desktop window (native/cocos/platform/SDLHelper.cpp SDL_WINDOWEVENT_CLOSE), `game.end()`
  // (cocos/game/game.ts `end` -> systemInfo.close -> jsb `__close`, CocosApplication::close) and iOS's
  // applicationWillTerminate (platform/ios/AppDelegateBridge.mm -> IOSPlatform::onClose) reach Engine::handleEvent's
  // WindowEvent CLOSE (engine/Engine.cpp): `events::Close` -> jsb.onClose (pal/system-info/native/system-info.ts
  // `_registerEvent`) -> `Game.EVENT_CLOSE` ('game_on_close'), and game.ts `_onClose` then calls systemInfo.exit()
  // (WindowsPlatform::exit ends the loop: no timer runs again). Killed as above, right after that event.
  it('the session is on storage with all its play once the close handlers and their microtasks ran (was: its last checkpoint)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const recorded = new Map<string, number>();
    const service = firstCopyService(recorded);
    let online = false;
    const fetch = async (input: string | Request, init?: RequestInit) => {
      if (!online) throw new TypeError('offline');
      return service(new Request(input, init));
    };
    const start = async (table: Map<string, string>) => {
      const { createGameCampaign } = await freshAdapter();
      const cc = createFakeCc('native', table);
      cc.start();
      const gc = createGameCampaign({ cc, fetch, getRandomValues: (array) => webcrypto.getRandomValues(array as Uint8Array) as never, clientKey: 'ck_key:secret', relay: { url: 'https://game.example/campaign' }, userId: 'player-1' });
      return { cc, gc };
    };
    const table = new Map<string, string>();
    const first = await start(table);
    await vi.advanceTimersByTimeAsync(10);
    const id = first.gc.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(43_000); // 13 s after the last checkpoint (15 s apart)
    first.cc.emit('game_on_close');
    await microtasksOnly();
    const second = await start(new Map(table));
    online = true;
    await vi.advanceTimersByTimeAsync(1_000);
    await second.gc.tracker.flush();
    // Before: 30, what the checkpoint at 30 s had stored; the 13 s after it were lost.
    expect(Object.fromEntries(recorded)).toEqual({ [id]: 43 });
    await second.gc.dispose();
  });
});

describe('Cocos native: the JavaScript VM restarted (a hot update: `game.restart()` or `sys.restartVM()`)', () => {
  // cocos-engine 3.8.4: native `game.restart()` (platforms/native/engine/jsb-game.js) destroys the scene (each component's
  // onDestroy) and calls `__restartVM()`; `sys.restartVM()` (cocos/core/platform/sys.ts -> pal/system-info/native
  // `restartJSVM`) calls `__restartVM()` alone. Neither emits a game event (EVENT_RESTART is the web/mini-game
  // `game.restart`'s). `__restartVM` (native/cocos/bindings/manual/jsb_global.cpp JSB_core_restartVM -> Engine::restart)
  // only sets `_needRestart`; engine/Engine.cpp `tick` destroys the VM at the start of the next frame: what the call's
  // microtasks do lands, no timer or request answer does. Modelled as above: storage copied after those microtasks.
  type Gc = ReturnType<Awaited<ReturnType<typeof freshAdapter>>['createGameCampaign']>;
  const start = async (table: Map<string, string>, recorded: Map<string, number>, online: () => boolean): Promise<Gc> => {
    const { createGameCampaign } = await freshAdapter();
    const service = firstCopyService(recorded);
    const cc = createFakeCc('native', table);
    cc.start();
    const fetch = async (input: string | Request, init?: RequestInit) => {
      if (!online()) throw new TypeError('offline');
      return service(new Request(input, init));
    };
    return createGameCampaign({ cc, fetch, getRandomValues: (array) => webcrypto.getRandomValues(array as Uint8Array) as never, clientKey: 'ck_key:secret', relay: { url: 'https://game.example/campaign' }, userId: 'player-1' });
  };

  it.each([
    ['nothing (sys.restartVM() with the SDK running): its last checkpoint', async (): Promise<void> => undefined, 30],
    ['dispose() called, not awaited (the sample\'s onDestroy, as game.restart() runs it)', async (gc: Gc): Promise<void> => void gc.dispose(), 43],
    ['tracker.stop() called, not awaited', async (gc: Gc): Promise<void> => void gc.tracker.stop(), 43],
  ] as const)('the game does %s before the VM restarts: the next start delivers the expected play', async (_, before, seconds) => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const recorded = new Map<string, number>();
    let online = false;
    const table = new Map<string, string>();
    const first = await start(table, recorded, () => online);
    await vi.advanceTimersByTimeAsync(10);
    const id = first.tracker.start({ campaignId: 'spring' });
    await vi.advanceTimersByTimeAsync(43_000); // 13 s after the last checkpoint (15 s apart)
    await before(first);
    await microtasksOnly();
    const second = await start(new Map(table), recorded, () => online);
    online = true;
    await vi.advanceTimersByTimeAsync(1_000);
    await second.tracker.flush();
    expect(Object.fromEntries(recorded)).toEqual({ [id]: seconds });
    await second.dispose();
  });
});
