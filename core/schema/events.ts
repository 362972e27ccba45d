/**
 * Webhook deliveries: the envelope and the payload of each event type.
 * assumed (DESIGN section 10): the spec shows neither the envelope nor the payload fields. The envelope is
 * `{ id, type, createdAt, callbackId?, data }`; the payload fields below are ours, except
 * `oldCreatorKey`/`newCreatorKey` on `sponsor.changed`, which the spec names (Events rule 5).
 */
import * as z from 'zod/mini';
import { RewardItem } from './coupons.js';
import { PaymentRecord } from './payments.js';
import { Timestamp } from './primitives.js';

export const CouponRedeemedData = z.object({
  usageId: z.int(),
  userId: z.string(),
  couponCode: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  reward: z.array(RewardItem),
  redeemedAt: Timestamp,
});

export const PaymentBulkCreatedData = z.object({
  totalRequested: z.int(),
  successful: z.int(),
  failed: z.int(),
  skipped: z.int(),
  transactionIds: z.array(z.string()),
});

export const SponsorCreatedData = z.object({
  userId: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  creatorName: z.string(),
  sponsoredAt: Timestamp,
});

export const SponsorChangedData = z.object({
  userId: z.string(),
  campaignId: z.string(),
  oldCreatorKey: z.string(),
  newCreatorKey: z.string(),
  changedAt: Timestamp,
});

export const SponsorEndedData = z.object({
  userId: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  endedAt: Timestamp,
});

// @__NO_SIDE_EFFECTS__
function envelope<T extends string, D extends z.ZodMiniType>(type: T, data: D) {
  return z.object({
    id: z.string(),
    type: z.literal(type),
    createdAt: Timestamp,
    callbackId: z.optional(z.string()),
    data,
  });
}

/** Every delivery the service sends, discriminated by `type`. */
export const WebhookEvent = z.discriminatedUnion('type', [
  envelope('coupon.redeemed', CouponRedeemedData),
  envelope('payment.created', PaymentRecord),
  envelope('payment.refunded', PaymentRecord),
  envelope('payment.bulk_created', PaymentBulkCreatedData),
  envelope('sponsor.created', SponsorCreatedData),
  envelope('sponsor.changed', SponsorChangedData),
  envelope('sponsor.ended', SponsorEndedData),
]);
export type WebhookEvent = z.infer<typeof WebhookEvent>;
/** The event of one type, e.g. `WebhookEventOf<'sponsor.changed'>`. */
export type WebhookEventOf<T extends WebhookEvent['type']> = Extract<WebhookEvent, { type: T }>;
