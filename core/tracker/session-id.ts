/**
 * Session ids for a synchronous `start()` from an asynchronous `platform.crypto`.
 *
 * assumed: a sessionId is a UUIDv4 built from random bytes fetched ahead of time (`platform.crypto.randomBytes`,
 * 16 ids at a time, refilled in the background when half are used). Only when the pool is empty (a `start()`
 * in the same tick as the constructor, before the first fill resolved) do the bytes come from `Math.random`:
 * session ids must be unique, not secret (the service de-duplicates by projectId + sessionId, so a repeat
 * would be SKIPPED), and 122 bits from V8's generator are plenty for that.
 */
import type { PlatformCrypto } from '../platform.js';

const ID_BYTES = 16;
const POOL_IDS = 16;

/** Hands out UUIDv4 session ids synchronously. */
export class SessionIds {
  readonly #crypto: PlatformCrypto;
  readonly #onError: (error: unknown) => void;
  #pool = new Uint8Array(0);
  #offset = 0;
  #filling: Promise<void> | undefined;

  constructor(crypto: PlatformCrypto, onError: (error: unknown) => void) {
    this.#crypto = crypto;
    this.#onError = onError;
    void this.#refill();
  }

  /** A new UUIDv4. */
  next(): string {
    let bytes: Uint8Array;
    if (this.#pool.length - this.#offset >= ID_BYTES) {
      bytes = this.#pool.subarray(this.#offset, this.#offset + ID_BYTES);
      this.#offset += ID_BYTES;
    } else {
      bytes = Uint8Array.from({ length: ID_BYTES }, () => Math.floor(Math.random() * 256));
    }
    if (this.#pool.length - this.#offset < (ID_BYTES * POOL_IDS) / 2) void this.#refill();
    return formatUuidV4(bytes);
  }

  #refill(): Promise<void> {
    this.#filling ??= Promise.resolve()
      .then(() => this.#crypto.randomBytes(ID_BYTES * POOL_IDS))
      .then(
        (fresh) => {
          const rest = this.#pool.subarray(this.#offset);
          const pool = new Uint8Array(rest.length + fresh.length);
          pool.set(rest);
          pool.set(fresh, rest.length);
          this.#pool = pool;
          this.#offset = 0;
        },
        (error: unknown) => this.#onError(error),
      )
      .finally(() => (this.#filling = undefined));
    return this.#filling;
  }
}

/** RFC 9562 version 4 layout: version nibble 4, variant bits 10. */
export function formatUuidV4(bytes: Uint8Array): string {
  const b = Uint8Array.from(bytes.subarray(0, ID_BYTES));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = Array.from(b, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
