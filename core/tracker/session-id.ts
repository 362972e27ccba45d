/**
 * Session ids for a synchronous `start()` from an asynchronous `platform.crypto`.
 *
 * assumed: a sessionId is a UUIDv4 built from random bytes fetched ahead of time (`platform.crypto.randomBytes`,
 * 16 ids at a time, refilled in the background when half are used). When the pool is empty (a `start()` in the
 * same tick as the constructor, before the first fill resolved) the pool is filled at once from
 * `platform.crypto.randomBytesSync` where the platform has it (React Native and the browser: `getRandomValues`);
 * only without it do the bytes come from `Math.random`. Session ids must be unique, not secret (the service
 * de-duplicates by projectId + sessionId, so a repeat would be SKIPPED and its play time lost): V8's generator is
 * seeded well enough for that, Hermes' and JavaScriptCore's are not (32 bits each, so the first id of each start
 * would repeat across a game's players). So the device clock (`platform.now()`, ms) is mixed into those bytes: where
 * the source answers only asynchronously (a WeChat mini-game's crypto manager; WeChat on iOS runs JavaScriptCore), two
 * equal ids now need two equal seeds and the same start millisecond too.
 */
import type { Platform } from '../platform.js';

const ID_BYTES = 16;
const POOL_BYTES = ID_BYTES * 16;

/** A function handing out UUIDv4 session ids synchronously, from `platform.crypto` and its clock; `onError` hears a failed `randomBytes`. */
export function sessionIds(platform: Platform, onError: (error: unknown) => void): () => string {
  const { crypto } = platform;
  let pool: number[] = [];
  let filling = false;
  const refill = () => {
    if (filling) return;
    filling = true;
    void Promise.resolve()
      .then(() => crypto.randomBytes(POOL_BYTES))
      .then((fresh) => void pool.push(...fresh), onError)
      .finally(() => (filling = false));
  };
  refill();
  return () => {
    if (pool.length < ID_BYTES && crypto.randomBytesSync) {
      try {
        pool.push(...crypto.randomBytesSync(POOL_BYTES));
      } catch (error) {
        onError(error);
      }
    }
    const t = platform.now();
    // `^` takes the low 32 bits of `t / 256 ** i`, and `& 255` byte i of the clock.
    const bytes = pool.length >= ID_BYTES ? pool.splice(0, ID_BYTES) : Array.from({ length: ID_BYTES }, (_, i) => ((Math.random() * 256) ^ (t / 256 ** i)) & 255);
    if (pool.length < ID_BYTES * 8) refill(); // half the pool
    return formatUuidV4(bytes);
  };
}

/** RFC 9562 version 4 layout of 16 bytes (`b`, an array of this module's own: set in place): version nibble 4, variant bits 10. */
function formatUuidV4(b: number[]): string {
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  // A dash before bytes 4, 6, 8 and 10 (the bits set in 0x550): 8-4-4-4-12 hex digits.
  return b.map((byte, i) => ((0x550 >> i) & 1 ? '-' : '') + (byte | 256).toString(16).slice(1)).join('');
}
