/**
 * ./lease-lock-import.ts in the IIFE build (scripts/iife-siblings.mjs): the lease's code is part of the IIFE, so
 * it is handed over as is, with no `import()` (which rollup would inline as a namespace object behind a promise).
 */
import { leaseLock } from './lease-lock.js';

/** The lease's module, as ./lease-lock-import.ts resolves it. */
export const importLeaseLock = async () => ({ leaseLock });
