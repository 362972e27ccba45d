import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage } from '../../core/memory-platform.js';
import type { KeyValueStorage } from '../../core/platform.js';

afterEach(() => void vi.useRealTimers());

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

describe('createMemoryStorage', () => {
  it('round-trips values through JSON, so what is read is a copy', async () => {
    const storage = createMemoryStorage();
    const value = { a: [1, 2], when: new Date(0) };
    await storage.set('k', value);
    value.a.push(3);
    const read = await storage.get<{ a: number[]; when: string }>('k');
    expect(read).toEqual({ a: [1, 2], when: '1970-01-01T00:00:00.000Z' });
    read!.a.push(4);
    expect(await storage.get('k')).toEqual({ a: [1, 2], when: '1970-01-01T00:00:00.000Z' });
  });

  it('lists keys sorted, by prefix; deletes; answers undefined for a missing key', async () => {
    const storage = createMemoryStorage();
    for (const key of ['b:2', 'a:1', 'b:1', 'c']) await storage.set(key, key);
    expect(await storage.keys()).toEqual(['a:1', 'b:1', 'b:2', 'c']);
    expect(await storage.keys('b:')).toEqual(['b:1', 'b:2']);
    await storage.delete('b:1');
    expect(await storage.get('b:1')).toBeUndefined();
    expect(storage.snapshot('b:')).toEqual({ 'b:2': 'b:2' });
  });

  it('refuses a value JSON cannot hold', async () => {
    await expect(createMemoryStorage().set('k', undefined)).rejects.toThrow('memory storage: the value for "k" is not JSON-serialisable');
  });
});

describe('clocks', () => {
  it('now() follows Date.now() plus the wall offset; monotonic() ignores the offset and never goes back', () => {
    vi.useFakeTimers();
    vi.setSystemTime(1_000_000);
    const platform = createMemoryPlatform();
    expect([platform.now(), platform.monotonic()]).toEqual([1_000_000, 1_000_000]);
    vi.advanceTimersByTime(500);
    platform.setWallClock(-60_000);
    expect([platform.now(), platform.monotonic()]).toEqual([940_500, 1_000_500]);
    vi.setSystemTime(900_000); // the host clock itself goes back
    expect(platform.monotonic()).toBe(1_000_500);
  });
});

