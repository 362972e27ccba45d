/**
 * PKCE (RFC 7636), S256 only: the code verifier the web view proves itself with, and its challenge. Bytes come
 * from `platform.crypto`, so every runtime (WebCrypto, `wx.getRandomValues`, expo-crypto) supplies its own.
 * @see DESIGN section 7; RFC 7636 sections 4.1, 4.2 and Appendix B
 */
import type { PlatformCrypto } from '../platform.js';

/** A code verifier and its S256 challenge. */
export interface PkcePair {
  /** 43-128 characters of `[A-Za-z0-9_-]`: stays on the device (it travels only in the web view URL's fragment). */
  codeVerifier: string;
  /** `BASE64URL(SHA-256(codeVerifier))`, 43 characters: what the relay and the service see. */
  codeChallenge: string;
}

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * Base64URL without padding (RFC 4648 section 5). Hand-written rather than `btoa`: Cocos mini-games and older
 * Hermes builds have no `btoa`, and it would need a binary string first.
 */
export function base64Url(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    // Only the low `bits` (under 14) of `value` are read, so its older bits may fall off the 32-bit shift.
    value = (value << 8) | byte;
    for (bits += 8; bits >= 6; ) out += BASE64URL[(value >> (bits -= 6)) & 63];
  }
  // The last 2 or 4 bits, padded with zeros to one character.
  return bits ? out + BASE64URL[(value << (6 - bits)) & 63] : out;
}

/**
 * A new code verifier: the Base64URL of `byteLength` random bytes. Encoding whole bytes maps every 6 bits to one
 * of exactly 64 characters, so no character is likelier than another (picking characters with `byte % 66` would be
 * biased).
 * @param byteLength - 32 to 96 bytes, i.e. 43 to 128 characters. @defaultValue 32
 * @throws RangeError for a `byteLength` outside 32..96, or when the platform returns fewer bytes
 */
export async function createCodeVerifier(crypto: PlatformCrypto, byteLength = 32): Promise<string> {
  const bytes = byteLength >= 32 && byteLength <= 96 ? await crypto.randomBytes(byteLength) : [];
  // A platform that returns fewer bytes than asked would weaken the verifier: refused, as is a bad byteLength.
  if (bytes.length !== byteLength) throw new RangeError(`Need 32 to 96 random bytes, got ${bytes.length}`);
  return base64Url(bytes as Uint8Array);
}

/** `BASE64URL(SHA-256(ASCII(codeVerifier)))`. The verifier is ASCII by construction, so no TextEncoder is needed (mini-games lack it). */
export async function codeChallengeOf(crypto: PlatformCrypto, codeVerifier: string): Promise<string> {
  return base64Url(await crypto.sha256(Uint8Array.from(codeVerifier, (char) => char.charCodeAt(0))));
}

/**
 * A fresh verifier and its S256 challenge.
 * @throws RangeError for a `byteLength` outside 32..96
 * @example
 * ```ts
 * const { codeVerifier, codeChallenge } = await createPkcePair(platform.crypto);
 * ```
 */
export async function createPkcePair(crypto: PlatformCrypto, byteLength?: number): Promise<PkcePair> {
  const codeVerifier = await createCodeVerifier(crypto, byteLength);
  return { codeVerifier, codeChallenge: await codeChallengeOf(crypto, codeVerifier) };
}
