/**
 * What only the React Native platform does, on the fakes of test/adapters/fakes/fake-react-native.ts:
 * Hermes crypto, AsyncStorage 2.x/3.x shapes, AppState and NetInfo subscriptions, web views, and a
 * background flush that does not rely on keepalive.
 */
import { webcrypto } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createGameCampaign, createReactNativePlatform, createWebViewHost, CryptoUnavailableError, type ReactLike } from '../../../adapters/react-native/index.js';
import { creatorPicker } from '../../../adapters/react-native/picker.js';
import { createAsyncStorageV2, createAsyncStorageV3Module, createFakeAppState, createFakeNetInfo, type AsyncStorageDisk } from '../fakes/fake-react-native.js';
import { firstCopyService, secondSdkWhileFirstRuns } from '../second-sdk.js';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});
const getRandomValues = (array: Uint8Array) => webcrypto.getRandomValues(array);
const facade = { clientKey: 'ck_key:secret', relay: { url: 'https://game.example/campaign' }, userId: 'player-1' };

describe('React Native crypto (Hermes has none)', () => {
  it('fails loudly at createGameCampaign when no secure random source was given or installed', () => {
    vi.stubGlobal('crypto', undefined);
    const modules = { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState() };
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(CryptoUnavailableError);
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(/react-native-get-random-values/);
  });

  it("fails loudly at createGameCampaign when the installed crypto.getRandomValues throws (react-native-get-random-values without its native module), instead of taking ids from Math.random", () => {
    const missing = new Error("TurboModuleRegistry.getEnforcing(...): 'RNGetRandomValues' could not be found");
    vi.stubGlobal('crypto', {
      getRandomValues: () => {
        throw missing;
      },
    });
    const modules = { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState() };
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(CryptoUnavailableError);
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(/RNGetRandomValues' could not be found.*native module/);
    // An injected source is the game's own: used as given.
    expect(() => createGameCampaign({ ...facade, modules: { ...modules, getRandomValues } })).not.toThrow();
  });

  it("expo-crypto without getRandomValues (12.0, what Expo SDK 47 installs; it came in 12.2): the error names the version to install", () => {
    vi.stubGlobal('crypto', undefined);
    const expoCrypto = { digestStringAsync: async () => '' } as never;
    const modules = { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), expoCrypto };
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(CryptoUnavailableError);
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(/expo-crypto 12\.2/);
  });

  it('uses the crypto.getRandomValues that react-native-get-random-values installs, or the injected module', async () => {
    vi.stubGlobal('crypto', webcrypto);
    const installed = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState() } });
    expect((await installed.crypto.randomBytes(8)).length).toBe(8);
    vi.stubGlobal('crypto', undefined);
    const calls: number[] = [];
    const expoCrypto = { getRandomValues: (array: Uint8Array) => (calls.push(array.byteLength), getRandomValues(array)) };
    const expo = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), expoCrypto } });
    await expo.crypto.randomBytes(100_000);
    expect(calls).toEqual([65_536, 34_464]); // sliced at the 64 KiB per-call limit
  });
});

describe('React Native session ids', () => {
  it.each([
    ['the injected getRandomValues', (fill: (array: Uint8Array) => Uint8Array) => ({ getRandomValues: fill })],
    ["expo-crypto's getRandomValues", (fill: (array: Uint8Array) => Uint8Array) => ({ expoCrypto: { getRandomValues: fill } })],
  ])("the guide's start() right after createGameCampaign takes its id from %s, never from Hermes' 32-bit-seeded Math.random", (_, source) => {
    vi.stubGlobal('crypto', undefined);
    const random = vi.spyOn(Math, 'random');
    try {
      const gc = createGameCampaign({ ...facade, modules: { AsyncStorage: createAsyncStorageV3Module(), AppState: createFakeAppState(), ...source((array) => array.fill(0x2a)) } });
      expect(gc.tracker.start({ campaignId: 'spring-event' })).toBe('2a2a2a2a-2a2a-4a2a-aa2a-2a2a2a2a2a2a');
      expect(random).not.toHaveBeenCalled();
      void gc.dispose();
    } finally {
      random.mockRestore();
    }
  });
});

describe('React Native SHA-256', () => {
  it("hashes with expo-crypto's digest when it has one, else with the SDK's own fallback (same digest)", async () => {
    vi.stubGlobal('crypto', undefined);
    const algorithms: string[] = [];
    const digest = async (algorithm: string, data: Uint8Array) => (algorithms.push(algorithm), webcrypto.subtle.digest('SHA-256', new Uint8Array(data)));
    const abc = new TextEncoder().encode('abc');
    const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
    const expo = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), expoCrypto: { getRandomValues, digest } } });
    const noble = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), getRandomValues } });
    const expected = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(hex(await expo.crypto.sha256(abc))).toBe(expected);
    expect(algorithms).toEqual(['SHA-256']);
    expect(hex(await noble.crypto.sha256(abc))).toBe(expected);
    expect(algorithms).toHaveLength(1);
  });
});

