/**
 * Old runtimes: the client entries as built (dist: `/cocos`, `/react-native`, `/browser` and the IIFE, with the
 * dependencies they load) run a tracker story in an ES2020 realm (es2020-realm.ts: every newer built-in deleted),
 * and every file they consist of parses as ES2020. JavaScriptCore before iOS 15.4 (old iPhones, WeChat on iOS)
 * is such a runtime. The CommonJS builds stand for the ESM ones (one rollup pass, same code); the ESM graphs
 * are parsed too. Runs after the build (`npm test` builds first).
 */
import { webcrypto } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runInContext, type Context } from 'node:vm';
import { parse } from 'acorn';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { IIFE, IIFE_SIBLINGS } from '../../scripts/entries.mjs';
import { createFakeCc } from '../adapters/fakes/fake-cc.js';
import { createFakeWx } from '../adapters/fakes/fake-wx.js';
import { createAsyncStorageV2, createFakeAppState, createFakeNetInfo } from '../adapters/fakes/fake-react-native.js';
import { builtInsLeft, createEs2020Realm, NEWER_THAN_ES2020, realmRequire } from './es2020-realm.js';

const ROOT = join(import.meta.dirname, '../..');
const RELAY_URL = 'https://game.example/campaign';
const CAMPAIGN = 'spring-event';
const FAKE_TIMERS: Parameters<typeof vi.useFakeTimers>[0] = { toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'performance'] };

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist/cocos.cjs'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
});
afterEach(() => {
  vi.useRealTimers();
});

/** The host APIs every runtime here has, calling the test's (fakeable) timers and clock at call time. */
function hostGlobals(): Record<string, unknown> {
  return {
    console,
    setTimeout: (...args: Parameters<typeof setTimeout>) => setTimeout(...args),
    clearTimeout: (id: ReturnType<typeof setTimeout>) => clearTimeout(id),
    setInterval: (...args: Parameters<typeof setInterval>) => setInterval(...args),
    clearInterval: (id: ReturnType<typeof setInterval>) => clearInterval(id),
    queueMicrotask,
    performance: { now: () => performance.now() },
    TextEncoder,
    TextDecoder,
  };
}

/** A realm, its clock the test's (so fake timers move its `Date.now` too). */
function realm(globals: Record<string, unknown>): Context {
  const context = createEs2020Realm({ ...hostGlobals(), ...globals });
  (runInContext('Date', context) as DateConstructor).now = () => Date.now();
  return context;
}

