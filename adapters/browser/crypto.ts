/**
 * The browser's {@link PlatformCrypto}: `crypto.getRandomValues` and `crypto.subtle.digest`. Pages on plain
 * http (other than localhost) have no `crypto.subtle`; there SHA-256 comes from `@noble/hashes`, imported only
 * then, so games on https never download it.
 * @see DESIGN sections 4 and 7
 */
import type { PlatformCrypto } from '../../core/platform.js';

/** `getRandomValues` fills at most this many bytes per call. */
const RANDOM_CHUNK = 65_536;

/**
 * Creates the crypto of a page from its `crypto` global.
 * @throws Error from `randomBytes` when the runtime has no `crypto.getRandomValues` (no browser since 2014)
 * @example
 * ```ts
 * const digest = await createBrowserCrypto(globalThis.crypto).sha256(new TextEncoder().encode('abc'));
 * ```
 */
export function createBrowserCrypto(crypto: Crypto | undefined): PlatformCrypto {
  return {
    async randomBytes(n) {
      if (!crypto?.getRandomValues) throw new Error('This browser has no crypto.getRandomValues: the campaign SDK needs secure random numbers');
      const bytes = new Uint8Array(n);
      for (let offset = 0; offset < n; offset += RANDOM_CHUNK) crypto.getRandomValues(bytes.subarray(offset, offset + RANDOM_CHUNK));
      return bytes;
    },
    async sha256(data) {
      const subtle = crypto?.subtle;
      if (subtle) return new Uint8Array(await subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>));
      const { sha256 } = await import('@noble/hashes/sha2.js');
      return sha256(data);
    },
  };
}