describe('React Native storage', () => {
  it('tells AsyncStorage 2.x from 3.x, and gives 3.x its own named store', async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const disk: AsyncStorageDisk = new Map();
    const base = { AppState: createFakeAppState() };
    expect(createReactNativePlatform({ modules: { ...base, AsyncStorage: createAsyncStorageV2() } }).storageShape).toBe('v2');
    expect(createReactNativePlatform({ modules: { ...base, AsyncStorage: createAsyncStorageV3Module().default } }).storageShape).toBe('v3');
    const v3 = createReactNativePlatform({ modules: { ...base, AsyncStorage: createAsyncStorageV3Module(disk) } });
    await v3.storage.set('k', [1]);
    expect(disk.get('game-campaign')?.get('k')).toBe('[1]');
    expect(disk.get('')?.size ?? 0).toBe(0);
  });

  // Every call stuck (a native module that never calls back): the session is sent from memory. getItem alone stuck
  // (writes land): the session is on disk, sent by a start whose reads answer.
  it.each([
    { stuck: ['getItem', 'setItem', 'removeItem', 'getAllKeys'], delivered: 1 },
    { stuck: ['setItem'], delivered: 1 },
    { stuck: ['getAllKeys'], delivered: 1 },
    { stuck: ['getItem'], delivered: 0 },
  ] as const)('an AsyncStorage whose $stuck never answer: stop(), flush() and dispose() still finish, the failure reported ($delivered delivered)', async ({ stuck: methods, delivered }) => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    // The 3.x module: the SDK's own store is stuck (a native call that never calls back), and so is the legacy store it reads first.
    const module = createAsyncStorageV3Module();
    const stuck = <S extends object>(store: S) => ({ ...store, ...Object.fromEntries(methods.map((method) => [method, () => new Promise(() => {})])) });
    const AsyncStorage = { default: stuck(module.default), createAsyncStorage: (name: string) => stuck(module.createAsyncStorage(name)) };
    const sent: number[] = [];
    const fetch = async (_input: string | Request, init?: RequestInit) => {
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string; durationSeconds: number }> };
      sent.push(...sessions.map((session) => session.durationSeconds));
      return new Response(JSON.stringify({ data: { results: sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } }));
    };
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: AsyncStorage as never, AppState: createFakeAppState(), getRandomValues } });
    const errors: string[] = [];
    gc.tracker.on('error', (event) => errors.push(`${event.kind}: ${(event.error as Error).message}`));
    gc.tracker.start({ campaignId: 'spring-event' });
    await vi.advanceTimersByTimeAsync(30_000);
    let done = false;
    const finished = (async () => {
      await gc.tracker.stop();
      await gc.tracker.flush();
      await gc.dispose();
      done = true;
    })();
    await vi.advanceTimersByTimeAsync(90_000); // every call stuck: start-up reads the choice twice (10 s each), a wait the flushes and dispose meet
    expect(done).toBe(true);
    await finished;
    expect(sent).toHaveLength(delivered);
    expect(errors).toContain(`storage: AsyncStorage.${methods[0]} did not answer within 10 s`);
  });

  it("metadata that makes a session over Android's 2 MB entry (AsyncStorage's CursorWindow) is not written, so it is not left queued unreadable for ever: it is sent from memory and dropped once as too large; the next session is delivered", async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const disk: AsyncStorageDisk = new Map();
    const store = createAsyncStorageV2(disk);
    // AsyncStorage on Android (its docs, "Known storage limits"): an entry over about 2 MB is written but never read back.
    const getItem = async (key: string) => {
      const value = await store.getItem(key);
      if (value && Buffer.byteLength(value) > 2 * 1024 * 1024) throw new Error("Couldn't read row 0, col 0 from CursorWindow. Make sure the Cursor is initialized correctly before accessing data from it.");
      return value;
    };
    const sent: string[] = [];
    // The relay's body cap (1 MiB, 413 above it: core/relay/request-body.ts).
    const fetch = async (_input: string | Request, init?: RequestInit) => {
      if (String(init?.body).length > 1024 * 1024) return new Response(JSON.stringify({ error: { code: 'BAD_REQUEST', message: 'The body exceeds the relay limit' } }), { status: 413 });
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      sent.push(...sessions.map((session) => session.sessionId));
      return new Response(JSON.stringify({ data: { results: sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } }));
    };
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: { ...store, getItem }, AppState: createFakeAppState(), getRandomValues } });
    const errors: string[] = [];
    const dropped: string[] = [];
    gc.tracker.on('error', (event) => errors.push(`${event.kind}: ${(event.error as Error).message}`));
    gc.tracker.on('dropped', (event) => dropped.push(`${event.sessionId} ${event.reason}`));
    await vi.advanceTimersByTimeAsync(10);
    const big = gc.tracker.start({ campaignId: 'spring-event', metadata: { replay: 'x'.repeat(2_200_000) } });
    await vi.advanceTimersByTimeAsync(20_000);
    await gc.tracker.stop();
    await gc.tracker.flush();
    const small = gc.tracker.start({ campaignId: 'spring-event' });
    await vi.advanceTimersByTimeAsync(5_000);
    await gc.tracker.stop();
    await gc.tracker.flush();
    expect(dropped).toEqual([`${big} too-large`]);
    expect(sent).toEqual([small]);
    expect(errors).toEqual([expect.stringMatching(/^storage: .*over 2 MB/)]);
    expect([...disk.get('')!.values()].filter((value) => String(value).length > 1_000_000)).toEqual([]);
    await gc.dispose();
  });

  it('refuses an AsyncStorage without the calls it needs', () => {
    vi.stubGlobal('crypto', { getRandomValues });
    expect(() => createReactNativePlatform({ modules: { AsyncStorage: { getItem: async () => null } as never, AppState: createFakeAppState() } })).toThrow(/getAllKeys|setItem/);
  });
});

