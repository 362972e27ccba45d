/**
 * PKCE S256 (RFC 7636): the Appendix B vector, the verifier's length and alphabet over many draws, an even spread of
 * characters (no modulo bias), and refusals of too few bytes.
 */
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { PlatformCrypto } from '../../../core/platform.js';
import { base64Url, codeChallengeOf, createCodeVerifier, createPkcePair } from '../../../core/webview/pkce.js';

/** Node's own crypto: real random bytes and SHA-256. */
const nodeCrypto: PlatformCrypto = {
  randomBytes: async (n) => new Uint8Array(randomBytes(n)),
  sha256: async (data) => new Uint8Array(createHash('sha256').update(data).digest()),
};

describe('PKCE', () => {
  it('reproduces RFC 7636 Appendix B', async () => {
    // The 32 octets of Appendix B, handed out as "random" bytes.
    const octets = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121];
    const crypto: PlatformCrypto = { ...nodeCrypto, randomBytes: async (n) => Uint8Array.from(octets.slice(0, n)) };
    await expect(createPkcePair(crypto)).resolves.toEqual({
      codeVerifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
      codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    });
  });

  it('encodes Base64URL without padding like Node does, for every length remainder', () => {
    for (let length = 0; length <= 40; length++) {
      const bytes = new Uint8Array(randomBytes(length));
      expect(base64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
    }
  });

  it('draws 10 000 verifiers of 43 unreserved characters with an even spread of characters', async () => {
    const counts = new Map<string, number>();
    const seen = new Set<string>();
    for (let i = 0; i < 10_000; i++) {
      const { codeVerifier, codeChallenge } = await createPkcePair(nodeCrypto);
      expect(codeVerifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(codeChallenge).toBe(createHash('sha256').update(codeVerifier).digest('base64url'));
      seen.add(codeVerifier);
      // The 43rd character carries only 4 bits of the 256: count the 42 full 6-bit characters.
      for (const char of codeVerifier.slice(0, 42)) counts.set(char, (counts.get(char) ?? 0) + 1);
    }
    expect(seen.size).toBe(10_000);
    expect(counts.size).toBe(64);
    // Each character is expected 10 000 * 42 / 64 = 6562.5 times (sd ~80). Picking characters with `byte % 62`
    // would put the first 8 at ~+24% and the rest at ~-1.6%; 8 standard deviations never flags a fair draw.
    const expected = (10_000 * 42) / 64;
    for (const count of counts.values()) expect(Math.abs(count - expected)).toBeLessThan(8 * Math.sqrt(expected));
  });

  it('makes longer verifiers up to 128 characters and refuses lengths outside 32..96 bytes', async () => {
    await expect(createCodeVerifier(nodeCrypto, 96)).resolves.toMatch(/^[A-Za-z0-9_-]{128}$/);
    await expect(createCodeVerifier(nodeCrypto, 31)).rejects.toThrow(RangeError);
    await expect(createCodeVerifier(nodeCrypto, 97)).rejects.toThrow(RangeError);
    await expect(createCodeVerifier(nodeCrypto, 32.5)).rejects.toThrow(RangeError);
  });

  it('refuses a platform that returns fewer random bytes than asked', async () => {
    const short: PlatformCrypto = { ...nodeCrypto, randomBytes: async () => new Uint8Array(16) };
    await expect(createPkcePair(short)).rejects.toThrow(RangeError);
  });

  it('hashes the verifier through the platform', async () => {
    const calls: Uint8Array[] = [];
    const crypto: PlatformCrypto = { ...nodeCrypto, sha256: async (data) => (calls.push(data), nodeCrypto.sha256(data)) };
    await codeChallengeOf(crypto, 'abc');
    expect(calls).toEqual([Uint8Array.from([97, 98, 99])]);
  });
});

describe('the PKCE helpers of the main entry (their code imported on first use)', () => {
  it('give what ./pkce.ts gives, defaults and refusals included', async () => {
    const lazy = await import('../../../core/index.js');
    const octets = Uint8Array.from({ length: 96 }, (_, i) => i);
    const fixed: PlatformCrypto = { ...nodeCrypto, randomBytes: async (n) => octets.slice(0, n) };
    await expect(lazy.createPkcePair(fixed)).resolves.toEqual(await createPkcePair(fixed));
    await expect(lazy.createCodeVerifier(fixed)).resolves.toBe(await createCodeVerifier(fixed));
    await expect(lazy.createCodeVerifier(fixed, 96)).resolves.toBe(await createCodeVerifier(fixed, 96));
    await expect(lazy.codeChallengeOf(fixed, 'abc')).resolves.toBe(await codeChallengeOf(fixed, 'abc'));
    await expect(lazy.createCodeVerifier(fixed, 31)).rejects.toThrow(RangeError);
  });
});
