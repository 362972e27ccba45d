/** Coupons. @see spec "Redeem coupon", "Coupon redemption result", "Coupon usage record" */
import * as z from 'zod/mini';
import { Id, LocalizedText, UtcDateTime, WriteOptions } from './primitives.js';

/**
 * Body of `POST /v1/server/coupons/redeem`. assumed: couponCode and userId are required; `gameUserUuid` is
 * any UUID-shaped value (8-4-4-4-12 hex digits), whatever its version and variant bits.
 */
export const RedeemCouponRequest = z.object({
  couponCode: Id,
  userId: Id,
  gameUserUuid: z.optional(z.guid('must be a UUID')),
  ...WriteOptions,
});
export type RedeemCouponRequest = z.infer<typeof RedeemCouponRequest>;

export const RewardItem = z.object({
  itemName: LocalizedText,
  itemId: z.string(),
  itemQuantity: z.int(),
  itemImageUrl: z.optional(z.string()),
});
export type RewardItem = z.infer<typeof RewardItem>;

export const CouponRedemption = z.object({
  success: z.boolean(),
  usageId: z.optional(z.int()),
  couponCode: z.string(),
  reward: z.optional(z.array(RewardItem)),
  itemName: z.optional(LocalizedText),
  redeemedAt: z.optional(UtcDateTime),
  errorCode: z.optional(z.string()),
  errorMessage: z.optional(z.string()),
});
export type CouponRedemption = z.infer<typeof CouponRedemption>;

export const CouponUsage = z.object({
  id: z.int(),
  userId: z.string(),
  couponCode: z.string(),
  packageId: z.int(),
  campaignId: z.string(),
  creatorKey: z.string(),
  usedAt: UtcDateTime,
});
export type CouponUsage = z.infer<typeof CouponUsage>;

/** Body of `POST /v1/server/coupons/validate`. assumed (DESIGN section 10): the spec names it without a shape. */
export const ValidateCouponRequest = z.object({ couponCode: Id, userId: z.optional(Id) });
export type ValidateCouponRequest = z.infer<typeof ValidateCouponRequest>;

/** assumed (DESIGN section 10). */
export const CouponValidation = z.object({
  valid: z.boolean(),
  couponCode: z.string(),
  reward: z.optional(z.array(RewardItem)),
  errorCode: z.optional(z.string()),
  errorMessage: z.optional(z.string()),
});
export type CouponValidation = z.infer<typeof CouponValidation>;