describe('React Native lifecycle and network', () => {
  it('AppState: background and active only (inactive changes nothing); the subscription is removed with .remove()', () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const AppState = createFakeAppState();
    const { lifecycle } = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState } });
    const heard: string[] = [];
    const offBackground = lifecycle.onBackground(() => heard.push('background'));
    const offForeground = lifecycle.onForeground(() => heard.push('foreground'));
    expect(AppState.listenerCount()).toBe(1);
    AppState.set('inactive');
    AppState.set('active');
    AppState.set('inactive');
    AppState.set('background');
    AppState.set('active');
    offBackground();
    offForeground();
    expect(AppState.listenerCount()).toBe(0);
    expect(heard).toEqual(['background', 'foreground']);
  });

  it("NetInfo 12: offline only when isConnected is false (not on isInternetReachable: false, NetInfo's check of a Google URL that some networks block); the unsubscribe function is called", async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const NetInfo = createFakeNetInfo();
    const { network } = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), NetInfo } });
    const changes: boolean[] = [];
    const off = network!.onChange((online) => changes.push(online));
    NetInfo.set({ isInternetReachable: null });
    NetInfo.set({ isInternetReachable: false });
    expect(network!.isOnline()).toBe(true);
    NetInfo.set({ isConnected: false, isInternetReachable: false });
    NetInfo.set({ isConnected: true, isInternetReachable: true });
    expect(changes).toEqual([false, true]);
    off();
    expect(NetInfo.listenerCount()).toBe(0);
  });

  it('NetInfo 12: a read with no listener (a flush ending after its tracker was disposed) answers and subscribes to nothing', async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const NetInfo = createFakeNetInfo();
    const { network } = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), NetInfo } });
    const off = network!.onChange(() => {});
    NetInfo.set({ isConnected: false });
    off();
    expect(network!.isOnline()).toBe(false);
    expect(NetInfo.listenerCount()).toBe(0);
    NetInfo.set({ isConnected: true });
    expect(network!.isOnline()).toBe(true);
    expect(NetInfo.listenerCount()).toBe(0);
  });
});

/** React's useSyncExternalStore as a mounted component sees it: subscribed (once), then the snapshot read. */
function mountedReact(): ReactLike & { unmount(): void } {
  const subscribed = new Map<unknown, () => void>();
  return {
    createElement: (type, props) => ({ type, props }),
    useSyncExternalStore: (subscribe, getSnapshot) => {
      if (!subscribed.has(subscribe)) subscribed.set(subscribe, subscribe(() => {}));
      return getSnapshot();
    },
    /** The component unmounts: React calls the unsubscribe function its subscribe returned. */
    unmount() {
      for (const unsubscribe of subscribed.values()) unsubscribe();
      subscribed.clear();
    },
  };
}

