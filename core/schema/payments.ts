/** In-game payments. @see spec "Payment bulk item", "Payment record", "Register bulk payments" */
import * as z from 'zod/mini';
import { BulkItemStatus, bulkResultOf, checked, Id, UtcDateTime, WriteOptions } from './primitives.js';
import { MAX_BULK_ITEMS } from './playtime.js';

/** A currency as given: any code the service takes (the spec names no list), but not '' (which names none). */
const Currency = checked(z.string(), z.minLength(1, 'must not be empty'));

/**
 * One payment to register. assumed: the spec does not say which fields are required; identity,
 * product, amount, currency and purchase time are required (a payment means nothing without them),
 * `productName`, `netAmount` and `netCurrency` are optional.
 */
const paymentItemFields = {
  userId: Id,
  transactionId: Id,
  productId: Id,
  amount: z.number(),
  currency: Currency,
  productName: z.optional(z.string()),
  purchasedAt: UtcDateTime,
  netAmount: z.optional(z.number()),
  netCurrency: z.optional(Currency),
};
export const PaymentItem = z.object(paymentItemFields);
export type PaymentItem = z.infer<typeof PaymentItem>;

/**
 * How the callbackId `payments.registerBulk` gives a call sent without one begins (`gcsdk-bulk-<32 hex digits>`): every attempt
 * of the call carries it, and a webhook receiver emits one `payment.bulk_created` per such id, though the service sends
 * a summary for each attempt.
 */
export const BULK_CALLBACK_PREFIX = 'gcsdk-bulk-';

/** Body of `POST /v1/server/payments/bulk`: up to 1000 items (the spec sets no minimum, unlike sessions). */
export const BulkPaymentRequest = z.object({
  payments: checked(z.array(PaymentItem), 
    z.maxLength(MAX_BULK_ITEMS, `must hold at most ${MAX_BULK_ITEMS} payments`),
  ),
  ...WriteOptions,
});
export type BulkPaymentRequest = z.infer<typeof BulkPaymentRequest>;

/** Body of `POST /v1/server/payments` (assumed: one bulk item plus the write options). */
export const PaymentRequest = z.object({ ...paymentItemFields, ...WriteOptions });
export type PaymentRequest = z.infer<typeof PaymentRequest>;

/** The fields of a payment detail (the webhook payloads reuse them). */
export const paymentDetailFields = {
  id: z.int(),
  transactionId: z.string(),
  userId: z.string(),
  productId: z.string(),
  productName: z.string(),
  amount: z.number(),
  currency: z.string(),
  amountUsd: z.number(),
  isRefund: z.boolean(),
  netAmount: z.number(),
  netCurrency: z.string(),
  campaignCurrency: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  purchasedAt: UtcDateTime,
  createdAt: UtcDateTime,
};

/** Payment as `GET /v1/server/payments/{transactionId}` returns it. */
export const PaymentDetail = z.object(paymentDetailFields);
export type PaymentDetail = z.infer<typeof PaymentDetail>;

/** Payment as bulk results carry it: the detail plus platform, distribution type and status. */
export const paymentRecordFields = {
  ...paymentDetailFields,
  platform: z.string(),
  distributionType: z.string(),
  status: z.string(),
};
export const PaymentRecord = z.object(paymentRecordFields);
export type PaymentRecord = z.infer<typeof PaymentRecord>;

export const PaymentItemResult = z.object({
  transactionId: z.string(),
  status: BulkItemStatus,
  data: z.optional(PaymentRecord),
  error: z.optional(z.string()),
});
export type PaymentItemResult = z.infer<typeof PaymentItemResult>;

export const BulkPaymentResult = bulkResultOf(PaymentItemResult);
export type BulkPaymentResult = z.infer<typeof BulkPaymentResult>;
