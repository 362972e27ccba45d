/**
 * SHA-256 (FIPS 180-4) in about 0.5 KB gzip, for React Native: Hermes has no digest of its own, and Metro keeps
 * everything an entry reaches, so @noble/hashes (./sha256.ts, ~2 KB gz in a Metro bundle) would be paid by every
 * app. Only PKCE uses it (a code challenge of 43 characters), so speed does not matter and the code is the plain
 * algorithm. The React Native adapter imports it with `import()` on the first hash (other bundlers split it off).
 * test/adapters/shared/sha256.test.ts holds it, like ./sha256.ts, to node:crypto and the FIPS 180-4 examples.
 */

/** The first 32 bits of the fractional part of `x` (`| 0` keeps the low 32 bits of the product: the integer part drops out). */
const fraction32 = (x: number) => (x * 0x100000000) | 0;

/**
 * FIPS 180-4's constants, computed on the first hash rather than written out (72 literals are about 0.5 KB gzip in
 * every React Native app): K, the fractional parts of the cube roots of the first 64 primes (section 4.2.2), and the
 * initial hash, of the square roots of the first 8 primes (section 5.3.3). Doubles hold these roots to about 50
 * bits, well past the 32 taken; test/adapters/shared/sha256.test.ts checks both tables against the standard's values.
 */
export function sha256Constants(): { k: number[]; initial: number[] } {
  const k: number[] = [];
  const initial: number[] = [];
  for (let n = 2; k.length < 64; n++) {
    let prime = true;
    for (let d = 2; d * d <= n; d++) if (n % d === 0) prime = false;
    if (!prime) continue;
    if (initial.length < 8) initial.push(fraction32(Math.sqrt(n)));
    k.push(fraction32(Math.pow(n, 1 / 3)));
  }
  return { k, initial };
}

let constants: { k: number[]; initial: number[] } | undefined;

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** The SHA-256 digest of `data` (its own bytes only, when it is a view into a larger buffer). */
export function sha256(data: Uint8Array): Uint8Array {
  const { k: K, initial } = (constants ??= sha256Constants());
  const length = data.length;
  // The message, a 1 bit, zeros, and its length in bits (64 bits, big-endian), to a multiple of 64 bytes.
  const padded = new Uint8Array(((length + 72) >> 6) << 6);
  padded.set(data);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, length << 3);
  const hash = initial.slice();
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