describe('React Native web view', () => {
  it('opens with Linking.openURL and passes its rejection on', async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const opened: string[] = [];
    const Linking = { openURL: async (url: string) => (url.startsWith('https:') ? void opened.push(url) : Promise.reject(new Error('No app can open ' + url))) };
    const platform = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), Linking } });
    const handle = await platform.openWebView('https://campaign.example/');
    expect(opened).toEqual(['https://campaign.example/']);
    handle.close();
    await handle.closed;
    await expect(platform.openWebView('campaign://x')).rejects.toThrow('No app can open');
    const none = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState() } });
    await expect(none.openWebView('https://campaign.example/')).rejects.toMatchObject({ code: 'WEBVIEW_UNAVAILABLE' });
  });

  it("passes Linking's rejection on without the URL React Native's message names: a crash report carries no token or verifier", async () => {
    // Before, React Native's "Could not open URL '<url>': No Activity found..." (Android; iOS "Unable to open URL: <url>")
    // reached the game with the one-time token and the verifier, both halves PKCE keeps apart, for a crash report to carry.
    vi.stubGlobal('crypto', { getRandomValues });
    const refusal = new Error();
    const Linking = { openURL: async (url: string) => Promise.reject(Object.assign(refusal, { message: `Could not open URL '${url}': No Activity found to handle Intent` })) };
    const platform = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), Linking } });
    const page = 'https://campaign.example/webview?ott=ott_secret#code_verifier=verifier_secret';
    const error = await platform.openWebView(page).catch((caught: unknown) => caught);
    expect(error).toBe(refusal); // the same rejection, passed on
    expect(refusal.message).toBe("Could not open URL '': No Activity found to handle Intent");
  });

  it('gc.webview.open with neither WebView nor Linking rejects with WebViewUnavailableError before any request (no one-time token spent, offline too)', async () => {
    const requests: string[] = [];
    const fetch = async (input: string | Request) => {
      requests.push(String(input));
      throw new TypeError('Network request failed');
    };
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), getRandomValues } });
    await expect(gc.webview.open({ campaignId: 'spring-event' })).rejects.toMatchObject({ code: 'WEBVIEW_UNAVAILABLE', message: expect.stringContaining('modules.WebView') });
    expect(requests).toEqual([]);
    await gc.dispose();
  });

  it('the react-native-webview host renders the page while open and closes on the page\'s close message', async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const React = mountedReact();
    const WebView = 'RNCWebView';
    const host = createWebViewHost({ React, WebView });
    const platform = createReactNativePlatform({ modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), WebView: host } });
    expect(host.Host({})).toBeNull();
    const handle = await platform.openWebView('https://campaign.example/?ott=1');
    const element = host.Host({}) as { type: string; props: { source: { uri: string }; onMessage(event: unknown): void } };
    expect([element.type, element.props.source.uri]).toEqual(['RNCWebView', 'https://campaign.example/?ott=1']);
    element.props.onMessage({ nativeEvent: { data: 'something else' } });
    expect(host.Host({})).not.toBeNull();
    element.props.onMessage({ nativeEvent: { data: 'close' } });
    await handle.closed;
    expect(host.Host({})).toBeNull();
  });
});

/**
 * A page open in a mounted host with a back handler: the props the host renders it with, whether its handle has
 * settled, and whether the back button is still taken.
 */
async function openPage() {
  vi.stubGlobal('crypto', { getRandomValues });
  const handlers = new Set<() => boolean>();
  const BackHandler = {
    addEventListener: (_type: 'hardwareBackPress', handler: () => boolean) => (handlers.add(handler), { remove: () => void handlers.delete(handler) }),
  };
  const host = createWebViewHost({ React: mountedReact(), WebView: 'RNCWebView', BackHandler });
  host.Host({});
  const handle = await host.open('https://campaign.example/?ott=1');
  let closed = false;
  void handle.closed.then(() => (closed = true));
  const { props } = host.Host({}) as { props: { onError?(event: unknown): void; onHttpError?(event: unknown): void } };
  /** After the host's reaction ran: the handle settled, nothing rendered, the back button the app's again. */
  const expectClosed = async () => {
    await Promise.resolve();
    expect(closed).toBe(true);
    expect(host.Host({})).toBeNull();
    expect(handlers.size).toBe(0);
  };
  return { props, expectClosed };
}

describe('React Native web view host: a page that fails to load', () => {
  it("closes it (the handle settles) instead of leaving react-native-webview's error view over the game with no way out on iOS", async () => {
    const { props, expectClosed } = await openPage();
    // react-native-webview 16.0.0 (src/WebViewShared.tsx onLoadingError) calls `onError` with the main frame's failure, e.g.
    // iOS's NSURLErrorNotConnectedToInternet (apple/RNCWebViewImpl.m didFailProvisionalNavigation).
    props.onError?.({ nativeEvent: { url: 'https://campaign.example/?ott=1', domain: 'NSURLErrorDomain', code: -1009, description: 'The Internet connection appears to be offline.' } });
    await expectClosed();
  });
});

describe('React Native web view host: a page answered with an HTTP error', () => {
  it("closes it (the handle settles, the back button goes to the app again) instead of leaving the server's error page over the game with no way out on iOS", async () => {
    const { props, expectClosed } = await openPage();
    // react-native-webview 16.0.0 calls `onHttpError` for the main frame only, with a status of 400 or more: iOS
    // apple/RNCWebViewImpl.m decidePolicyForNavigationResponse (`navigationResponse.forMainFrame`, `statusCode >= 400`),
    // Android RNCWebViewClient.java onReceivedHttpError (`request.isForMainFrame()`). The page it loaded (a CDN's 502, the
    // campaign site's 404) has no close message to post.
    props.onHttpError?.({ nativeEvent: { url: 'https://campaign.example/?ott=1', statusCode: 502, description: 'Bad Gateway' } });
    await expectClosed();
  });
});

