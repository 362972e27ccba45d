/**
 * `Platform.crypto` of every adapter: random bytes from the runtime's (or the game's) secure source, SHA-256
 * from a native digest where there is one (WebCrypto's `crypto.subtle`, expo-crypto's `digest`), else from
 * ./sha256.ts (@noble/hashes' sha256, bundled into dist/ at ES2020), imported lazily on the first hash only: pages with WebCrypto never load it,
 * and a game elsewhere loads it when a web view opens (PKCE), not before it can call the SDK.
 * assumed: the game's bundler supports `import()` (Vite, webpack, esbuild, rollup and Cocos Creator 3.8 split it
 * into a chunk; Metro inlines it): docs/decisions.md.
 */
import type { PlatformCrypto } from '../../core/platform.js';

/** Fills `n` secure random bytes; may be async (WeChat, expo-crypto). */
export type RandomSource = (n: number) => Uint8Array | Promise<Uint8Array>;

/** A `crypto.getRandomValues`-shaped function. */
export type GetRandomValues = <T extends ArrayBufferView | null>(array: T) => T;

/** A native SHA-256 (`crypto.subtle.digest('SHA-256', data)`'s shape, bound). */
export type Digest = (data: Uint8Array) => Promise<ArrayBuffer | Uint8Array>;

/** A {@link RandomSource} over `getRandomValues`, in slices of WebCrypto's 65 536-byte limit per call. */
export function fromGetRandomValues(getRandomValues: GetRandomValues): RandomSource {
  return (n) => {
    const bytes = new Uint8Array(n);
    for (let offset = 0; offset < n; offset += 65_536) getRandomValues(bytes.subarray(offset, offset + 65_536));
    return bytes;
  };
}

/** The runtime's `crypto` global, read when a platform is created (never at import). */
export const hostCrypto = (): Partial<Crypto> | undefined => (globalThis as { crypto?: Partial<Crypto> }).crypto;

/** `crypto.getRandomValues` of `crypto`, bound, when it has one. */
export function getRandomValuesOf(crypto: Partial<Crypto> | undefined): GetRandomValues | undefined {
  return typeof crypto?.getRandomValues === 'function' ? (crypto.getRandomValues.bind(crypto) as GetRandomValues) : undefined;
}

/** `crypto.subtle`'s SHA-256, when `crypto` has a `subtle` (secure browser contexts). */
export function subtleDigest(crypto: Partial<Crypto> | undefined): Digest | undefined {
  const subtle = crypto?.subtle;
  return subtle ? (data) => subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>) : undefined;
}

/** The platform crypto: random bytes from `random`, SHA-256 from `digest` or, lazily, ./sha256.ts. */
export function platformCrypto(random: RandomSource, digest?: Digest): PlatformCrypto {
  return {
    // Every source gives `n` bytes: fromGetRandomValues by construction, WeChat's crypto manager as its
    // getRandomValues documents (`randomValues`: as many bytes as `length` asked).
    randomBytes: async (n) => random(n),
    async sha256(data) {
      return digest ? new Uint8Array(await digest(data)) : (await import('./sha256.js')).sha256(data);
    },
  };
}
