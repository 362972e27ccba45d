/**
 * Turning the body of a delivery whose signature holds into a typed event, without ever refusing it over
 * its shape: the fields are our guesses (the spec shows none), and a receiver that answers 4xx to a genuine
 * delivery makes the service retry and give up, so the game never grants what the event is about.
 * @see spec "Events", DESIGN section 10, docs/decisions.md
 */
import { bytesToHex } from '@noble/hashes/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type * as z from 'zod/mini';
import { WEBHOOK_ENVELOPE_FIELDS, WEBHOOK_EVENT_FIELDS, type ReceivedWebhookEvent, type WebhookEvent } from '../schema/events.js';
import { WEBHOOK_EVENT_TYPES } from '../schema/webhooks.js';

/**
 * Not fatal: a byte that is not UTF-8 (a name the sender wrote in Latin-1) reads as U+FFFD rather than refusing a
 * genuine delivery, which the service would resend, byte for byte, until it gave up. assumed: as the Standard
 * Webhooks libraries read it (`Buffer#toString()`); a leading BOM is skipped.
 */
const utf8 = new TextDecoder();

/**
 * True when `event` is of one of the seven types this SDK knows; after it, `event.type` narrows `event.data`.
 * @example
 * ```ts
 * const event = await verifyWebhook({ payload, headers, secret });
 * if (!isKnownWebhookEvent(event)) return log.info('webhook of a newer type', event.type, event.raw);
 * if (event.type === 'sponsor.changed') move(event.data.oldCreatorKey, event.data.newCreatorKey);
 * ```
 */
export function isKnownWebhookEvent(event: ReceivedWebhookEvent): event is WebhookEvent {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(event.type);
}

/**
 * The event in a signed body, whatever its shape; nothing is refused:
 * - a body that is not a JSON object (an array, a string, text that is not JSON) is an unknown event of type `''`
 *   whose `raw` is the parsed value, or the text when it is not JSON;
 * - an object without a string `type` is an unknown event of type `''` (its `type`, if any, stays in `raw`);
 * - every assumed field is optional; one present with another type than assumed is left out of the typed
 *   view (assumed: leaving it out beats passing a value of the wrong type to code typed for the right one),
 *   and stays in `raw`, the parsed body as sent;
 * - payload fields we do not know are kept in `data`; a `data` that is missing or not an object reads as `{}`;
 * - `id` falls back to `deliveryId` (the `webhook-id` header), and without one to a hash of the body, so
 *   replays of the same body are still recognised.
 */
export function readEvent(payload: Uint8Array, deliveryId: string | undefined): ReceivedWebhookEvent {
  const text = utf8.decode(payload);
  let raw: unknown = text;
  try {
    raw = JSON.parse(text);
  } catch {
    // Signed by the service, so still its delivery: an unknown event with the text in `raw`, never a 4xx the service
    // would retry, byte for byte, until it gave up.
  }
  // A body that is not an object, or an object that names no type as a string (the service's envelope calls it
  // otherwise, or sent none), is likewise an unknown event of type ''.
  const body = isObject(raw) ? raw : {};
  const type = typeof body['type'] === 'string' ? body['type'] : '';
  const known = Object.prototype.hasOwnProperty.call(WEBHOOK_EVENT_FIELDS, type) ? WEBHOOK_EVENT_FIELDS[type as keyof typeof WEBHOOK_EVENT_FIELDS] : {};
  const envelope = validFields(body, WEBHOOK_ENVELOPE_FIELDS, false);
  const data = isObject(body['data']) ? validFields(body['data'], known, true) : {};
  const id = typeof envelope['id'] === 'string' ? envelope['id'] : (deliveryId ?? `sha256:${bytesToHex(sha256(payload))}`);
  return { ...envelope, id, type, data, raw } as ReceivedWebhookEvent;
}

/**
 * The fields of `value` that `fields` names and that match their schema (parsed), and, with `keepUnknown`,
 * every field `fields` does not name, as is.
 */
function validFields(value: Record<string, unknown>, fields: Record<string, z.ZodMiniType>, keepUnknown: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    const schema = Object.prototype.hasOwnProperty.call(fields, name) ? fields[name] : undefined;
    if (!schema) {
      if (keepUnknown) set(out, name, field);
      continue;
    }
    const result = schema.safeParse(field);
    if (result.success) set(out, name, result.data);
  }
  return out;
}

/** An own property even for the name `__proto__` (JSON.parse makes one; an assignment would set the prototype). */
function set(target: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
