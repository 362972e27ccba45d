/**
 * The device's storage in a contract scenario: one {@link createMemoryStorage} that outlives every process,
 * wrapped so a scenario can damage what it holds (`storage: "truncate"`) or fill the disk (`"unwritable"`).
 */
import { createMemoryStorage, type MemoryStorage } from '../../core/memory-platform.js';
import type { KeyValueStorage } from '../../core/platform.js';

/** What `storage: "newer"` adds to every running record (the C# runner adds the same: cs-runner/ScenarioRunner.cs `NewerFields`). */
export const NEWER_FIELDS = { tier: 'gold', durationSeconds: 99999, nested: { a: [1, 2] } };

/** The `sessionId` field `storage: "foreign-id"` writes into every running record (its key still names its own session). */
export const FOREIGN_SESSION_ID = '0e5a4c7e-3b1f-4d2a-9c8b-7a6f5e4d3c2b';

/** The device's store and its switches. */
export interface DeviceStorage extends KeyValueStorage {
  /**
   * Damages every stored value as a power loss mid-write does on a text store (localStorage, Cocos'
   * `sys.localStorage`, React Native's AsyncStorage: adapters/shared/string-storage.ts): each JSON text is cut to
   * half its length, so reading it fails with the `SyntaxError` of `JSON.parse`, as those adapters' `get` does.
   * A later write of the key replaces the damaged text.
   */
  truncate(): void;
  /**
   * Every running record gains `fields` (default: what a newer SDK or a damaged file may hold, `NEWER_FIELDS`; FORMAT.md `"newer"`, `"foreign-id"`)
   * and loses the fields named in `remove` (FORMAT.md `{"set": ..., "remove": ...}`).
   */
  addNewerFields(fields?: Record<string, unknown>, remove?: string[]): void;
  /** Every running record moved to the key `{player prefix}running:{sessionId}` (FORMAT.md `{"rename": ...}`; a scenario holds one record then). */
  renameRunning(sessionId: string): void;
  /** Every running record replaced by `value` (FORMAT.md `{"replace": ...}`: JSON that is no record, an array or a string). */
  replaceRunning(value: unknown): void;
  /** From now on every write and delete fails as on a full disk (`false`), or works again (`true`). Reads still work. */
  setWritable(writable: boolean): void;
  /** Every key, sorted (damaged ones included). */
  allKeys(): Promise<string[]>;
}

/**
 * A store for one device; `onWrite` hears each key written. assumed: the failure of a full disk is what browsers raise for a full quota (a
 * `QuotaExceededError`); the tracker sees only that the call rejected.
 */
export function createDeviceStorage(onWrite: (key: string) => void = () => {}): DeviceStorage {
  const store: MemoryStorage = createMemoryStorage();
  /** Damaged keys and the text they now hold. */
  const damaged = new Map<string, string>();
  let writable = true;
  const refuseWrite = (key: string) => {
    if (!writable) throw Object.assign(new Error(`device storage: the disk is full, "${key}" was not written`), { name: 'QuotaExceededError' });
    damaged.delete(key);
  };
  return {
    async get<T>(key: string) {
      const text = damaged.get(key);
      return text === undefined ? store.get<T>(key) : (JSON.parse(text) as T);
    },
    async set(key, value) {
      refuseWrite(key);
      await store.set(key, value);
      onWrite(key);
    },
    async delete(key) {
      refuseWrite(key);
      await store.delete(key);
    },
    keys: (prefix) => store.keys(prefix),
    allKeys: () => store.keys(''),
    truncate() {
      for (const [key, value] of Object.entries(store.snapshot())) {
        const text = damaged.get(key) ?? JSON.stringify(value);
        damaged.set(key, text.slice(0, Math.floor(text.length / 2)));
      }
    },
    addNewerFields(fields = NEWER_FIELDS, remove = []) {
      for (const [key, value] of Object.entries(store.snapshot()))
        if (/(^|:)running:/.test(key) && value && typeof value === 'object' && !damaged.has(key)) {
          const record: Record<string, unknown> = { ...value, ...fields };
          for (const field of remove) delete record[field];
          void store.set(key, record);
        }
    },
    renameRunning(sessionId) {
      for (const [key, value] of Object.entries(store.snapshot()))
        if (/(^|:)running:/.test(key) && !damaged.has(key)) {
          void store.delete(key);
          void store.set(key.slice(0, key.lastIndexOf('running:') + 'running:'.length) + sessionId, value);
        }
    },
    replaceRunning(value) {
      for (const key of Object.keys(store.snapshot())) if (/(^|:)running:/.test(key) && !damaged.has(key)) void store.set(key, value);
    },
    setWritable(next) {
      writable = next;
    },
  };
}
