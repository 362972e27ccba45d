/**
 * SHA-256 (FIPS 180-4) in well under 1 KB, for React Native: Hermes has no digest of its own, and Metro keeps
 * everything an entry reaches, so @noble/hashes (./sha256.ts, ~2 KB gz in a Metro bundle) would be paid by every
 * app. Only PKCE uses it (a code challenge of 43 characters), so speed does not matter and the code is the plain
 * algorithm. The React Native adapter imports it with `import()` on the first hash (other bundlers split it off).
 * test/adapters/shared/sha256.test.ts holds it, like ./sha256.ts, to node:crypto and the FIPS 180-4 examples.
 */

/** The first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
  0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
  0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
  0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/** The first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The SHA-256 digest of `data` (its own bytes only, when it is a view into a larger buffer). */
export function sha256(data: Uint8Array): Uint8Array {
  const length = data.length;
  // The message, a 1 bit, zeros, and its length in bits (64 bits, big-endian), to a multiple of 64 bytes.
  const padded = new Uint8Array(((length + 72) >> 6) << 6);
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, length << 3);
  const hash = INITIAL.slice();
  const w: number[] = [];
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 64; i++) {
      const a = w[i - 15]!;
      const b = w[i - 2]!;
      w[i] = i < 16 ? view.getUint32(block + 4 * i) : (w[i - 16]! + (rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3)) + w[i - 7]! + (rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10))) | 0;
    }
    // v = [a, b, c, d, e, f, g, h]; each round puts t1 + t2 in front and adds t1 to d (then at index 4).
    const v = hash.slice();
    for (let i = 0; i < 64; i++) {
      const a = v[0]!;
      const b = v[1]!;
      const c = v[2]!;
      const e = v[4]!;
      const f = v[5]!;
      const g = v[6]!;
      const h = v[7]!;
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      v.pop();
      v.unshift((t1 + t2) | 0);
      v[4] = (v[4]! + t1) | 0;
    }
    for (let i = 0; i < 8; i++) hash[i] = (hash[i]! + v[i]!) | 0;
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  hash.forEach((word, i) => out.setUint32(4 * i, word));
  return digest;
}
