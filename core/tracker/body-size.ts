/**
 * Sizing batches for keepalive requests, whose bodies share a 64 KiB in-flight quota in browsers.
 * Counted by hand: Cocos mini-games have no TextEncoder.
 */
import type { TrackedSession } from './events.js';

/** A keepalive body must stay under this many bytes. */
export const KEEPALIVE_BODY_LIMIT = 64 * 1024;

/** UTF-8 length of a string (as `new TextEncoder().encode(text).length`). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Splits `items` into runs whose body (`emptyBodyBytes` plus each item's JSON and the commas between) stays
 * under `limit`, in order. An item too large even alone is returned in `oversized` instead.
 */
export function chunkBySize<T extends { session: TrackedSession }>(items: T[], emptyBodyBytes: number, limit = KEEPALIVE_BODY_LIMIT): { chunks: T[][]; oversized: T[] } {
  const chunks: T[][] = [];
  const oversized: T[] = [];
  let chunk: T[] = [];
  let size = emptyBodyBytes;
  for (const item of items) {
    const itemBytes = utf8Length(JSON.stringify(item.session));
    if (emptyBodyBytes + itemBytes >= limit) {
      oversized.push(item);
      continue;
    }
    const added = itemBytes + (chunk.length ? 1 : 0);
    if (size + added >= limit) {
      chunks.push(chunk);
      chunk = [];
      size = emptyBodyBytes;
      size += itemBytes;
    } else size += added;
    chunk.push(item);
  }
  if (chunk.length) chunks.push(chunk);
  return { chunks, oversized };
}
