/**
 * Sizing batches for keepalive requests, whose bodies share a 64 KiB in-flight quota in browsers.
 * Counted by hand: Cocos mini-games have no TextEncoder.
 */
import { playtimeBody } from '../relay/sender.js';
import type { RelaySession } from '../relay/protocol.js';
import type { TrackedSession } from './events.js';

/** A keepalive body must stay under this many bytes. */
export const KEEPALIVE_BODY_LIMIT = 65_536; // 64 KiB

/**
 * UTF-8 length of a string (as `new TextEncoder().encode(text).length`): `encodeURIComponent` writes each UTF-8
 * byte as one character or one `%XX`. A lone surrogate, which it refuses, counts as U+FFFD's 3 bytes, as
 * TextEncoder writes it (in `u` mode the class matches no half of a pair).
 */
export function utf8Length(text: string): number {
  return encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, '\ufffd')).replace(/%../g, '-').length;
}

/**
 * Splits `items` into runs whose body (`emptyBodyBytes` plus each item's JSON and the commas between) stays
 * under `limit`, in order. An item too large even alone is returned in `oversized` instead.
 */
export function chunkBySize<T extends { session: TrackedSession }>(items: T[], emptyBodyBytes: number, limit: number): { chunks: T[][]; oversized: T[] } {
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
      size = emptyBodyBytes + itemBytes;
    } else size += added;
    chunk.push(item);
  }
  if (chunk.length) chunks.push(chunk);
  return { chunks, oversized };
}

/**
 * One player's keepalive sizing: the bodies in flight (its own and other trackers' on the page) are counted against the
 * 64 KiB (a page's exit request may be under way beside a flush). Only where the page may go away ({@link Lifecycle.pageExit}): elsewhere (apps,
 * engines) a request outlives going to the background anyway and a background flush is an ordinary one.
 */
export interface KeepaliveSizer {
  /** Splits a batch into bodies a keepalive request may carry now; a session too large alone is `oversized`. */
  chunks<T extends { session: TrackedSession }>(items: T[]): { chunks: T[][]; oversized: T[] };
  /** Counts the body of `sessions` as in flight until the function it returns is called. */
  sending(sessions: RelaySession[]): () => void;
}

/** A `sentAt` of the length every one has, to measure a keepalive body's envelope. */
const SENT_AT_SAMPLE = new Date(0).toISOString();

/**
 * The keepalive body bytes every tracker of this copy of the SDK has in flight: the quota is the page's, so two trackers
 * on one page (two games or players, each its `createGameCampaign`) leaving it together share it. Before, each counted
 * its own, and the second one's exit request, past the page's 64 KiB, was refused: none of its sessions left.
 * Counted as what is left of the quota (bytes).
 */
let left = KEEPALIVE_BODY_LIMIT;

/** The {@link KeepaliveSizer} of one player's flushes to a relay (`isTest` as they are sent). */
export function keepaliveSizer(isTest: boolean | undefined): KeepaliveSizer {
  const bodyBytes = (sessions: RelaySession[]) => utf8Length(playtimeBody(sessions, isTest, SENT_AT_SAMPLE));
  return {
    chunks: (items) => chunkBySize(items, bodyBytes([]), left),
    sending(sessions) {
      const bytes = bodyBytes(sessions);
      left -= bytes;
      return () => (left += bytes);
    },
  };
}
