/**
 * The pluggable signing scheme of webhook deliveries, and the default one: Standard Webhooks.
 * assumed (DESIGN section 10): the spec asks for a secret, a signature and a timestamp check but shows no
 * scheme; we use Standard Webhooks (headers `webhook-id`, `webhook-timestamp`, `webhook-signature`
 * = `v1,<base64 HMAC-SHA256(id.timestamp.body)>`, secret `whsec_<base64>`).
 * @see spec "Events" rule 6, https://www.standardwebhooks.com
 */
import { WebhookVerificationError } from './errors.js';
import { envValueProblem } from '../env-value.js';
import type { HeaderReader } from './headers.js';
import { base64Decode, bytesEqual, computeSignature, secretKey, signatureBytes, type SignedHeaders } from './signature.js';
import { lostIdBytes, signedIdForms } from './delivery-id.js';

/** What a scheme signs: one delivery. */
export interface WebhookSignInput {
  payload: string | Uint8Array;
  secret: string;
  /** Delivery id, unique per event (the same for every retry of it). */
  id: string;
  /** Unix seconds. */
  timestampSeconds: number;
}

/** What a scheme checks: one delivery as received, and the clock and tolerance to check it against. */
export interface WebhookVerifyInput {
  /** The raw body bytes, exactly as received. */
  payload: Uint8Array;
  headers: HeaderReader;
  secret: string;
  toleranceSeconds: number;
  /** The receiver's clock, unix seconds. */
  nowSeconds: number;
}

/** The delivery a scheme verified: its id (the replay key) and when it was signed. */
export interface VerifiedDelivery {
  id: string;
  /** Unix seconds. */
  timestampSeconds: number;
}

/**
 * A signing scheme: how deliveries are signed and how that is checked. `verify` throws a
 * `WebhookVerificationError` for each failed check; it may return the delivery id and timestamp, which a
 * receiver uses to refuse replays (without them it keys replays on the event's `id`).
 */
export interface WebhookScheme {
  verify(input: WebhookVerifyInput): Promise<VerifiedDelivery | void> | VerifiedDelivery | void;
  sign(input: WebhookSignInput): Record<string, string>;
}

/**
 * Whole seconds, with an optional sign and an optional fraction (`+1714564800`, `1714564800.0`): the forms the
 * reference library reads as a number (standardwebhooks `Webhook.verifyTimestamp`: `parseInt(header, 10)`), which
 * then signs the whole seconds (`Webhook.sign`). Exponents, hex and trailing text are not seconds.
 */
const SECONDS = /^([+-]?)(\d{1,15})(?:\.\d*)?$/;

/**
 * Standard Webhooks: the signature header may list several space-separated `v1,<base64>` entries (the
 * sender rotating its key); one match passes. Signatures are compared as bytes, in constant time, so base64 written
 * URL-safe or without padding matches too.
 */
