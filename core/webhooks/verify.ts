/**
 * Verifying one webhook delivery and turning it into a typed event.
 * @see spec "Events" rule 6, DESIGN sections 8 and 10
 */
import type { ReceivedWebhookEvent } from '../schema/events.js';
import { readHeaders, type WebhookHeadersInput } from './headers.js';
import { readEvent } from './read-event.js';
import { isWebhookVerificationError } from './errors.js';
import { assertSecret, standardWebhooksScheme, type VerifiedDelivery, type WebhookScheme } from './scheme.js';
import { misnamedOption, ownFields } from '../own-options.js';

/** One webhook secret (`whsec_<base64>`), or several accepted alike (a secret being rotated). */
export type WebhookSecret = string | readonly string[];

/** The raw request body: exactly the bytes (or their text) that arrived, never a parsed object. */
export type RawWebhookPayload = string | Uint8Array | ArrayBuffer;

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** The raw, unparsed request body. */
  payload: RawWebhookPayload;
  /** The request headers: a Fetch `Headers`, a plain object (names in any case) or node's `req.headers`. */
  headers: WebhookHeadersInput;
  /**
   * The webhook secret, `whsec_<base64>`, returned once when the webhook was created; or several, while a webhook
   * is replaced by one with a new secret (both deliver until the old one is deleted): a delivery signed with any passes.
   */
  secret: WebhookSecret;
  /**
   * How far the delivery's timestamp may be from `now`, either way, in seconds.
   * @defaultValue 300
   */
  toleranceSeconds?: number;
  /**
   * The clock, in ms since the epoch.
   * @defaultValue `Date.now`
   */
  now?: () => number;
  /**
   * The signing scheme.
   * @defaultValue {@link standardWebhooksScheme}
   */
  scheme?: WebhookScheme;
}

/** A verified event with the delivery facts a receiver needs to refuse replays. */
export interface VerifiedWebhook {
  event: ReceivedWebhookEvent;
  delivery: VerifiedDelivery;
}

/** Default tolerance of the timestamp check, seconds. assumed (DESIGN section 10): 300 s, as Standard Webhooks. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/**
 * Checks that a delivery comes from the service and returns its event, typed by `type`.
 *
 * The checks, in order: the three headers are present, the timestamp is a number within
 * `toleranceSeconds` of now, one of the signatures matches (constant-time comparison). Those decide
 * authenticity; nothing after them refuses: a body that is not a JSON object, or one without a string `type`, is
 * an unknown event of type `''`. A genuine delivery is never refused over its shape: every assumed payload field is
 * optional, a field of an unexpected type is left out of `data` (`event.raw` holds the body as sent), and an
 * event type the SDK does not know comes back as an {@link UnknownWebhookEvent} (narrow with
 * {@link isKnownWebhookEvent}). assumed (DESIGN section 10): Standard Webhooks signing, tolerance 300 s,
 * envelope `{ id, type, createdAt, callbackId?, data }`, `id` falling back to the `webhook-id` header.
 * It does not remember deliveries: to refuse replays too, use {@link createWebhookReceiver}.
 *
 * @throws WebhookVerificationError with the `reason` of the failed check
 * @throws TypeError when `payload` is not the raw body (e.g. an object a JSON body parser made), the secret is malformed,
 * or `now()` gives no finite number (the timestamp check would pass deliveries of any age)
 * @example
 * ```ts
 * // Express: keep the raw body for this route.
 * app.post('/webhooks/campaign', express.raw({ type: 'application/json' }), async (req, res) => {
 *   try {
 *     const event = await verifyWebhook({ payload: req.body, headers: req.headers, secret: process.env.WEBHOOK_SECRET! });
 *     if (isKnownWebhookEvent(event) && event.type === 'coupon.redeemed' && event.data.userId && event.data.reward) {
 *       grantReward(event.data.userId, event.data.reward);
 *     }
 *     res.sendStatus(204);
 *   } catch (error) {
 *     res.sendStatus(isWebhookVerificationError(error) ? 401 : 500);
 *   }
 * });
 * ```
 * @see spec "Events" rule 6
 */
export async function verifyWebhook(options: VerifyWebhookOptions): Promise<ReceivedWebhookEvent> {
  return (await verifyDelivery(options)).event;
}

