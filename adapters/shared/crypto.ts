/**
 * `Platform.crypto` of every adapter: random bytes from the runtime's (or the game's) secure source, SHA-256
 * from a native digest where there is one (WebCrypto's `crypto.subtle`, expo-crypto's `digest`), else from
 * ./sha256.ts (@noble/hashes' sha256, bundled into dist/ at ES2020), imported lazily on the first hash only: pages with WebCrypto never load it,
 * and a game elsewhere loads it when a web view opens (PKCE), not before it can call the SDK.
 * assumed: the game's bundler supports `import()` (Vite, webpack, esbuild, rollup and Cocos Creator 3.8 split it
 * into a chunk; Metro inlines it): docs/decisions.md.
 */
import type { PlatformCrypto } from '../../core/platform.js';
import type { Digest, RandomSource } from './crypto-parts.js';

export { fromGetRandomValues, getRandomValuesOf, hostCrypto, subtleDigest, type Digest, type GetRandomValues, type RandomSource } from './crypto-parts.js';

/** The platform crypto: random bytes from `random`, SHA-256 from `digest` or, lazily, ./sha256.ts. */
export function platformCrypto(random: RandomSource, digest?: Digest): PlatformCrypto {
  // Every source gives `n` bytes: fromGetRandomValues by construction, WeChat's crypto manager as its
  // getRandomValues documents (`randomValues`: as many bytes as `length` asked).
  return {
    randomBytes: async (n) => random(n),
    sha256: async (data) => (digest ? new Uint8Array(await digest(data)) : (await import('./sha256.js')).sha256(data)),
  };
}
