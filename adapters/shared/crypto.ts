/**
 * `Platform.crypto` from a random source: SHA-256 is pure JS (@noble/hashes), since neither Cocos native,
 * WeChat mini-games nor Hermes has `crypto.subtle`.
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { PlatformCrypto } from '../../core/platform.js';

/** Fills `n` secure random bytes; may be async (WeChat, expo-crypto). */
export type RandomSource = (n: number) => Uint8Array | Promise<Uint8Array>;

/** A `crypto.getRandomValues`-shaped function. */
export type GetRandomValues = <T extends ArrayBufferView | null>(array: T) => T;

/**
 * Web Crypto's limit per `getRandomValues` call (react-native-get-random-values keeps it too): larger requests
 * are filled in slices.
 */
const MAX_RANDOM_CALL = 65_536;

/** A {@link RandomSource} over a `getRandomValues` function. */
export function fromGetRandomValues(getRandomValues: GetRandomValues): RandomSource {
  return (n) => {
    const bytes = new Uint8Array(n);
    for (let offset = 0; offset < n; offset += MAX_RANDOM_CALL) getRandomValues(bytes.subarray(offset, Math.min(n, offset + MAX_RANDOM_CALL)));
    return bytes;
  };
}

/** `crypto.getRandomValues` of the runtime, bound, when there is one. */
export function hostGetRandomValues(): GetRandomValues | undefined {
  const crypto = (globalThis as { crypto?: { getRandomValues?: GetRandomValues } }).crypto;
  return crypto && typeof crypto.getRandomValues === 'function' ? crypto.getRandomValues.bind(crypto) : undefined;
}

/** The platform crypto: random bytes from `random`, SHA-256 from @noble/hashes. */
export function platformCrypto(random: RandomSource): PlatformCrypto {
  return {
    async randomBytes(n) {
      const bytes = await random(n);
      if (!(bytes instanceof Uint8Array) || bytes.length !== n) throw new TypeError(`the random source returned ${bytes instanceof Uint8Array ? bytes.length : typeof bytes} bytes, ${n} were asked`);
      return bytes;
    },
    async sha256(data) {
      return sha256(data);
    },
  };
}
