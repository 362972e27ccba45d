/**
 * SDK 0.1.0 on AsyncStorage 3.x kept its data in the app's legacy shared store (its guide passed the default
 * export); later versions use their own store. Moving those keys keeps the sessions it had queued or was
 * recording: they are recovered and delivered after the upgrade. docs/decisions.md, "React Native AsyncStorage".
 */
import type { AsyncStorageLike } from './types.js';

/**
 * Moves every key under `prefix` from `legacy` to `own`: copied (unless `own` already has it: a copy from a move
 * cut short), then removed from `legacy`. A failure leaves the rest in `legacy`, moved on the next start; the SDK
 * works on `own` meanwhile. Nothing to do when both are one store (3.1.1 `createAsyncStorage.native.ts`:
 * visionOS falls back to the legacy store).
 */
export async function moveLegacyKeys(legacy: AsyncStorageLike, own: AsyncStorageLike, prefix: string): Promise<void> {
  if (legacy === own) return;
  try {
    for (const key of await legacy.getAllKeys()) {
      if (!key.startsWith(prefix)) continue;
      const value = await legacy.getItem(key);
      const present = await own.getItem(key);
      if (value !== null && value !== undefined && (present === null || present === undefined)) await own.setItem(key, value);
      await legacy.removeItem(key);
    }
  } catch {
    // assumed: a legacy store that cannot be read now may be readable on the next start; nothing is lost.
  }
}
