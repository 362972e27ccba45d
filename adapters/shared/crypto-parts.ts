/**
 * The parts of `Platform.crypto` that load nothing: random bytes from the runtime's (or the game's) secure source.
 * ./crypto.ts builds the platform crypto of browsers and Cocos on them, with the @noble/hashes fallback; the React
 * Native adapter builds on this module alone, so Metro (which keeps every `import()` an entry reaches) never bundles
 * @noble/hashes into an app (it hashes with ./sha256-compact.ts instead).
 */

/** Fills `n` secure random bytes; may be async (WeChat, expo-crypto). */
export type RandomSource = (n: number) => Uint8Array | Promise<Uint8Array>;

/** A `crypto.getRandomValues`-shaped function. */
export type GetRandomValues = <T extends ArrayBufferView | null>(array: T) => T;

/** A native SHA-256 (`crypto.subtle.digest('SHA-256', data)`'s shape, bound). */
export type Digest = (data: Uint8Array) => Promise<ArrayBuffer | Uint8Array>;

/** A {@link RandomSource} over `getRandomValues`, in slices of WebCrypto's 65 536-byte limit per call. */
export function fromGetRandomValues(getRandomValues: GetRandomValues): (n: number) => Uint8Array {
  return (n) => {
    const bytes = new Uint8Array(n);
    for (let offset = 0; offset < n; offset += 65_536) getRandomValues(bytes.subarray(offset, offset + 65_536));
    return bytes;
  };
}

/** The runtime's `crypto` global, read when a platform is created (never at import). */
export const hostCrypto = (): Partial<Crypto> | undefined => (globalThis as { crypto?: Partial<Crypto> }).crypto;

/** `getRandomValues` of `crypto` (WebCrypto's, expo-crypto's), bound, when it has one. */
export function getRandomValuesOf(crypto: { getRandomValues?: unknown } | undefined): GetRandomValues | undefined {
  const fill = crypto?.getRandomValues;
  return typeof fill === 'function' ? (fill.bind(crypto) as GetRandomValues) : undefined;
}

/** `crypto.subtle`'s SHA-256, when `crypto` has a `subtle` (secure browser contexts). */
export function subtleDigest(crypto: Partial<Crypto> | undefined): Digest | undefined {
  const subtle = crypto?.subtle;
  return subtle ? (data) => subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>) : undefined;
}
