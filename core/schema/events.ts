/**
 * Webhook deliveries: the envelope and the payload of each event type.
 * assumed (DESIGN section 10): the spec shows neither the envelope nor the payload fields ("Payload fields
 * for each event type: not shown"). The envelope is `{ id, type, createdAt, callbackId?, data }`; the payload
 * fields below are ours, except `oldCreatorKey`/`newCreatorKey` on `sponsor.changed`, which the spec names
 * (Events rule 5).
 *
 * Since they are guesses, two views exist. The schemas ({@link SentWebhookEvent}) say what we assume the
 * service sends in full: the emulator sends exactly that. The {@link WebhookEvent} a receiver gets is
 * lenient: every assumed field is optional, a field of the wrong type is left out (the body as sent stays
 * in `raw`), fields we do not know are kept, and a type we do not know comes through as an
 * {@link UnknownWebhookEvent}. Only the signature decides whether a delivery is accepted.
 */
import * as z from 'zod/mini';
import { RewardItem } from './coupons.js';
import { paymentRecordFields } from './payments.js';
import { DateTime } from './primitives.js';
import type { WebhookEventType } from './webhooks.js';

/** Field schemas of each event type's `data`, as we assume the service sends it. */
export const WEBHOOK_EVENT_FIELDS = {
  'coupon.redeemed': {
    usageId: z.int(),
    userId: z.string(),
    couponCode: z.string(),
    campaignId: z.string(),
    creatorKey: z.string(),
    // Loose, as `data` is: a field of a reward item we do not know (the spec shows none of the payload) is kept.
    reward: z.array(z.looseObject(RewardItem.shape)),
    redeemedAt: DateTime,
  },
  'payment.created': { ...paymentRecordFields, purchasedAt: DateTime, createdAt: DateTime },
  'payment.refunded': { ...paymentRecordFields, purchasedAt: DateTime, createdAt: DateTime },
  'payment.bulk_created': {
    totalRequested: z.int(),
    successful: z.int(),
    failed: z.int(),
    skipped: z.int(),
    transactionIds: z.array(z.string()),
  },
  'sponsor.created': { userId: z.string(), campaignId: z.string(), creatorKey: z.string(), creatorName: z.string(), sponsoredAt: DateTime },
  'sponsor.changed': { userId: z.string(), campaignId: z.string(), oldCreatorKey: z.string(), newCreatorKey: z.string(), changedAt: DateTime },
  'sponsor.ended': { userId: z.string(), campaignId: z.string(), creatorKey: z.string(), endedAt: DateTime },
} satisfies Record<WebhookEventType, Record<string, z.ZodMiniType>>;

/** Field schemas of the envelope besides `type` and `data`. */
export const WEBHOOK_ENVELOPE_FIELDS = { id: z.string(), createdAt: DateTime, callbackId: z.string() };

export const CouponRedeemedData = z.looseObject(WEBHOOK_EVENT_FIELDS['coupon.redeemed']);
/** A payment record, its date-times read leniently. */
export const PaymentData = z.looseObject(WEBHOOK_EVENT_FIELDS['payment.created']);
export const PaymentBulkCreatedData = z.looseObject(WEBHOOK_EVENT_FIELDS['payment.bulk_created']);
export const SponsorCreatedData = z.looseObject(WEBHOOK_EVENT_FIELDS['sponsor.created']);
export const SponsorChangedData = z.looseObject(WEBHOOK_EVENT_FIELDS['sponsor.changed']);
export const SponsorEndedData = z.looseObject(WEBHOOK_EVENT_FIELDS['sponsor.ended']);

// @__NO_SIDE_EFFECTS__
function envelope<T extends WebhookEventType>(type: T) {
  const { id, createdAt, callbackId } = WEBHOOK_ENVELOPE_FIELDS;
  return z.object({ id, type: z.literal(type), createdAt, callbackId: z.optional(callbackId), data: z.looseObject(WEBHOOK_EVENT_FIELDS[type]) });
}

/**
 * A delivery as we assume the service sends it, every assumed field present: what the emulator sends.
 * Receivers do not parse with it (see {@link WebhookEvent}).
 */
export const SentWebhookEvent = z.discriminatedUnion('type', [
  envelope('coupon.redeemed'),
  envelope('payment.created'),
  envelope('payment.refunded'),
  envelope('payment.bulk_created'),
  envelope('sponsor.created'),
  envelope('sponsor.changed'),
  envelope('sponsor.ended'),
]);
/** A delivery as we assume the service sends it, every assumed field present. */
export type SentWebhookEvent = z.infer<typeof SentWebhookEvent>;

/** The `data` of an event of type `T` with every assumed field, e.g. `WebhookEventData<'sponsor.changed'>`. */
export type WebhookEventData<T extends WebhookEventType> = Extract<SentWebhookEvent, { type: T }>['data'];

/** What every received event has, known type or not. */
export interface WebhookEventEnvelope<T extends string, D, R = Record<string, unknown>> {
  /** The event id: the body's `id`, or, when the body has none (or not a string), the delivery id (`webhook-id`). */
  id: string;
  /** The event type, e.g. `sponsor.changed`. */
  type: T;
  /** When the service created the event, when the body says so as an ISO 8601 date-time. */
  createdAt?: string;
  /** The `callbackId` of the request that caused the event, when it had one. */
  callbackId?: string;
  /** The payload: the fields we know with the right type, and every field we do not know. */
  data: D;
  /**
   * The parsed body exactly as sent: nothing left out, nothing converted. For an {@link UnknownWebhookEvent}, any
   * JSON value, or the body's text when it is not JSON (a signed body is never refused over its shape).
   */
  raw: R;
}

/**
 * A received event of one of the seven known types, discriminated by `type`: `event.type ===
 * 'sponsor.changed'` narrows `event.data`. Every payload field is optional, because the spec does not show
 * them: check a field before you use it (a field sent with another type than assumed is left out of `data`
 * and kept in `raw`).
 */
export type WebhookEvent = { [T in WebhookEventType]: WebhookEventEnvelope<T, Partial<WebhookEventData<T>>> }[WebhookEventType];

/** The event of one type, e.g. `WebhookEventOf<'sponsor.changed'>`. */
export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;

/**
 * A received event of a type this SDK does not know (one the service added later), or of type `''` when the body
 * names no type as a string or is not a JSON object (`raw` holds it as sent: any JSON value, or the text when it is
 * not JSON). Narrow a {@link ReceivedWebhookEvent} with `isKnownWebhookEvent(event)` first; then read these with
 * checks.
 */
export type UnknownWebhookEvent = WebhookEventEnvelope<string, Record<string, unknown>, unknown>;

/** What a verified delivery becomes: a known event, or one of a type the SDK does not know. */
export type ReceivedWebhookEvent = WebhookEvent | UnknownWebhookEvent;
