/**
 * Signing a delivery the way the service does: for tests of a receiver, and for the emulator.
 */
import { bytesToHex, randomBytes } from '@noble/hashes/utils.js';
import { assertSecret, standardWebhooksScheme, type WebhookScheme } from './scheme.js';
import type { SignedHeaders } from './signature.js';
import { ownFields } from '../own-options.js';

/** Options of `signWebhook`. */
export interface SignWebhookOptions {
  /** The exact body that will be sent. */
  payload: string | Uint8Array;
  /** The webhook secret, `whsec_<base64>`. */
  secret: string;
  /**
   * Delivery id; the same for every retry of one event.
   * @defaultValue `msg_` followed by 32 random hex digits
   */
  id?: string;
  /**
   * When the delivery is signed: a `Date`, or unix seconds.
   * @defaultValue now
   */
  timestamp?: Date | number;
}

/**
 * Signs one delivery and returns the headers to send with it.
 * @throws TypeError when `payload` is not a string or Uint8Array (an event not yet JSON), the secret is not
 * `whsec_<base64>`, or `timestamp` is not a date or a whole number of unix seconds
 * @example
 * ```ts
 * const payload = JSON.stringify(event);
 * const { headers } = signWebhook({ payload, secret });
 * await fetch(receiverUrl, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: payload });
 * ```
 */
export function signWebhook(options: SignWebhookOptions): { headers: SignedHeaders & Record<string, string> };
/** Signs with another scheme; the headers are that scheme's. */
export function signWebhook(options: SignWebhookOptions & { scheme: WebhookScheme }): { headers: Record<string, string> };
export function signWebhook(options: SignWebhookOptions & { scheme?: WebhookScheme }): { headers: Record<string, string> } {
  // Own fields only: a polluted `Object.prototype.id` gave every delivery one id (each after the first a replay).
  options = ownFields(options ?? {});
  const { payload, secret, scheme = standardWebhooksScheme } = options;
  // An event passed as it is failed deep in the HMAC ("offset is out of bounds"); a missing secret, at `startsWith`.
  // Bytes known by their tag, not `instanceof` (as verifyWebhook reads them): a node Buffer in a Jest test (Jest gives
  // each test file its own globals but node's own Buffer: jestjs/jest#4422) or bytes from a `node:vm` context are bytes.
  if (typeof payload !== 'string' && !isTagged<Uint8Array>(payload, 'Uint8Array')) {
    const got = payload === null ? 'null' : typeof payload;
    throw new TypeError(`signWebhook needs the exact body to send (a string or Uint8Array), got ${got}: sign JSON.stringify(event) and send that same text`);
  }
  if (scheme === standardWebhooksScheme) assertSecret(secret);
  const id = options.id ?? `msg_${bytesToHex(randomBytes(16))}`;
  return { headers: scheme.sign({ payload, secret, id, timestampSeconds: toUnixSeconds(options.timestamp) }) };
}

/** True when `value` is a `tag` (a Uint8Array, a Date) of any realm. */
function isTagged<T>(value: unknown, tag: string): value is T {
  return Object.prototype.toString.call(value) === `[object ${tag}]`;
}

/** Unix seconds of a `Date` or a number that already is unix seconds. */
function toUnixSeconds(timestamp: Date | number | undefined): number {
  if (timestamp === undefined) return Math.floor(Date.now() / 1000);
  if (isTagged<Date>(timestamp, 'Date')) {
    const ms = timestamp.getTime();
    if (Number.isNaN(ms)) throw new TypeError('timestamp is an invalid Date');
    return Math.floor(ms / 1000);
  }
  // 1e11 s is the year 5138: a larger number is almost surely milliseconds.
  if (!Number.isSafeInteger(timestamp) || timestamp < 0 || timestamp >= 1e11) {
    throw new TypeError(`timestamp must be a Date or whole unix seconds, got ${timestamp}`);
  }
  return timestamp;
}
