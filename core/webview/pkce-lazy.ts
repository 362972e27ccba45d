/**
 * The public PKCE helpers, whose code (./pkce.ts) is imported on first use, as the launcher imports it (through
 * ./open-page.ts) when a web view first opens: a game that does neither downloads none of it at start-up, and
 * no bundler finds the module both imported and imported lazily (which would split it into a chunk of its own
 * that the entry loads at start).
 * @see DESIGN section 7
 */
import type { PlatformCrypto } from '../platform.js';
import type { PkcePair } from './pkce.js';

/** The PKCE module. A chunk that cannot load (the page went offline) rejects the call with the loader's error. */
const importPkce = () => import('./pkce.js');

/**
 * A new code verifier: the Base64URL of `byteLength` random bytes. Encoding whole bytes maps every 6 bits to one
 * of exactly 64 characters, so no character is likelier than another (picking characters with `byte % 66` would be
 * biased).
 * @param byteLength - 32 to 96 bytes, i.e. 43 to 128 characters. @defaultValue 32
 * @throws RangeError for a `byteLength` outside 32..96, or when the platform returns fewer bytes
 */
export async function createCodeVerifier(crypto: PlatformCrypto, byteLength?: number): Promise<string> {
  return (await importPkce()).createCodeVerifier(crypto, byteLength);
}

/** `BASE64URL(SHA-256(ASCII(codeVerifier)))`. The verifier is ASCII by construction, so no TextEncoder is needed (mini-games lack it). */
export async function codeChallengeOf(crypto: PlatformCrypto, codeVerifier: string): Promise<string> {
  return (await importPkce()).codeChallengeOf(crypto, codeVerifier);
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
  return (await importPkce()).createPkcePair(crypto, byteLength);
}
