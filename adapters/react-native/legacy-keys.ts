/**
 * What 3.x calls its legacy store is 2.x's storage (3.1.1 `createAsyncStorage.native.ts`: "the legacy (v2)
 * AsyncStorage implementation"). The SDK's keys land there from SDK 0.1.0 on 3.x (its guide passed the default
 * export) and from any release on 2.x (an app that later updates AsyncStorage to 3.x); with the 3.x module the SDK
 * uses its own store. Moving those keys keeps the sessions they hold queued or recording: they are recovered and
 * delivered after the upgrade. docs/decisions.md, "React Native AsyncStorage".
 */
import type { AsyncStorageLike } from './types.js';

/**
 * Moves every key under one of `prefixes()` (asked for once the legacy store's keys are read) from `legacy` to `own`: copied (unless `own` already has it: a copy from
 * a move cut short), then removed from `legacy`. A failure leaves the rest in `legacy`, moved on the next start; the
 * SDK works on `own` meanwhile. Nothing to do without a legacy store (2.x; the caller passes none when both are one
 * store: 3.1.1 `createAsyncStorage.native.ts` falls back to the legacy store on visionOS).
 */
export async function moveLegacyKeys(legacy: AsyncStorageLike | undefined, own: AsyncStorageLike, prefixes: () => readonly string[]): Promise<void> {
  if (!legacy) return;
  try {
    const keys = await legacy.getAllKeys();
    // Asked for after an await: the caller names its prefixes once it has checked its options (createGameCampaign).
    const wanted = prefixes();
    // Filtered first: a closure over the loop's own `key` would make Babel wrap the loop body in a function.
    for (const key of keys.filter((key) => wanted.some((prefix) => key.startsWith(prefix)))) {
      const value = await legacy.getItem(key);
      const present = await own.getItem(key);
      if (value !== null && value !== undefined && (present === null || present === undefined)) await own.setItem(key, value);
      await legacy.removeItem(key);
    }
  } catch {
    // assumed: a legacy store that cannot be read now may be readable on the next start; nothing is lost.
  }
}
