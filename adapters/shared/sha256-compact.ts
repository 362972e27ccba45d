/**
 * SHA-256 (FIPS 180-4) in about 0.4 KB gzip, for React Native: Hermes has no digest of its own, and Metro keeps
 * everything an entry reaches, so @noble/hashes (./sha256.ts, ~2 KB gz in a Metro bundle) would be paid by every
 * app. Only PKCE uses it (a code challenge of 43 characters), so speed does not matter and the code is the plain
 * algorithm, written for size: the message schedule is computed in the round loop that uses it, and the working
 * variables a..h are the front of one array, shifted by a place each round. The React Native adapter imports it with `import()`
 * on the first hash (other bundlers split it off).
 * test/adapters/shared/sha256.test.ts holds it, like ./sha256.ts, to node:crypto and the FIPS 180-4 examples.
 */

import { k, sha256Constants } from './sha256-constants.js';

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The SHA-256 digest of `data` (its own bytes only, when it is a view into a larger buffer). */
export function sha256(data: Uint8Array): Uint8Array {
  const length = data.length;
  // The message, a 1 bit, zeros, and its length in bits (64 bits, big-endian), to a multiple of 64 bytes.
  const padded = new Uint8Array(((length + 72) >> 6) << 6);
  const end = padded.length;
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  // setUint32 keeps the integer part: the bits of length * 8 above the low 32.
  view.setUint32(end - 8, length / 0x20000000);
  view.setUint32(end - 4, length << 3);
  // Fills k; `initial` is a copy, this hash's own.
  let hash = sha256Constants().initial;
  // Declared out of the loop: a closure (`map`'s) over a loop's own `const` makes Babel wrap the loop body in a function.
  let v: number[];
  const w: number[] = [];
  for (let block = 0; block < end; block += 64) {
    // v starts as [a, b, c, d, e, f, g, h]; each round puts t1 + t2 in front and adds t1 to d (then at index 4): the
    // working variables are always v's first 8 (the array grows by one a round; nothing is taken off the end).
    v = hash.slice();
    for (let i = 0; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      w[i] = i < 16 ? view.getUint32(block + 4 * i) : (w[i - 16]! + (rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3)) + w[i - 7]! + (rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10))) | 0;
      const a = v[0]!;
      const b = v[1]!;
      const e = v[4]!;
      // Ch(e, f, g) and Maj(a, b, c), in their shorter equivalent forms.
      const t1 = (v[7]! + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + (v[6]! ^ (e & (v[5]! ^ v[6]!))) + k![i]! + w[i]!) | 0;
      const t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (v[2]! & (a ^ b)));
      v.unshift((t1 + t2) | 0);
      v[4] = (v[4]! + t1) | 0;
    }
    hash = hash.map((word, i) => (word + v[i]!) | 0);
  }
  // The digest is the hash's 8 words, big-endian: written over the padded message's first 32 bytes.
  hash.forEach((word, i) => view.setUint32(4 * i, word));
  return padded.slice(0, 32);
}
