/**
 * Webhook deliveries: the envelope and the payload of each event type.
 * assumed (DESIGN section 10): the spec shows neither the envelope nor the payload fields. The envelope is
 * `{ id, type, createdAt, callbackId?, data }`; the payload fields below are ours, except
 * `oldCreatorKey`/`newCreatorKey` on `sponsor.changed`, which the spec names (Events rule 5). Since they are
 * guesses, a receiver reads them leniently: fields we do not know are kept (`looseObject`), and date-times
 * are any ISO 8601 form ({@link DateTime}), so a genuine signed delivery is never refused over its shape.
 */
import * as z from 'zod/mini';
import { RewardItem } from './coupons.js';
import { paymentRecordFields } from './payments.js';
import { DateTime } from './primitives.js';

export const CouponRedeemedData = z.looseObject({
  usageId: z.int(),
  userId: z.string(),
  couponCode: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  reward: z.array(RewardItem),
  redeemedAt: DateTime,
});

/** A payment record, its date-times read leniently. */
export const PaymentData = z.looseObject({ ...paymentRecordFields, purchasedAt: DateTime, createdAt: DateTime });

export const PaymentBulkCreatedData = z.looseObject({
  totalRequested: z.int(),
  successful: z.int(),
  failed: z.int(),
  skipped: z.int(),
  transactionIds: z.array(z.string()),
});

export const SponsorCreatedData = z.looseObject({
  userId: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  creatorName: z.string(),
  sponsoredAt: DateTime,
});

export const SponsorChangedData = z.looseObject({
  userId: z.string(),
  campaignId: z.string(),
  oldCreatorKey: z.string(),
  newCreatorKey: z.string(),
  changedAt: DateTime,
});

export const SponsorEndedData = z.looseObject({
  userId: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  endedAt: DateTime,
});

// @__NO_SIDE_EFFECTS__
function envelope<T extends string, D extends z.ZodMiniType>(type: T, data: D) {
  return z.object({
    id: z.string(),
    type: z.literal(type),
    createdAt: DateTime,
    callbackId: z.optional(z.string()),
    data,
  });
}

/** Every delivery the service sends, discriminated by `type`. */
export const WebhookEvent = z.discriminatedUnion('type', [
  envelope('coupon.redeemed', CouponRedeemedData),
  envelope('payment.created', PaymentData),
  envelope('payment.refunded', PaymentData),
  envelope('payment.bulk_created', PaymentBulkCreatedData),
  envelope('sponsor.created', SponsorCreatedData),
  envelope('sponsor.changed', SponsorChangedData),
  envelope('sponsor.ended', SponsorEndedData),
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
/** The event of one type, e.g. `WebhookEventOf<'sponsor.changed'>`. */
export type WebhookEventOf<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>;
