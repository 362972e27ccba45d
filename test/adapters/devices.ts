/**
 * The simulated devices the platform contract runs on: each builds its adapter's platform on a faithful fake
 * of the runtime (test/adapters/fakes), with the runtime's globals as that runtime has them.
 */
import { webcrypto } from 'node:crypto';
import { vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage } from '../../core/memory-platform.js';
import type { FetchLike } from '../../core/platform.js';
import { createCocosPlatform } from '../../adapters/cocos/index.js';
import { createReactNativePlatform } from '../../adapters/react-native/index.js';
import type { ContractDevice, ServerHandler } from './platform-contract.js';
import { createFakeCc } from './fakes/fake-cc.js';
import { createFakeWx } from './fakes/fake-wx.js';
import { createAsyncStorageV2, createAsyncStorageV3Module, createFakeAppState, createFakeNetInfo, type AsyncStorageDisk } from './fakes/fake-react-native.js';

/**
 * A fetch to the in-process server that fails while offline (a browser's or RN's fetch, minus the network). Cocos
 * native's fetch (cocos-engine platforms/native/builtin/jsb-adapter/fetch.js, whatwg-fetch over the JSB XHR) rejects
 * the same way: the XHR fires `onerror` with status 0 for a connection, DNS, TLS or time-out failure (the HttpClient's
 * response code 0 or -1: native/cocos/bindings/manual/jsb_xmlhttprequest.cpp `onResponse`; HttpClient-java.cpp and
 * HttpClient-apple.mm, whose request time-out defaults to 10 s, HttpRequest.h), never `onload`, and fetch.js rejects
 * `new TypeError('Network request failed')`.
 */
export function routedFetch(server: ServerHandler, isOnline: () => boolean, options: { dropSignal?: boolean; dropKeepalive?: boolean } = {}): FetchLike {
  return async (input, init = {}) => {
    if (!isOnline()) throw new TypeError('Network request failed');
    const { signal, keepalive, ...rest } = init;
    if (!options.dropSignal) return server(new Request(input, { ...rest, ...(signal ? { signal } : {}), ...(keepalive && !options.dropKeepalive ? { keepalive } : {}) }));
    // whatwg-fetch over XHR (Cocos native, RN): the signal aborts the XHR; the request itself carries none.
    if (signal?.aborted) throw signal.reason;
    return new Promise<Response>((resolve, reject) => {
      const onAbort = () => reject(signal!.reason ?? new Error('Aborted'));
      signal?.addEventListener('abort', onAbort);
      server(new Request(input, rest)).then(resolve, reject).finally(() => signal?.removeEventListener('abort', onAbort));
    });
  };
}

/** The memory platform, the reference every adapter is held to. */
export function memoryDevice(): ContractDevice {
  const storage = createMemoryStorage();
  return {
    start(server) {
      const platform = createMemoryPlatform({ storage, fetch: (input, init) => server(new Request(input, init)) });
      return { platform, background: () => platform.background(), foreground: () => platform.foreground(), setOnline: (online) => platform.setOnline(online) };
    },
  };
}

/** A browser page's globals: `document` (visibility), `window` (online/offline, pagehide), `navigator.onLine`. */
function pageGlobals() {
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  const window = new EventTarget();
  const navigator = { onLine: true };
  vi.stubGlobal('document', document);
  vi.stubGlobal('window', window);
  vi.stubGlobal('navigator', navigator);
  return { document, window, navigator };
}

/** Cocos web / native / WeChat builds on a fake `cc` (and `wx`), their storage on one device table. */
export function cocosDevice(runtime: 'web' | 'native' | 'wechat'): ContractDevice {
  const table = new Map<string, string>();
  const wxTable = new Map<string, unknown>();
  return {
    start(server) {
      let online = true;
      const cc = createFakeCc(runtime, table);
      cc.start();
      if (runtime === 'web') {
        const page = pageGlobals();
        vi.stubGlobal('fetch', routedFetch(server, () => online));
        const platform = createCocosPlatform({ cc });
        return {
          platform,
          // The engine's event and the page's visibilitychange both fire on web: listeners hear one change.
          background() {
            page.document.visibilityState = 'hidden';
            page.document.dispatchEvent(new Event('visibilitychange'));
            cc.emit(cc.Game.EVENT_HIDE);
          },
          foreground() {
            cc.emit(cc.Game.EVENT_SHOW);
            page.document.visibilityState = 'visible';
            page.document.dispatchEvent(new Event('visibilitychange'));
          },
          setOnline(next) {
            if (next === online) return;
            online = page.navigator.onLine = next;
            page.window.dispatchEvent(new Event(next ? 'online' : 'offline'));
          },
        };
      }
      // Native and WeChat have no WebCrypto and no AbortController. (Nor URLSearchParams, which the core never
      // uses: test/core/client/endpoints.test.ts reads without it; stubbing it here would break the emulator.)
      vi.stubGlobal('crypto', undefined);
      vi.stubGlobal('AbortController', undefined);
      if (runtime === 'native') {
        vi.stubGlobal('fetch', routedFetch(server, () => online, { dropSignal: true, dropKeepalive: true }));
        // The game bridges the OS's secure random (no WebCrypto on native).
        const platform = createCocosPlatform({ cc, getRandomValues: (array) => webcrypto.getRandomValues(array as Uint8Array) as never });
        return { platform, background: () => cc.emit(cc.Game.EVENT_HIDE), foreground: () => cc.emit(cc.Game.EVENT_SHOW), setOnline: (next) => void (online = next) };
      }
      vi.stubGlobal('fetch', undefined);
      const fake = createFakeWx(wxTable, server);
      vi.stubGlobal('XMLHttpRequest', fake.XMLHttpRequest);
      const platform = createCocosPlatform({ cc, wx: fake.wx });
      return { platform, background: () => cc.emit(cc.Game.EVENT_HIDE), foreground: () => cc.emit(cc.Game.EVENT_SHOW), setOnline: (next) => fake.setOnline(next) };
    },
  };
}

/** React Native on Hermes (no `crypto` global) with AsyncStorage 2.x or 3.x, AppState and NetInfo. */
export function reactNativeDevice(version: 'v2' | 'v3'): ContractDevice {
  const disk: AsyncStorageDisk = new Map();
  return {
    start(server) {
      let online = true;
      vi.stubGlobal('crypto', undefined);
      vi.stubGlobal('fetch', routedFetch(server, () => online, { dropKeepalive: true }));
      const AppState = createFakeAppState();
      const NetInfo = createFakeNetInfo();
      const random = { getRandomValues: (array: Uint8Array) => webcrypto.getRandomValues(array) };
      const modules =
        version === 'v2'
          ? { AsyncStorage: createAsyncStorageV2(disk), AppState, NetInfo, getRandomValues: random.getRandomValues }
          : { AsyncStorage: createAsyncStorageV3Module(disk), AppState, NetInfo, expoCrypto: random };
      const platform = createReactNativePlatform({ modules });
      return {
        platform,
        background() {
          AppState.set('inactive');
          AppState.set('background');
        },
        foreground: () => AppState.set('active'),
        setOnline(next) {
          online = next;
          NetInfo.set({ isConnected: next, isInternetReachable: next });
        },
      };
    },
  };
}