export const standardWebhooksScheme = {
  sign({ payload, secret, id, timestampSeconds }: WebhookSignInput): SignedHeaders & Record<string, string> {
    return {
      'webhook-id': id,
      'webhook-timestamp': String(timestampSeconds),
      'webhook-signature': computeSignature(secret, id, timestampSeconds, payload),
    };
  },

  verify({ payload, headers, secret, toleranceSeconds, nowSeconds }: WebhookVerifyInput): VerifiedDelivery {
    const id = headers.get('webhook-id');
    const timestamp = headers.get('webhook-timestamp');
    const signatures = headers.get('webhook-signature');
    const missing = [!id && 'webhook-id', !timestamp && 'webhook-timestamp', !signatures && 'webhook-signature'].filter(Boolean);
    if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing_headers', `Missing webhook header(s): ${missing.join(', ')}`);

    const trimmed = timestamp.trim();
    const parts = SECONDS.exec(trimmed);
    if (!parts) throw new WebhookVerificationError('invalid_timestamp', `webhook-timestamp is not a number of seconds: "${timestamp}"`);
    // A fraction is dropped, as parseInt does; -0 is 0.
    const timestampSeconds = Number(parts[1]! + parts[2]!) || 0;
    if (nowSeconds - timestampSeconds > toleranceSeconds) {
      throw new WebhookVerificationError('timestamp_too_old', `webhook-timestamp is ${nowSeconds - timestampSeconds} s old (tolerance ${toleranceSeconds} s)`);
    }
    if (timestampSeconds - nowSeconds > toleranceSeconds) {
      throw new WebhookVerificationError('timestamp_too_new', `webhook-timestamp is ${timestampSeconds - nowSeconds} s in the future (tolerance ${toleranceSeconds} s)`);
    }

    // A sender on the Standard Webhooks JavaScript library signs a Buffer body as `Buffer#toString()`, a byte that is
    // not UTF-8 as U+FFFD (standardwebhooks `Webhook.sign`), yet sends the bytes: that text is what `readEvent` reads,
    // so a signature over it authenticates exactly the event returned.
    const lossy = notUtf8(payload) ? asText.decode(payload) : undefined;
    // An id that is not ASCII, read both ways it may have been signed (delivery-id.ts): the same answer on every runtime.
    const expected: Array<{ mac: Uint8Array; id: string }> = [];
    for (const form of signedIdForms(id)) {
      const signed = (times: number | string, body: string | Uint8Array) => expected.push({ mac: signatureBytes(secret, form.bytes, times, body), id: form.id });
      signed(timestampSeconds, payload);
      // The header written otherwise than its seconds (`+N`, `N.0`, leading zeros): a sender may have signed its own text.
      if (trimmed !== String(timestampSeconds)) signed(trimmed, payload);
      if (lossy !== undefined) signed(timestampSeconds, lossy);
    }
    // Constant time per candidate, and every candidate is compared: no early exit on the first match.
    let matched: string | undefined;
    for (const entry of signatures.split(/\s+/)) {
      // A comma-joined repeat of the header (`v1,a, v1,b`) leaves a trailing comma; base64 never has one.
      const candidate = entry.replace(/,$/, '');
      if (!candidate.startsWith('v1,')) continue;
      // The signature's bytes, however the base64 is written (standard or URL-safe, padded or not).
      const bytes = signatureOf(candidate.slice(3));
      for (const { mac, id: signedId } of expected) if (bytes && bytesEqual(bytes, mac)) matched ??= signedId;
    }
    if (matched === undefined) {
      // workerd decodes header bytes that are not UTF-8 as U+FFFD: the id the sender signed cannot be read back there.
      const lost = lostIdBytes(id) ? ' (webhook-id holds U+FFFD: bytes that are not UTF-8, which this runtime, as Cloudflare Workers does, decoded so, losing the id that was signed; ids in ASCII or UTF-8 verify on every runtime)' : '';
      throw new WebhookVerificationError('invalid_signature', `No webhook-signature entry matches the payload and secret: check the secret, and pass the raw body as received (JSON parsed and serialised again has other bytes)${lost}`);
    }
    // The id the matched signature covers, read alike on every runtime (the replay key, and the event's id without one).
    return { id: matched, timestampSeconds };
  },
} satisfies WebhookScheme;

/** Body bytes as `Buffer#toString()` reads them: not fatal (U+FFFD), a leading BOM kept as U+FEFF. */
const asText = new TextDecoder('utf-8', { ignoreBOM: true });
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function notUtf8(payload: Uint8Array): boolean {
  try {
    strictUtf8.decode(payload);
    return false;
  } catch {
    return true;
  }
}

/** A signature's bytes (HMAC-SHA256: 32), or undefined when `text` is not base64 of 32 bytes. */
function signatureOf(text: string): Uint8Array | undefined {
  try {
    const bytes = base64Decode(text);
    return bytes.length === 32 ? bytes : undefined;
  } catch {
    return undefined;
  }
}

/** Throws a clear TypeError for a secret that cannot be a key, before any delivery arrives. */
export function assertSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== 'string' || secret.length === 0) throw new TypeError('secret must be the webhook secret string (whsec_...) returned when the webhook was created');
  const problem = envValueProblem(secret);
  if (problem) throw new TypeError(`secret ${problem}; it must be whsec_ followed by base64, as returned when the webhook was created`);
  let key: Uint8Array;
  try {
    key = secretKey(secret);
  } catch (cause) {
    throw new TypeError('secret must be whsec_ followed by base64, as returned when the webhook was created', { cause });
  }
  if (key.length === 0) throw new TypeError('secret must not be empty after the whsec_ prefix');
}