describe('lifecycle and network', () => {
  it('background() and foreground() call their listeners once per change; unsubscribing stops them', () => {
    const platform = createMemoryPlatform();
    const calls: string[] = [];
    const off = platform.lifecycle.onBackground(() => calls.push('bg'));
    platform.lifecycle.onForeground(() => calls.push('fg'));
    platform.lifecycle.onUnload?.(() => calls.push('unload'));
    platform.background();
    platform.background();
    expect(platform.inBackground).toBe(true);
    platform.foreground();
    platform.foreground();
    off();
    platform.background();
    platform.unload();
    expect(calls).toEqual(['bg', 'fg', 'unload']);
  });

  it('setOnline() tells listeners of each change; offline, fetch fails as a connection error', async () => {
    const fetch = vi.fn(async () => new Response('ok'));
    const platform = createMemoryPlatform({ fetch });
    const changes: boolean[] = [];
    platform.network.onChange((online) => changes.push(online));
    platform.setOnline(false);
    platform.setOnline(false);
    expect(platform.network.isOnline()).toBe(false);
    await expect(platform.fetch('https://x.example/')).rejects.toThrow(new TypeError('Failed to fetch: the memory platform is offline'));
    platform.setOnline(true);
    expect(await (await platform.fetch('https://x.example/')).text()).toBe('ok');
    expect(changes).toEqual([false, true]);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('without a fetch option, fetch fails as a connection error', async () => {
    await expect(createMemoryPlatform().fetch('https://x.example/')).rejects.toThrow('Failed to fetch: the memory platform was given no fetch');
  });
});

describe('lock', () => {
  it('is exclusive across every platform on one store, also through another platform’s storage view', async () => {
    const storage = createMemoryStorage();
    const a = createMemoryPlatform({ storage });
    const b = createMemoryPlatform({ storage: a.storage });
    const other = createMemoryPlatform();
    const order: string[] = [];
    let releaseA!: () => void;
    const first = a.lock('flush', () => new Promise<string>((resolve) => (releaseA = () => resolve('a'))).then((v) => (order.push('a done'), v)));
    const second = b.lock('flush', async () => (order.push('b runs'), 'b'));
    const unrelatedName = a.lock('other', async () => (order.push('other name runs'), 'x'));
    const unrelatedStore = other.lock('flush', async () => (order.push('other store runs'), 'y'));
    await Promise.all([unrelatedName, unrelatedStore]);
    expect(order).toEqual(['other name runs', 'other store runs']);
    releaseA();
    expect(await Promise.all([first, second])).toEqual(['a', 'b']);
    expect(order).toEqual(['other name runs', 'other store runs', 'a done', 'b runs']);
  });

  it('a task that fails rejects its caller and releases the lock', async () => {
    const platform = createMemoryPlatform();
    await expect(platform.lock('l', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await platform.lock('l', async () => 'next')).toBe('next');
  });
});

describe('crash', () => {
  it('fails the crashed platform’s storage, fetches in flight and locks, releases its locks, and spares the others', async () => {
    const storage = createMemoryStorage();
    let answer!: (response: Response) => void;
    const dying = createMemoryPlatform({ storage, fetch: () => new Promise((resolve) => (answer = resolve)) });
    const survivor = createMemoryPlatform({ storage });
    const heard: string[] = [];
    dying.lifecycle.onBackground(() => heard.push('bg'));
    const held = dying.lock('alive', () => new Promise(() => undefined));
    const waiting = survivor.lock('alive', async () => 'taken over');
    const inFlight = dying.fetch('https://x.example/');
    await dying.storage.set('k', 1);
    dying.crash();
    answer(new Response('late'));
    await expect(inFlight).rejects.toThrow('memory platform: the process crashed');
    await expect(held).rejects.toThrow('memory platform: the process crashed');
    expect(await waiting).toBe('taken over');
    await expect(dying.storage.set('k', 2)).rejects.toThrow('memory platform: the process crashed');
    await expect(dying.lock('x', async () => 1)).rejects.toThrow('memory platform: the process crashed');
    dying.background();
    expect(heard).toEqual([]);
    expect(await survivor.storage.get('k')).toBe(1);
  });
});

describe('calls in flight', () => {
  it('a storage call still running at the crash rejects; one that settled before keeps its answer', async () => {
    const store = createMemoryStorage();
    await store.set('k', 'v');
    let finishWrite!: () => void;
    const slowWrites: KeyValueStorage = { ...store, set: () => new Promise<void>((resolve) => (finishWrite = resolve)) };
    const platform = createMemoryPlatform({ storage: slowWrites });
    const read = await platform.storage.get('k');
    const write = platform.storage.set('k', 'w');
    platform.crash();
    finishWrite();
    await expect(write).rejects.toThrow('memory platform: the process crashed');
    expect(read).toBe('v');
  });

  it('a storage that throws synchronously rejects the call rather than throwing at the caller', async () => {
    const throwing: KeyValueStorage = {
      ...createMemoryStorage(),
      get: () => {
        throw new Error('broken store');
      },
    };
    const call = createMemoryPlatform({ storage: throwing }).storage.get('k');
    await expect(call).rejects.toThrow('broken store');
  });
});

describe('crypto and web view', () => {
  it('sha256 is SHA-256', async () => {
    const digest = await createMemoryPlatform().crypto.sha256(new TextEncoder().encode('abc'));
    expect(hex(digest)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('randomBytes come from the random option, else from a PRNG seeded per platform', async () => {
    expect(Array.from(await createMemoryPlatform({ random: () => 0.5 }).crypto.randomBytes(4))).toEqual([128, 128, 128, 128]);
    const [a, b] = [createMemoryPlatform(), createMemoryPlatform()];
    const [bytesA, bytesB] = [await a.crypto.randomBytes(16), await b.crypto.randomBytes(16)];
    expect(bytesA).toHaveLength(16);
    expect(hex(bytesA)).not.toBe(hex(bytesB));
    expect(hex(await a.crypto.randomBytes(16))).not.toBe(hex(bytesA));
  });

  it('openWebView records the URLs it was asked to open', async () => {
    const platform = createMemoryPlatform();
    await platform.openWebView('https://webview.example/?ott=1');
    await platform.openWebView('https://webview.example/?ott=2', { title: 'Boost' });
    expect(platform.opened).toEqual(['https://webview.example/?ott=1', 'https://webview.example/?ott=2']);
  });

  it('openWebView returns a handle whose closed settles on close() or on the player closing it', async () => {
    const platform = createMemoryPlatform();
    const first = await platform.openWebView('https://webview.example/?ott=1');
    const second = await platform.openWebView('https://webview.example/?ott=2');
    const settled: string[] = [];
    void first.closed.then(() => settled.push('first'));
    void second.closed.then(() => settled.push('second'));
    platform.closeWebView();
    await Promise.resolve();
    expect(settled).toEqual(['second']);
    first.close();
    await Promise.resolve();
    expect(settled).toEqual(['second', 'first']);
  });
});
