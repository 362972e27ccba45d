/**
 * FIPS 180-4's constants for ./sha256-compact.ts, a module of their own so that the module React Native imports lazily
 * exports its digest only (a bundler's namespace object of that module then holds no second member).
 */

/** The first 32 bits of the fractional part of `x` (`| 0` keeps the low 32 bits of the product: the integer part drops out). */
const fraction32 = (x: number) => (x * 0x100000000) | 0;

/** K (64 words), once computed: read by ./sha256-compact.ts after its call of {@link sha256Constants}. */
export let k: number[] | undefined;
/** The square roots' fractions, the initial hash in its first 8 words. */
let roots: number[];

/**
 * FIPS 180-4's constants, computed on the first hash rather than written out (72 literals are about 0.5 KB gzip in
 * every React Native app): K, the fractional parts of the cube roots of the first 64 primes (section 4.2.2), and the
 * initial hash, of the square roots of the first 8 primes (section 5.3.3). Doubles hold these roots to about 50
 * bits, well past the 32 taken; test/adapters/shared/sha256.test.ts checks both tables against the standard's values.
 */
export function sha256Constants(): { k: number[]; initial: number[] } {
  if (!k) {
    k = [];
    roots = [];
    for (let n = 2, divisor; k.length < 64; n++) {
      for (divisor = 2; n % divisor; ) divisor++;
      // n is prime when its smallest divisor is itself.
      if (divisor === n) roots.push(fraction32(Math.sqrt(n))), k.push(fraction32(Math.cbrt(n)));
    }
  }
  return { k, initial: roots.slice(0, 8) };
}
