/**
 * Where ./lock.ts gets the lease's code: imported lazily (a chunk of the game's bundle, loaded only where the
 * browser has no Web Locks). The IIFE, which has no chunks, puts ./lease-lock-script.ts here instead
 * (scripts/iife-siblings.mjs), which loads the same code from its sibling file.
 */
export const importLeaseLock = () => import('./lease-lock.js');
