/**
 * The SHA-256 fallback, alone: adapters import this module lazily (`import('../shared/sha256.js')`), only
 * where the runtime has no native digest, and only when a hash is needed (PKCE, when a web view opens).
 * It re-exports `sha256` and nothing else, so a bundler keeps sha256 only, never sha224/384/512 of the same
 * @noble/hashes module. The IIFE swaps it for a loader of `dist/game-campaign.sha256.js` (scripts/iife-siblings.mjs).
 * @noble/hashes ships ES2022 class fields, which a game's esbuild at ES2020 would lower with helpers that land in
 * a chunk every chunk imports (esbuild issue #1892): so the build bundles it into `dist/` lowered to ES2020 like
 * our own modules (rollup.config.mjs), and no game bundler has anything left to lower.
 * test/adapters/shared/sha256.test.ts holds it to node:crypto and the FIPS 180-4 examples.
 */
export { sha256 } from '@noble/hashes/sha2.js';
