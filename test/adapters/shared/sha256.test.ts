// The SHA-256 fallbacks (adapters/shared/sha256.ts: @noble/hashes; sha256-compact.ts: React Native's) against
// node:crypto on generated inputs, across every padding boundary, and the FIPS 180-4 examples (NIST's "Examples
// with Intermediate Values", SHA-256).
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256 as nobleSha256 } from '../../../adapters/shared/sha256.js';
import { sha256 as compactSha256 } from '../../../adapters/shared/sha256-compact.js';

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
