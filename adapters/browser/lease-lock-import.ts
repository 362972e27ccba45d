/**
 * Where ./lock.ts gets the lease's code: imported lazily (a chunk of the game's bundle, loaded only where the
 * browser has no Web Locks). The IIFE, which has no chunks, puts ./lease-lock-bundled.ts here instead
 * (scripts/iife-siblings.mjs): the same code without an `import()` wrapper.
 */
export const importLeaseLock = () => import('./lease-lock.js');