describe('React Native web view host: mounting and the back button', () => {
  it('open() before <Host /> is rendered rejects with WebViewUnavailableError instead of a page that never shows and a handle that never settles', async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const host = createWebViewHost({ React: mountedReact(), WebView: 'RNCWebView' });
    await expect(host.open('https://campaign.example/')).rejects.toMatchObject({ code: 'WEBVIEW_UNAVAILABLE', message: expect.stringContaining('<webView.Host />') });
    host.Host({});
    await expect(host.open('https://campaign.example/')).resolves.toMatchObject({ closed: expect.any(Promise) });
  });

  it("Android's back button closes the open page (and only while one is open); a second page moves the back button to it", async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const handlers = new Set<() => boolean>();
    const BackHandler = {
      addEventListener: (_type: 'hardwareBackPress', handler: () => boolean) => (handlers.add(handler), { remove: () => void handlers.delete(handler) }),
    };
    /** What React Native does on a press: the handlers, last added first, until one returns true; else the default (leave the screen). */
    const pressBack = () => [...handlers].reverse().some((handler) => handler());
    const host = createWebViewHost({ React: mountedReact(), WebView: 'RNCWebView', BackHandler });
    host.Host({});
    const first = await host.open('https://campaign.example/one');
    const second = await host.open('https://campaign.example/two');
    await first.closed;
    expect(handlers.size).toBe(1);
    expect(pressBack()).toBe(true);
    await second.closed;
    expect(host.Host({})).toBeNull();
    expect(handlers.size).toBe(0);
    expect(pressBack()).toBe(false);
  });

  it("the Host unmounted while a page is open (the game left that screen) closes the page: its handle settles and Android's back button goes to the app again", async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const handlers = new Set<() => boolean>();
    const BackHandler = {
      addEventListener: (_type: 'hardwareBackPress', handler: () => boolean) => (handlers.add(handler), { remove: () => void handlers.delete(handler) }),
    };
    const React = mountedReact();
    const host = createWebViewHost({ React, WebView: 'RNCWebView', BackHandler });
    host.Host({});
    const handle = await host.open('https://campaign.example/?ott=1');
    let closed = false;
    void handle.closed.then(() => (closed = true));
    React.unmount();
    await Promise.resolve();
    expect(closed).toBe(true);
    expect(handlers.size).toBe(0);
    // Mounted again: nothing shows (the page's one-time link is spent), and a new page opens as usual.
    expect(host.Host({})).toBeNull();
    await expect(host.open('https://campaign.example/?ott=2')).resolves.toMatchObject({ closed: expect.any(Promise) });
  });

  it("a link that leaves the campaign's origin goes to the system browser through Linking and the page stays (iOS has no back button out of it)", async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const opened: string[] = [];
    const Linking = { openURL: async (url: string) => void opened.push(url) };
    const host = createWebViewHost({ React: mountedReact(), WebView: 'RNCWebView', Linking });
    host.Host({});
    const handle = await host.open('https://Campaign.example/boost?ott=1#code_verifier=v');
    type Props = { onShouldStartLoadWithRequest(request: { url: string; isTopFrame?: boolean }): boolean; onOpenWindow?: unknown };
    const { props } = host.Host({}) as { props: Props };
    // react-native-webview 16 src/WebViewShared.tsx: the prop gets the nativeEvent (url, isTopFrame on iOS, absent on Android) and answers at once.
    const stays = (url: string, isTopFrame?: boolean) => props.onShouldStartLoadWithRequest({ url, isTopFrame });
    expect([stays('https://campaign.example/boost?ott=1#code_verifier=v'), stays('https://campaign.example/creators/7', true), stays('https://campaign.example')]).toEqual([true, true, true]);
    // An iframe of another origin (a video) loads inside the page.
    expect(stays('https://video.example/embed/1', false)).toBe(true);
    expect(opened).toEqual([]);
    expect([stays('https://shop.example/item', true), stays('http://campaign.example/'), stays('https://campaign.example.evil.example/'), stays('https://campaign.example:8443/')]).toEqual([false, false, false, false]);
    await Promise.resolve();
    expect(opened).toEqual(['https://shop.example/item', 'http://campaign.example/', 'https://campaign.example.evil.example/', 'https://campaign.example:8443/']);
    // target=_blank: without onOpenWindow iOS loads it in this web view (so through the check above) and Android hands it to the browser.
    expect(props.onOpenWindow).toBeUndefined();
    expect(host.Host({})).not.toBeNull();
    handle.close();
    // Without Linking the page still stays: a link away is not followed rather than stranding the player on another site.
    const bare = createWebViewHost({ React: mountedReact(), WebView: 'RNCWebView' });
    bare.Host({});
    await bare.open('https://campaign.example/');
    expect((bare.Host({}) as { props: Props }).props.onShouldStartLoadWithRequest({ url: 'https://shop.example/' })).toBe(false);
  });

  it('Linking refusing the link away (no browser) is swallowed, not an unhandled rejection', async () => {
    vi.stubGlobal('crypto', { getRandomValues });
    const Linking = { openURL: () => Promise.reject(new Error('No app can open')) };
    const host = createWebViewHost({ React: mountedReact(), WebView: 'RNCWebView', Linking });
    host.Host({});
    await host.open('https://campaign.example/');
    const { props } = host.Host({}) as { props: { onShouldStartLoadWithRequest(request: { url: string }): boolean } };
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      expect(props.onShouldStartLoadWithRequest({ url: 'https://shop.example/' })).toBe(false);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it("modules.WebView given react-native-webview's WebView instead of createWebViewHost's host: createGameCampaign says what to pass (it failed only when a page opened, after its one-time token was spent)", () => {
    function WebView() {}
    const modules = { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), getRandomValues, WebView: WebView as never };
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(TypeError);
    expect(() => createGameCampaign({ ...facade, modules })).toThrow(/modules\.WebView.*createWebViewHost/);
  });
});

