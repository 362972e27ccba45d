/**
 * The SHA-256 fallback, alone: adapters import this module lazily (`import('../shared/sha256.js')`), only
 * where the runtime has no `crypto.subtle`, and only when a hash is needed (PKCE, when a web view opens).
 * It re-exports `sha256` and nothing else, so a bundler that puts it in a chunk of its own (or inlines it)
 * keeps sha256 only, never sha224/384/512 of the same @noble/hashes module. The IIFE swaps it for a loader of
 * `dist/game-campaign.sha256.js` (scripts/iife-siblings.mjs).
 */
export { sha256 } from '@noble/hashes/sha2.js';
