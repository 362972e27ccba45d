/**
 * A player's id as the relay's per-player keys name it (the rate limit's, the daily cap's day counts), in memory or in
 * a shared store. Redis clients send a key as UTF-8, where every lone surrogate becomes U+FFFD (ioredis, probed with
 * redis-server 7: `\ud800`, `\udc00` and `\ufffd` counted under one key): players whose ids differ only there, which
 * the game's `authenticate` may return (any JSON string can hold one), shared one rate limit and one daily cap.
 * @see docs/decisions.md ("Per-player keys and lone surrogates")
 */
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';

/** The prefix of a key made of a digest; an id that begins with it is digested too, so no id can be another's key. */
const DIGEST_PREFIX = 'sha256:';

/**
 * `userId` itself when it is well-formed UTF-16 (what UTF-8 carries exactly) and does not begin with `sha256:`, else
 * `sha256:` and the digest of its UTF-16 code units. assumed: a digest, as the daily cap's session marks (row "Session
 * ids a mark cannot hold as they are"): an escape would change the keys of ids that hold its escape character.
 */
export function userKey(userId: string): string {
  return /\p{Cs}/u.test(userId) || userId.startsWith(DIGEST_PREFIX) ? digestKey(userId) : userId;
}

/** `sha256:` and the digest of `text`'s UTF-16 code units (big-endian): 71 characters whatever `text` holds. */
export function digestKey(text: string): string {
  const units = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    units[2 * i] = unit >> 8;
    units[2 * i + 1] = unit & 0xff;
  }
  return `${DIGEST_PREFIX}${bytesToHex(sha256(units))}`;
}