describe('One SDK per player, also under Fast Refresh', () => {
  it('a second createGameCampaign for a player whose first is not disposed warns (Fast Refresh re-ran the module: the first keeps recording); none after dispose(), none for another player', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const modules = { AsyncStorage: createAsyncStorageV3Module(), AppState: createFakeAppState(), getRandomValues };
      const first = createGameCampaign({ ...facade, userId: 'player-refresh', modules });
      const other = createGameCampaign({ ...facade, userId: 'player-other', modules });
      expect(warn).not.toHaveBeenCalled();
      const second = createGameCampaign({ ...facade, userId: 'player-refresh', modules });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/player-refresh.*not disposed.*dispose\(\)/);
      await Promise.all([first.dispose(), second.dispose(), other.dispose()]);
      await createGameCampaign({ ...facade, userId: 'player-refresh', modules }).dispose();
      expect(warn).toHaveBeenCalledTimes(1);
    } finally {
      warn.mockRestore();
    }
  });

  it('a third SDK for a player made while the first still runs warns, after the second was disposed (twice) and the first not', async () => {
    // Before: the adapter kept a Set of players, so disposing the second forgot the player while the first recorded on.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const modules = { AsyncStorage: createAsyncStorageV3Module(), AppState: createFakeAppState(), getRandomValues };
      const first = createGameCampaign({ ...facade, userId: 'player-mixed', modules });
      const second = createGameCampaign({ ...facade, userId: 'player-mixed', modules });
      expect(warn).toHaveBeenCalledTimes(1);
      await second.dispose();
      await second.dispose();
      const third = createGameCampaign({ ...facade, userId: 'player-mixed', modules });
      expect(warn).toHaveBeenCalledTimes(2);
      expect(String(warn.mock.calls[1]![0])).toMatch(/player-mixed.*not disposed/);
      await Promise.all([first.dispose(), third.dispose()]);
      await createGameCampaign({ ...facade, userId: 'player-mixed', modules }).dispose();
      expect(warn).toHaveBeenCalledTimes(2);
    } finally {
      warn.mockRestore();
    }
  });
  it("the default store named or not is one store: a second SDK given storageName 'game-campaign' beside one given none warns", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const modules = { AsyncStorage: createAsyncStorageV3Module(), AppState: createFakeAppState(), getRandomValues };
      const first = createGameCampaign({ ...facade, userId: 'player-named', modules });
      const second = createGameCampaign({ ...facade, userId: 'player-named', modules, storageName: 'game-campaign' });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/player-named.*not disposed/);
      await Promise.all([first.dispose(), second.dispose()]);
    } finally {
      warn.mockRestore();
    }
  });
  it("the game's own storage key given explicitly is that store: an SDK with storageKey game-campaign.<CLIENT_KEY_ID> beside one given none warns", async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      const modules = { AsyncStorage: createAsyncStorageV3Module(), AppState: createFakeAppState(), getRandomValues };
      const first = createGameCampaign({ ...facade, userId: 'player-keyed', modules });
      const own = `game-campaign.${facade.clientKey.slice(0, facade.clientKey.indexOf(':'))}`;
      const second = createGameCampaign({ ...facade, userId: 'player-keyed', modules, tracker: { storageKey: own } });
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]![0])).toMatch(/player-keyed.*not disposed/);
      // Another storageKey is another store: no warning.
      const third = createGameCampaign({ ...facade, userId: 'player-keyed', modules, tracker: { storageKey: 'game-campaign.other' } });
      expect(warn).toHaveBeenCalledTimes(1);
      await Promise.all([first.dispose(), second.dispose(), third.dispose()]);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('React Native: a second SDK while the first runs (Fast Refresh, a screen mounted twice)', () => {
  it("does not take the first's running session for a crashed one: each session recorded whole, once", async () => {
    // Before: 45 of the first's 105 s recorded (test/adapters/second-sdk.ts).
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    try {
      const recorded = new Map<string, number>();
      const service = firstCopyService(recorded);
      const fetch = async (input: string | Request, init?: RequestInit) => service(new Request(input, init));
      const modules = { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), getRandomValues };
      await secondSdkWhileFirstRuns(() => createGameCampaign({ ...facade, fetch, modules }), recorded);
    } finally {
      warn.mockRestore();
    }
  });
});

