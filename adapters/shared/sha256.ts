/**
 * The SHA-256 fallback (FIPS 180-4), alone: adapters import this module lazily (`import('../shared/sha256.js')`),
 * only where the runtime has no native digest, and only when a hash is needed (PKCE, when a web view opens). The
 * IIFE swaps it for a loader of `dist/game-campaign.sha256.js` (scripts/iife-siblings.mjs).
 * Why not @noble/hashes' sha256 (which the server side uses): its hashers are classes with class fields, which a
 * game's esbuild at ES2020 lowers with helper functions; with code splitting esbuild puts those helpers in a chunk
 * of their own that the entry imports too (esbuild issue #1892), a second file every game loads at start. Plain
 * functions need no helper, and this module imports nothing. test/adapters/shared/sha256.test.ts holds it to
 * node:crypto and the FIPS 180-4 examples.
 */

/** The round constants: the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
];

/** The eight working words. */
type Words = [number, number, number, number, number, number, number, number];

/** The initial hash value: the first 32 bits of the fractional parts of the square roots of the first 8 primes. */
const INITIAL: Readonly<Words> = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

/** `x` rotated right by `n` bits (32-bit). */
const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 of `data`: 32 bytes. */
export function sha256(data: Uint8Array): Uint8Array {
  // The message, a 1 bit, zeros, and its length in bits as 64 bits big-endian, to a multiple of 64 bytes.
  const size = Math.ceil((data.length + 9) / 64) * 64;
  const padded = new Uint8Array(size);
  padded.set(data);
  padded[data.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(size - 8, Math.floor(data.length / 0x20000000));
  view.setUint32(size - 4, (data.length * 8) >>> 0);
  const hash: Words = [...INITIAL];
  const w = new Uint32Array(64); // the message schedule; a Uint32Array keeps every word mod 2^32
  for (let block = 0; block < size; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + i * 4);
    for (let i = 16; i < 64; i++) {
      const [w2, w7, w15, w16] = [w[i - 2]!, w[i - 7]!, w[i - 15]!, w[i - 16]!];
      w[i] = (rotr(w2, 17) ^ rotr(w2, 19) ^ (w2 >>> 10)) + w7 + (rotr(w15, 7) ^ rotr(w15, 18) ^ (w15 >>> 3)) + w16;
    }
    let [a, b, c, d, e, f, g, h] = hash;
    for (let i = 0; i < 64; i++) {
      const t1 = (h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      [h, g, f, e, d, c, b, a] = [g, f, e, (d + t1) | 0, c, b, a, (t1 + t2) | 0];
    }
    [a, b, c, d, e, f, g, h].forEach((word, i) => (hash[i] = (hash[i]! + word) | 0));
  }
  const digest = new Uint8Array(32);
  const out = new DataView(digest.buffer);
  hash.forEach((word, i) => out.setUint32(i * 4, word));
  return digest;
}
