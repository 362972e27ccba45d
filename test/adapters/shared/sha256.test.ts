// The SHA-256 fallbacks (adapters/shared/sha256.ts: @noble/hashes; sha256-compact.ts: React Native's, its constants in sha256-constants.ts) against
// node:crypto on generated inputs, across every padding boundary, and the FIPS 180-4 examples (NIST's "Examples
// with Intermediate Values", SHA-256).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 as nobleSha256 } from '../../../adapters/shared/sha256.js';
import { sha256 as compactSha256 } from '../../../adapters/shared/sha256-compact.js';
import { sha256Constants } from '../../../adapters/shared/sha256-constants.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const nodeSha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const text = (value: string) => new TextEncoder().encode(value);

describe.each([
  ['@noble/hashes (sha256.ts)', nobleSha256],
  ['compact (sha256-compact.ts, React Native)', compactSha256],
])('sha256 %s (a fallback where no native digest exists)', (_name, sha256) => {
  it('gives the FIPS 180-4 example digests', () => {
    expect(hex(sha256(text('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hex(sha256(text('abc')))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hex(sha256(text('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe('248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    expect(hex(sha256(text('a'.repeat(1_000_000))))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('equals node:crypto for every length around the 64-byte block and its 56-byte padding limit', () => {
    for (let length = 0; length <= 200; length++) {
      const bytes = Uint8Array.from({ length }, (_, i) => (i * 151 + length) & 0xff);
      expect(hex(sha256(bytes)), `length ${length}`).toBe(nodeSha256(bytes));
    }
  });

  it('equals node:crypto on generated inputs', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2048 }), (bytes) => hex(sha256(bytes)) === nodeSha256(bytes)), { numRuns: 500 });
  });

  it('hashes a view into a larger buffer by its own bytes only', () => {
    const buffer = text('xxabcxx');
    expect(hex(sha256(buffer.subarray(2, 5)))).toBe(nodeSha256(text('abc')));
  });
});

describe('the compact SHA-256 constants (computed from the primes, not written out)', () => {
  // FIPS 180-4 section 4.2.2 (K) and 5.3.3 (the initial hash), as the standard prints them.
  const K = [
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
  ];
  const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

  it('equal the standard K and initial hash, bit for bit', () => {
    const { k, initial } = sha256Constants();
    expect(k.map((word) => word >>> 0)).toEqual(K);
    expect(initial.map((word) => word >>> 0)).toEqual(INITIAL);
  });
});
