/**
 * `game-campaign-sdk/testing`: what a game's tests use, kept out of the main entry so that no game bundle
 * carries it: an in-memory `Platform` (`createMemoryPlatform`) with controllable lifecycle, network and clocks, and
 * `validateResponse`, the response checker (`validateResponses: validateResponse`), which brings zod.
 * @example
 * ```ts
 * import { createMemoryPlatform, validateResponse } from 'game-campaign-sdk/testing';
 * const platform = createMemoryPlatform({ fetch: emulator.fetch });
 * const client = new CampaignClient({ clientKey, fetch: emulator.fetch, validateResponses: validateResponse });
 * ```
 * @packageDocumentation
 */
export { createMemoryPlatform, createMemoryStorage, seededRandom, type MemoryPlatform, type MemoryPlatformOptions, type MemoryStorage } from './memory-platform.js';
export { validateResponse, type ResponseName } from './schema/responses.js';
export type { ErrorDetail } from './schema/errors.js';
export type { KeyValueStorage, Platform } from './platform.js';