describe('gc.picker and gc.webview.open after dispose()', () => {
  it('throws, as tracker.start() does, instead of making a live picker that loads through a disposed SDK and that nothing disposes', async () => {
    const requests: string[] = [];
    const fetch = async (input: string | Request) => (requests.push(String(input)), new Response('{}', { status: 503 }));
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), getRandomValues }, picker: creatorPicker });
    await gc.dispose();
    expect(() => gc.tracker.start()).toThrow('after dispose()');
    expect(() => gc.picker({ campaignId: 'spring-event' })).toThrow(new TypeError('gc: called after dispose()'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toEqual([]);
  });

  it('gc.webview.open() rejects as gc.picker throws, spending no token and showing nothing', async () => {
    const requests: string[] = [];
    const fetch = async (input: string | Request) => (requests.push(String(input)), new Response('{}', { status: 503 }));
    const opened: string[] = [];
    const Linking = { openURL: async (url: string) => void opened.push(url) };
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), getRandomValues, Linking } });
    await gc.dispose();
    await expect(gc.webview.open()).rejects.toThrow(new TypeError('gc: called after dispose()'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(requests).toEqual([]);
    expect(opened).toEqual([]);
  });
});

describe('gc.webview.open on React Native: only an http(s) page', () => {
  it("hands Linking.openURL no address but an absolute http(s) one: another scheme would carry the token and the verifier to whatever app claims it", async () => {
    // Before, React Native had no check (adapters/shared/http-page.ts serves the browser and Cocos only): a relay
    // answering `otherapp://...` (a misconfigured proxy, a hostile answer) had Linking hand `?ott=...#code_verifier=...`,
    // both halves PKCE keeps apart, to the app registered for that scheme (Android IntentModule.openURL: ACTION_VIEW).
    const urls = ['otherapp://campaign', 'intent://campaign#Intent;scheme=otherapp;end', 'file:///sdcard/page.html', 'javascript:alert(1)', '/webview', 'HTTPS://view.example/webview'];
    const answers = [...urls];
    const fetch = async () => new Response(JSON.stringify({ data: { ott: 'ott_1', expiresIn: 60, url: answers.shift() } }));
    const opened: string[] = [];
    const Linking = { openURL: async (url: string) => void opened.push(url) };
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: createAsyncStorageV2(), AppState: createFakeAppState(), getRandomValues, Linking } });
    const outcomes: string[] = [];
    for (const url of urls) outcomes.push(await gc.webview.open().then(() => 'opened', (error: Error) => error.message));
    expect(outcomes).toEqual([
      ...urls.slice(0, -1).map((url) => `gc.webview.open: the relay answered with an unexpected body: ${JSON.stringify({ ott: 'ott_1', expiresIn: 60, url })}`),
      'opened',
    ]);
    expect(opened).toEqual([expect.stringMatching(/^HTTPS:\/\/view\.example\/webview\?ott=ott_1#code_verifier=[A-Za-z0-9_-]{43}$/)]);
    await gc.dispose();
  });
});

describe('React Native app launched in the background', () => {
  it('counts no time until the app is opened (a background fetch or push launched it; AppState announces nothing until then)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const AppState = createFakeAppState('background');
    const sent: Array<{ sessionId: string; durationSeconds: number }> = [];
    const fetch = async (_input: string | Request, init?: RequestInit) => {
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string; durationSeconds: number }> };
      sent.push(...sessions);
      return new Response(JSON.stringify({ data: { results: sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } }));
    };
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: createAsyncStorageV2(), AppState, getRandomValues } });
    expect(gc.platform.lifecycle.isInBackground?.()).toBe(true);
    await vi.advanceTimersByTimeAsync(10);
    const id = gc.tracker.start();
    await vi.advanceTimersByTimeAsync(20_000);
    AppState.set('active');
    await vi.advanceTimersByTimeAsync(3_000);
    await gc.tracker.stop();
    await gc.tracker.flush();
    expect(sent.map(({ sessionId, durationSeconds }) => ({ sessionId, durationSeconds }))).toEqual([{ sessionId: id, durationSeconds: 3 }]);
    await gc.dispose();
  });
});

describe('React Native background flush without keepalive', () => {
  it('a background flush cut by the app\'s suspension keeps the session, which is delivered once on return', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const AppState = createFakeAppState();
    const attempts: Array<{ keepalive: boolean; sessionIds: string[] }> = [];
    let suspended = false;
    // RN's fetch (whatwg-fetch over XHR) drops keepalive: the request dies with the suspended app.
    const fetch = async (_input: string | Request, init?: RequestInit) => {
      const sessionIds = (JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId);
      attempts.push({ keepalive: init?.keepalive === true, sessionIds });
      if (suspended) throw new TypeError('Network request failed');
      return new Response(JSON.stringify({ data: { results: sessionIds.map((sessionId) => ({ sessionId, status: 'SUCCESS' })) } }));
    };
    const gc = createGameCampaign({ ...facade, fetch, modules: { AsyncStorage: createAsyncStorageV2(), AppState, getRandomValues } });
    const delivered: string[] = [];
    gc.tracker.on('flushed', ({ results }) => delivered.push(...results.map((r) => r.sessionId)));
    await vi.advanceTimersByTimeAsync(10);
    const id = gc.tracker.start();
    await vi.advanceTimersByTimeAsync(3_000);
    await gc.tracker.stop();
    suspended = true;
    AppState.set('background');
    await vi.advanceTimersByTimeAsync(10);
    // An ordinary request (keepalive is for a page being left; RN's fetch would drop it anyway).
    expect(attempts.at(-1)).toEqual({ keepalive: false, sessionIds: [id] });
    expect(delivered).toEqual([]);
    suspended = false;
    AppState.set('active');
    await gc.tracker.flush();
    expect(delivered).toEqual([id]);
    await gc.dispose();
  });
});

