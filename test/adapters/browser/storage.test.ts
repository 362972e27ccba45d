// @vitest-environment happy-dom
// The IndexedDB storage on fake-indexeddb: round trip, prefix listing, the atomic update two "tabs" share,
// and the fallback to memory with one clear error when IndexedDB is missing or refuses to open.
import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createIdbStorage, StorageUnavailableError } from '../../../adapters/browser/storage.js';

let dbCount = 0;
const freshDb = () => `test-db-${++dbCount}`;
afterEach(() => void vi.unstubAllGlobals());

describe('createIdbStorage on IndexedDB', () => {
  it('round-trips JSON values, overwrites and deletes, and persists', async () => {
    const onError = vi.fn();
    const dbName = freshDb();
    const storage = createIdbStorage({ dbName, onError });
    expect(await storage.get('missing')).toBeUndefined();
    await storage.set('a', { n: 1, list: [1, 'two', null], nested: { ok: true } });
    await storage.set('b', 'text');
    await storage.set('b', 'replaced');
    expect(await storage.get('a')).toEqual({ n: 1, list: [1, 'two', null], nested: { ok: true } });
    expect(await storage.get('b')).toBe('replaced');
    await storage.delete('a');
    await storage.delete('never-there');
    expect(await storage.get('a')).toBeUndefined();
    expect(await storage.persistent()).toBe(true);
    // A second instance on the same database (the next page load) reads what the first wrote.
    expect(await createIdbStorage({ dbName, onError }).get('b')).toBe('replaced');
    expect(onError).not.toHaveBeenCalled();
  });

  it('keeps its data in a database and store of its own', async () => {
    const mine = createIdbStorage({ dbName: freshDb(), storeName: 'campaign' });
    const other = createIdbStorage({ dbName: freshDb(), storeName: 'campaign' });
    await mine.set('k', 1);
    expect(await other.get('k')).toBeUndefined();
    expect((await indexedDB.databases()).map((db) => db.name)).toEqual(expect.arrayContaining([expect.stringMatching(/^test-db-/)]));
  });

  it('lists keys by prefix, in key order, and every key without one', async () => {
    const storage = createIdbStorage({ dbName: freshDb() });
    for (const key of ['gc:queue:000000000002:b', 'gc:running:x', 'gc:queue:000000000001:a', 'gc:queued', 'other:queue:1', 'gc:queue:']) await storage.set(key, 1);
    expect(await storage.keys('gc:queue:')).toEqual(['gc:queue:', 'gc:queue:000000000001:a', 'gc:queue:000000000002:b']);
    expect(await storage.keys('gc:running:')).toEqual(['gc:running:x']);
    expect(await storage.keys('nothing:')).toEqual([]);
    expect(await storage.keys()).toEqual(['gc:queue:', 'gc:queue:000000000001:a', 'gc:queue:000000000002:b', 'gc:queued', 'gc:running:x', 'other:queue:1']);
  });

  it('updates atomically across two connections to one database (two tabs)', async () => {
    const dbName = freshDb();
    const tabs = [createIdbStorage({ dbName }), createIdbStorage({ dbName })];
    await Promise.all(Array.from({ length: 40 }, (_, i) => tabs[i % 2]!.update<number>('counter', (n) => (n ?? 0) + 1)));
    expect(await tabs[0]!.get('counter')).toBe(40);
    expect(await tabs[1]!.update('counter', () => undefined)).toBeUndefined();
    expect(await tabs[0]!.keys()).toEqual([]);
  });
});

describe('createIdbStorage without IndexedDB', () => {
  const failures: Array<[string, () => unknown]> = [
    ['missing (no indexedDB global)', () => undefined],
    ['open() throws (storage blocked: SecurityError)', () => ({ open: () => { throw new DOMException('access denied', 'SecurityError'); } })],
    [
      'the open request fails (private mode: InvalidStateError)',
      () => ({
        open() {
          const request = { error: new DOMException('A mutation operation was attempted on a database that did not allow mutations.', 'InvalidStateError') } as Record<string, unknown>;
          setTimeout(() => (request['onerror'] as () => void)());
          return request;
        },
      }),
    ],
  ];

  it.each(failures)('%s: reports one StorageUnavailableError and keeps working in memory', async (_, factory) => {
    vi.stubGlobal('indexedDB', factory());
    const onError = vi.fn();
    const storage = createIdbStorage({ dbName: freshDb(), onError });
    await Promise.all([storage.set('gc:queue:1', { a: 1 }), storage.set('gc:queue:2', { b: 2 }), storage.set('gc:running:x', 3)]);
    const value = (await storage.get<{ a: number }>('gc:queue:1'))!;
    value.a = 99; // a copy, as from a real store
    expect(await storage.get('gc:queue:1')).toEqual({ a: 1 });
    expect(await storage.keys('gc:queue:')).toEqual(['gc:queue:1', 'gc:queue:2']);
    await storage.delete('gc:queue:1');
    expect(await storage.keys()).toEqual(['gc:queue:2', 'gc:running:x']);
    expect(await storage.update<number>('n', (n) => (n ?? 0) + 1)).toBe(1);
    expect(await storage.persistent()).toBe(false);
    expect(onError).toHaveBeenCalledTimes(1);
    const error = onError.mock.calls[0]![0] as StorageUnavailableError;
    expect(error).toBeInstanceOf(StorageUnavailableError);
    expect(error.name).toBe('StorageUnavailableError');
    expect(error.message).toMatch(/IndexedDB is unavailable .*kept in memory/);
    expect(error.cause).toBeDefined();
  });

  it('warns on the console when the game gave no onError', async () => {
    vi.stubGlobal('indexedDB', undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await createIdbStorage({ dbName: freshDb() }).get('x');
    expect(warn).toHaveBeenCalledWith(expect.any(StorageUnavailableError));
    warn.mockRestore();
  });
});
