/**
 * Sizing batches for keepalive requests, whose bodies share a 64 KiB in-flight quota in browsers.
 * Counted by hand: Cocos mini-games have no TextEncoder.
 */
import type { TrackedSession } from './events.js';

/** A keepalive body must stay under this many bytes. */
export const KEEPALIVE_BODY_LIMIT = 64 * 1024;

/**
 * UTF-8 length of a string (as `new TextEncoder().encode(text).length`): 3 bytes per UTF-16 unit, less 2 per
 * ASCII unit, 1 per unit below U+0800 and 2 per surrogate pair (4 bytes, not 6). A lone surrogate counts 3,
 * as TextEncoder writes U+FFFD for it. Regular expressions rather than a loop: a third of the bytes.
 */
export function utf8Length(text: string): number {
  const count = (pattern: RegExp) => text.match(pattern)?.length ?? 0;
  return 3 * text.length - 2 * count(/[\0-\x7f]/g) - count(/[\x80-\u07ff]/g) - 2 * count(/[\ud800-\udbff][\udc00-\udfff]/g);
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