/** The relay: records what arrives and answers SUCCESS; offline, requests fail as a fetch does. */
function recordingRelay() {
  const delivered: Array<{ sessionId: string; durationSeconds: number }> = [];
  let online = true;
  const answer = (url: string, body: unknown): { status: number; text: string } => {
    if (!online) throw new TypeError('Network request failed');
    if (!url.startsWith(RELAY_URL)) return { status: 404, text: '{"code":"NOT_FOUND"}' };
    const { sessions } = JSON.parse(String(body)) as { sessions: Array<{ sessionId: string; durationSeconds: number }> };
    delivered.push(...sessions.map(({ sessionId, durationSeconds }) => ({ sessionId, durationSeconds })));
    return { status: 200, text: JSON.stringify({ data: { results: sessions.map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' })) } }) };
  };
  return {
    delivered,
    setOnline: (next: boolean) => void (online = next),
    /** A `fetch` whose responses are objects of `context`'s realm. */
    fetchIn(context: Context) {
      const response = runInContext(
        `(status, text) => ({ ok: status >= 200 && status < 300, status, statusText: '', url: '', headers: { get: () => null, has: () => false, forEach() {} }, text: async () => text, json: async () => JSON.parse(text) })`,
        context,
      ) as (status: number, text: string) => unknown;
      return async (input: string | { url: string }, init?: { body?: unknown }) => {
        const { status, text } = answer(typeof input === 'string' ? input : input.url, init?.body);
        return response(status, text);
      };
    },
    /** The in-process server fake-wx's `wx.request` calls. */
    handler: async (request: Request) => {
      const { status, text } = answer(request.url, await request.text());
      return new Response(text, { status });
    },
  };
}

type Relay = ReturnType<typeof recordingRelay>;
interface GameLike {
  tracker: { start(options: { campaignId: string }): string; stop(): Promise<unknown>; flush(): Promise<unknown> };
  dispose(): Promise<void>;
}
/** One start of the game: its SDK, made in a realm, and the host's switches. */
interface Run {
  gc: GameLike;
  background(): void;
  foreground(): void;
  setOnline(online: boolean): void;
}
/** A device whose storage outlives a start. */
type Device = (relay: Relay) => Run;

const options = { clientKey: 'ck_key:secret', relay: { url: RELAY_URL }, userId: 'player-1' };

/**
 * play 5 s, 10 s in the background, 3 s more: delivered (as two sessions on a page, whose hiding may be final); 4 s
 * offline: kept; 20 s when the game closes; next start delivers both.
 */
async function trackerStory(device: Device): Promise<void> {
  vi.useFakeTimers(FAKE_TIMERS);
  const relay = recordingRelay();
  const first = device(relay);
  await vi.advanceTimersByTimeAsync(100);
  const a = first.gc.tracker.start({ campaignId: CAMPAIGN });
  await vi.advanceTimersByTimeAsync(5_000);
  first.background();
  await vi.advanceTimersByTimeAsync(10_000);
  first.foreground();
  await vi.advanceTimersByTimeAsync(3_000);
  await first.gc.tracker.stop();
  const flushA = first.gc.tracker.flush();
  await vi.advanceTimersByTimeAsync(1_000);
  await flushA;
  // 8 s in all: one session where a background pauses it, or two on a page (hidden: sent, then continued).
  const deliveredA = [...relay.delivered];
  expect(deliveredA[0]!.sessionId).toBe(a);
  expect(deliveredA.reduce((total, session) => total + session.durationSeconds, 0)).toBe(8);

  first.setOnline(false);
  const b = first.gc.tracker.start({ campaignId: CAMPAIGN });
  await vi.advanceTimersByTimeAsync(4_000);
  await first.gc.tracker.stop();
  const flushB = first.gc.tracker.flush();
  await vi.advanceTimersByTimeAsync(1_000);
  await flushB;
  const c = first.gc.tracker.start({ campaignId: CAMPAIGN });
  await vi.advanceTimersByTimeAsync(20_000);
  const closing = first.gc.dispose();
  await vi.advanceTimersByTimeAsync(1_000);
  await closing;
  expect(relay.delivered).toEqual(deliveredA);

  const second = device(relay);
  second.setOnline(true);
  await vi.advanceTimersByTimeAsync(2_000);
  const flush = second.gc.tracker.flush();
  await vi.advanceTimersByTimeAsync(1_000);
  await flush;
  expect([...relay.delivered].sort((x, y) => x.sessionId.localeCompare(y.sessionId))).toEqual(
    [
      ...deliveredA,
      { sessionId: b, durationSeconds: 4 },
      { sessionId: c, durationSeconds: 20 },
    ].sort((x, y) => x.sessionId.localeCompare(y.sessionId)),
  );
  const closed = second.gc.dispose();
  await vi.advanceTimersByTimeAsync(1_000);
  await closed;
}

/** Each file a realm evaluated, as its path under the package and whether it parses as ES2020 script. */
function notEs2020(files: string[]): string[] {
  return files.filter((file) => {
    try {
      parse(readFileSync(file, 'utf8'), { ecmaVersion: 2020, sourceType: 'script' });
      return false;
    } catch {
      return true;
    }
  });
}

/** A Cocos device (native or WeChat mini-game) running dist/cocos.cjs; `loaded` gets each start's list of files it evaluated. */
function cocosDevice(runtime: 'native' | 'wechat', loaded: string[][]): Device {
  const table = new Map<string, string>();
  const wxTable = new Map<string, unknown>();
  return (relay) => {
    const cc = createFakeCc(runtime, table);
    cc.start();
    const context = realm({});
    const sdk = realmRequire(context);
    const { createGameCampaign } = sdk.require(join(ROOT, 'dist/cocos.cjs'));
    const host = { background: () => cc.emit(cc.Game.EVENT_HIDE), foreground: () => cc.emit(cc.Game.EVENT_SHOW) };
    let gc: GameLike;
    if (runtime === 'native') {
      gc = createGameCampaign({ ...options, cc, fetch: relay.fetchIn(context), getRandomValues: (array: Uint8Array) => webcrypto.getRandomValues(array) });
      loaded.push(sdk.loaded);
      return { gc, ...host, setOnline: relay.setOnline };
    }
    const fake = createFakeWx(wxTable, relay.handler);
    gc = createGameCampaign({ ...options, cc, wx: fake.wx, XMLHttpRequest: fake.XMLHttpRequest });
    loaded.push(sdk.loaded);
    return { gc, ...host, setOnline: (online) => (relay.setOnline(online), fake.setOnline(online)) };
  };
}

/** A page's globals for a realm that is the window: document, navigator, IndexedDB, WebCrypto, window events. */
function pageGlobals(idb: IDBFactory) {
  const document = Object.assign(new EventTarget(), { visibilityState: 'visible' });
  const events = new EventTarget();
  const navigator = { onLine: true };
  const globals = {
    document,
    navigator,
    crypto: webcrypto,
    indexedDB: idb,
    IDBKeyRange,
    AbortController,
    Event,
    EventTarget,
    addEventListener: events.addEventListener.bind(events),
    removeEventListener: events.removeEventListener.bind(events),
    dispatchEvent: events.dispatchEvent.bind(events),
  };
  const setHidden = (hidden: boolean) => {
    document.visibilityState = hidden ? 'hidden' : 'visible';
    document.dispatchEvent(new Event('visibilitychange'));
  };
  const setOnline = (online: boolean) => {
    navigator.onLine = online;
    events.dispatchEvent(new Event(online ? 'online' : 'offline'));
  };
  return { globals, setHidden, setOnline };
}

/** A browser page running `load(context)`'s `createGameCampaign` (dist/browser.cjs or the IIFE). */
function browserDevice(load: (context: Context) => { createGameCampaign(options: object): GameLike }): Device {
  const idb = new IDBFactory(); // the page's origin: its database outlives a reload
  return (relay) => {
    const page = pageGlobals(idb);
    const context = realm(page.globals);
    context['fetch'] = relay.fetchIn(context);
    const gc = load(context).createGameCampaign({ ...options, browser: { dbName: 'game' } });
    return {
      gc,
      background: () => page.setHidden(true),
      foreground: () => page.setHidden(false),
      setOnline: (online) => (relay.setOnline(online), page.setOnline(online)),
    };
  };
}

describe('an ES2020 realm', () => {
  it('has none of the newer built-ins (the deletion worked), and still the ES2020 ones', () => {
    const context = realm({});
    expect(builtInsLeft(context)).toEqual([]);
    expect(runInContext('[typeof [].at, typeof Object.hasOwn, typeof "".replaceAll, typeof structuredClone, typeof Promise.allSettled, typeof globalThis, typeof "".matchAll]', context)).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
      'function',
      'object',
      'function',
    ]);
    expect(() => runInContext('[1, 2].at(-1)', context)).toThrow('[1,2].at is not a function'); // the realm's own TypeError
    expect(NEWER_THAN_ES2020.length).toBeGreaterThan(50);
  });
});

describe('the built client entries in an ES2020 realm: the tracker story, and ES2020 syntax throughout', () => {
  it('dist/cocos.cjs on a native build', async () => {
    const loaded: string[][] = [];
    await trackerStory(cocosDevice('native', loaded));
    expect(notEs2020(loaded.flat())).toEqual([]);
  });

  it('dist/cocos.cjs on a WeChat mini-game (its XHR fetch loaded on the first request)', async () => {
    const loaded: string[][] = [];
    await trackerStory(cocosDevice('wechat', loaded));
    expect(loaded.flat().some((file) => file.endsWith('xhr-request.cjs'))).toBe(true);
    expect(notEs2020(loaded.flat())).toEqual([]);
  });

  it('dist/react-native.cjs on Hermes-like globals (no crypto)', async () => {
    const disk = new Map<string, Map<string, string>>();
    const loaded: string[][] = [];
    await trackerStory((relay) => {
      const AppState = createFakeAppState();
      const NetInfo = createFakeNetInfo();
      const context = realm({ AbortController }); // React Native has one
      const sdk = realmRequire(context);
      const { createGameCampaign } = sdk.require(join(ROOT, 'dist/react-native.cjs'));
      const modules = { AsyncStorage: createAsyncStorageV2(disk), AppState, NetInfo, getRandomValues: <T>(array: T) => webcrypto.getRandomValues(array as Uint8Array) as T };
      const gc = createGameCampaign({ ...options, modules, fetch: relay.fetchIn(context) });
      loaded.push(sdk.loaded);
      return {
        gc,
        background: () => (AppState.set('inactive'), AppState.set('background')),
        foreground: () => AppState.set('active'),
        setOnline: (online) => (relay.setOnline(online), NetInfo.set({ isConnected: online, isInternetReachable: online })),
      };
    });
    expect(notEs2020(loaded.flat())).toEqual([]);
  });

  it('dist/browser.cjs on a page (IndexedDB storage, idb-keyval included)', async () => {
    const loaded: string[][] = [];
    await trackerStory(
      browserDevice((context) => {
        const sdk = realmRequire(context);
        loaded.push(sdk.loaded);
        return sdk.require(join(ROOT, 'dist/browser.cjs'));
      }),
    );
    expect(loaded.flat().some((file) => file.includes('idb-keyval'))).toBe(true);
    expect(notEs2020(loaded.flat())).toEqual([]);
  });

  it('the SHA-256 fallback loads and hashes there: @noble/hashes calls Object.hasOwn as it loads, replaced in the build', () => {
    const context = realm({});
    runInContext(readFileSync(join(ROOT, IIFE_SIBLINGS.sha256.file), 'utf8'), context, { filename: IIFE_SIBLINGS.sha256.file });
    const hex = runInContext("Array.from(GameCampaignSha256.sha256(new Uint8Array([97, 98, 99])), (b) => b.toString(16).padStart(2, '0')).join('')", context);
    expect(hex).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    const vendor = join(ROOT, 'dist/modules/vendor/@noble/hashes');
    expect(readdirSync(vendor).filter((file) => readFileSync(join(vendor, file), 'utf8').includes('Object.hasOwn('))).toEqual([]);
  });

  it('the IIFE <script> bundle on a page', async () => {
    await trackerStory(
      browserDevice((context) => {
        runInContext(readFileSync(join(ROOT, IIFE.file), 'utf8'), context, { filename: IIFE.file });
        // This page has no Web Locks, and no `<script src>` the bundle could load its siblings from (a vm realm): it
        // includes them itself, as docs/guides/browser.md tells an inlined bundle to (the lease lock is needed here).
        for (const sibling of Object.values(IIFE_SIBLINGS)) runInContext(readFileSync(join(ROOT, sibling.file), 'utf8'), context, { filename: sibling.file });
        return context[IIFE.name];
      }),
    );
    expect(notEs2020([join(ROOT, IIFE.file), ...Object.values(IIFE_SIBLINGS).map((sibling) => join(ROOT, sibling.file))])).toEqual([]);
  });
});

/** Every file the ESM build of `entry` imports, statically or with `import()`, dependencies included. */
function esmGraph(entry: string): string[] {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const program = parse(readFileSync(file, 'utf8'), { ecmaVersion: 'latest', sourceType: 'module' });
    const specifiers: string[] = [];
    const walk = (node: any): void => {
      if (!node || typeof node.type !== 'string') return;
      if (/^(Import|ExportNamed|ExportAll)Declaration$/.test(node.type) && node.source) specifiers.push(node.source.value);
      if (node.type === 'ImportExpression' && node.source.type === 'Literal') specifiers.push(node.source.value);
      for (const value of Object.values(node)) for (const child of Array.isArray(value) ? value : [value]) if (child && typeof child === 'object') walk(child);
    };
    walk(program);
    // A bare specifier resolves alike from here and from dist/ (one node_modules), with the `import` condition.
    for (const specifier of specifiers) visit(specifier.startsWith('.') ? resolve(dirname(file), specifier) : fileURLToPath(import.meta.resolve(specifier)));
  };
  visit(join(ROOT, entry));
  return [...seen];
}

describe('the ESM builds of the client entries', () => {
  it.each(['dist/cocos.js', 'dist/react-native.js', 'dist/browser.js', 'dist/index.js'])('%s and all it imports parse as ES2020 (but the known dependency files)', (entry) => {
    const failing = esmGraph(entry)
      .filter((file) => {
        try {
          parse(readFileSync(file, 'utf8'), { ecmaVersion: 2020, sourceType: 'module' });
          return false;
        } catch {
          return true;
        }
      })
      .map((file) => (file.includes('/node_modules/') ? file.slice(file.lastIndexOf('node_modules/')) : relative(ROOT, file)));
    // @noble/hashes (ES2022 class fields in its package) is in dist/ lowered, as dist/modules/vendor/: no exception.
    expect(failing).toEqual([]);
  });
});