/** {@link verifyWebhook}, also returning the delivery id and timestamp. @internal */
export async function verifyDelivery(options: VerifyWebhookOptions): Promise<VerifiedWebhook> {
  // Called with nothing (from JavaScript): the raw body's own TypeError below, not "Cannot destructure property".
  // Own fields only (ownFields): destructuring reads an option left out through the prototype, and a polluted
  // `Object.prototype.toleranceSeconds = 1e9` (a deep merge of untrusted JSON elsewhere) accepted a captured delivery
  // of any age again, `secret` a forger's key, `scheme` an object without `verify`.
  options = ownFields(options ?? {});
  const { secret, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS, now = () => Date.now(), scheme = standardWebhooksScheme } = options;
  const payload = rawBytes(options.payload);
  const secrets = secretList(secret, scheme);
  assertTolerance(toleranceSeconds, options);
  const headers = readHeaders(options.headers);
  const nowSeconds = Math.floor(clockMs(now) / 1000);
  let verified: VerifiedDelivery | void;
  for (let i = 0; ; i++) {
    try {
      verified = await scheme.verify({ payload, headers, secret: secrets[i]!, toleranceSeconds, nowSeconds });
      break;
    } catch (error) {
      // Only the signature depends on the secret: another refusal (headers, timestamp) is the same for every one.
      if (i === secrets.length - 1 || !isWebhookVerificationError(error) || error.reason !== 'invalid_signature') throw error;
    }
  }
  const event = readEvent(payload, verified?.id ?? headers.get('webhook-id') ?? undefined);
  return { event, delivery: verified ?? { id: event.id, timestampSeconds: nowSeconds } };
}

/**
 * The secrets to try, in order, each checked as a secret (by the default scheme; a custom scheme checks its own).
 * @throws TypeError for an empty list, or a secret the default scheme cannot use
 * @internal
 */
export function secretList(secret: WebhookSecret, scheme: WebhookScheme): readonly string[] {
  const secrets: readonly string[] = Array.isArray(secret) ? secret : [secret as string];
  if (secrets.length === 0) throw new TypeError('secret must be the webhook secret string (whsec_...), or a non-empty list of them');
  if (scheme === standardWebhooksScheme) secrets.forEach(assertSecret);
  return secrets;
}

/**
 * The time `now` gives, in ms (a `Date` is read as its time). A clock that gives no number is a programming error,
 * thrown: NaN compares false with every bound, so the timestamp check would pass deliveries of any age.
 */
function clockMs(now: () => number): number {
  const value: unknown = now();
  const ms = Number(value);
  if (!Number.isFinite(ms)) throw new TypeError(`now() must give the time in ms since the epoch (a finite number), got ${String(value)}`);
  return ms;
}

/**
 * The body as bytes; anything but a raw body is a programming error, said plainly. Bytes and buffers are known by
 * their tag, not `instanceof`: a body from another realm is still the body, and `instanceof Uint8Array` is false for
 * a node Buffer in a Jest test (Jest gives each test file its own globals but node's own Buffer: jestjs/jest#4422,
 * #13547) and for bytes made in a `node:vm` context; such a genuine delivery was refused as "an object a JSON parser
 * made". Any other view (a DataView, an Int8Array) is read as the bytes it covers.
 */
function rawBytes(payload: unknown): Uint8Array {
  if (typeof payload === 'string') return new TextEncoder().encode(payload);
  if (payload instanceof Uint8Array) return payload;
  if (ArrayBuffer.isView(payload)) return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  if (Object.prototype.toString.call(payload) === '[object ArrayBuffer]') return new Uint8Array(payload as ArrayBuffer);
  throw new TypeError(
    `verifyWebhook needs the raw request body (a string, Uint8Array/Buffer or ArrayBuffer), got ${kindOf(payload)}. ` +
      'The signature covers the exact bytes sent, so a body that a JSON parser already turned into an object cannot be verified: ' +
      "read the raw body (await request.arrayBuffer(), express.raw({ type: 'application/json' }), or req.rawBody; request.text() also works but drops a leading BOM).",
  );
}

/**
 * What a payload that is not a raw body is, for the message: `object` for a parsed body (a plain object or an array), the
 * class of anything else (a `ReadableStream` or `Request` handed over unread, a `Blob`), so the message says what was passed.
 */
function kindOf(payload: unknown): string {
  if (payload === null || typeof payload !== 'object') return payload === null ? 'null' : typeof payload;
  const name = (payload as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && name !== 'Object' && name !== 'Array' && name !== '' ? `a ${name} (read its bytes first)` : 'object';
}

/**
 * Throws a TypeError for a tolerance given under a name that is not read (`tolerance`, `toleranceMs`: from plain
 * JavaScript the default 300 s applied in silence, and a value meant in ms was never seen), then for a tolerance that
 * is not a finite number of seconds >= 0. @internal
 */
export function assertTolerance(toleranceSeconds: number, options?: object): void {
  const misnamed = misnamedOption(options, ['tolerance', 'toleranceMs']);
  if (misnamed !== undefined) throw new TypeError(`\`${misnamed}\` is not an option; use \`toleranceSeconds\` (in seconds)`);
  if (typeof toleranceSeconds !== 'number' || !Number.isFinite(toleranceSeconds) || toleranceSeconds < 0) {
    throw new TypeError(`toleranceSeconds must be a finite number of seconds >= 0, got ${toleranceSeconds}`);
  }
}