describe('React Native: a phone asleep with the app in the background', () => {
  // RN's performance.now() is std::chrono::steady_clock (react-native ReactCommon/react/timing/primitives.h
  // HighResTimeStamp::now, bound by NativePerformance::now and JSRuntimeBindings.cpp nativePerformanceNow): on Android,
  // libc++'s CLOCK_MONOTONIC, which stops while the phone is suspended (clock_gettime(2)); and the app's timers do not
  // run there. Modelled by moving the wall clock with `vi.setSystemTime` (the fake performance.now() does not move) and
  // running no timer between the background and the return.
  const HOUR = 3_600_000;
  it('a night asleep in the background ends the session at the background (background-timeout) and the morning\'s play is a new session, dated then', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    vi.setSystemTime(Date.UTC(2026, 3, 1, 22));
    const AppState = createFakeAppState();
    const gc = createGameCampaign({ ...facade, fetch: async () => new Response('{}', { status: 503 }), modules: { AsyncStorage: createAsyncStorageV2(), AppState, getRandomValues } });
    const ends: Array<[string, number, string, string]> = [];
    gc.tracker.on('session:end', ({ reason, session }) => ends.push([reason, session.durationSeconds, session.startedAt, session.endedAt]));
    await gc.tracker.flush();
    gc.tracker.start();
    await vi.advanceTimersByTimeAsync(60_000);
    AppState.set('background');
    vi.setSystemTime(Date.now() + 8 * HOUR);
    AppState.set('active');
    await vi.advanceTimersByTimeAsync(60_000);
    await gc.tracker.stop();
    expect(ends).toEqual([
      ['background-timeout', 60, '2026-04-01T22:00:00.000Z', '2026-04-01T22:01:00.000Z'],
      ['stop', 60, '2026-04-02T06:01:00.000Z', '2026-04-02T06:02:00.000Z'],
    ]);
    await gc.dispose();
  });

  // As the same night awake gives: the session started by the background launch ends at its start having played nothing
  // (background-timeout), the morning's play is its continuation. Was one session from 22:00 to 22:01:10.
  it.each([['asleep', false], ['awake', true]])('launched in the background (a push, a background fetch), %s there for the night, then opened: the morning\'s play is dated then', async (_, awake) => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    vi.setSystemTime(Date.UTC(2026, 3, 1, 22));
    const AppState = createFakeAppState('background');
    const gc = createGameCampaign({ ...facade, fetch: async () => new Response('{}', { status: 503 }), modules: { AsyncStorage: createAsyncStorageV2(), AppState, getRandomValues } });
    const ends: Array<[string, number, string, string]> = [];
    gc.tracker.on('session:end', ({ reason, session }) => ends.push([reason, session.durationSeconds, session.startedAt, session.endedAt]));
    await gc.tracker.flush();
    gc.tracker.start(); // the app's start-up code, run by the OS's background launch
    await vi.advanceTimersByTimeAsync(10_000);
    if (awake) await vi.advanceTimersByTimeAsync(8 * HOUR);
    else vi.setSystemTime(Date.now() + 8 * HOUR);
    AppState.set('active');
    await vi.advanceTimersByTimeAsync(60_000);
    await gc.tracker.stop();
    expect(ends).toEqual([
      ['background-timeout', 0, '2026-04-01T22:00:00.000Z', '2026-04-01T22:00:00.000Z'],
      ['stop', 60, '2026-04-02T06:00:10.000Z', '2026-04-02T06:01:10.000Z'],
    ]);
    await gc.dispose();
  });

  it('a clock set back while in the background changes nothing: the session goes on (two minutes played, one session)', async () => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] });
    const AppState = createFakeAppState();
    const gc = createGameCampaign({ ...facade, fetch: async () => new Response('{}', { status: 503 }), modules: { AsyncStorage: createAsyncStorageV2(), AppState, getRandomValues } });
    const ends: Array<[string, number]> = [];
    gc.tracker.on('session:end', ({ reason, session }) => ends.push([reason, session.durationSeconds]));
    await gc.tracker.flush();
    gc.tracker.start();
    await vi.advanceTimersByTimeAsync(60_000);
    AppState.set('background');
    await vi.advanceTimersByTimeAsync(10_000);
    vi.setSystemTime(Date.now() - 2 * HOUR);
    AppState.set('active');
    await vi.advanceTimersByTimeAsync(60_000);
    await gc.tracker.stop();
    expect(ends).toEqual([['stop', 120]]);
    await gc.dispose();
  });
});
