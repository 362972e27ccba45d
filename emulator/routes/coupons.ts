/** Coupons: redeem, validate (assumed route), a user's usage. @see spec "Redeem coupon", "List a user's coupon usage" */
import type { Hono } from 'hono';
import { RedeemCouponRequest, ValidateCouponRequest, type CouponRedemption, type CouponUsage, type CouponValidation } from '../../core/schema/coupons.js';
import { PageQuery } from '../../core/schema/primitives.js';
import { check } from '../data-only.js';
import type { AppEnv, Services } from '../app-env.js';
import type { CouponFixture } from '../fixtures.js';
import { coerceQuery, fail, invalid, json, ok, paginate, queryOf } from '../respond.js';
import type { Store } from '../store.js';

/** errorCode of an unknown coupon. assumed: the spec shows the field, not its values. */
export const COUPON_NOT_FOUND = 'COUPON_NOT_FOUND';

/** Registers the coupon routes. */
export function couponRoutes(app: Hono<AppEnv>, { store, webhooks }: Services): void {
  app.post('/v1/server/coupons/redeem', (c) => {
    const checked = check(RedeemCouponRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const { couponCode, userId, isTest, callbackId } = checked.data;
    const coupon = store.coupon(couponCode);
    if (!coupon) {
      const answer: CouponRedemption = { success: false, couponCode, errorCode: COUPON_NOT_FOUND, errorMessage: `Coupon ${couponCode} does not exist` };
      return ok(c, answer);
    }
    if (usesLeft(store, coupon, userId) <= 0) {
      return fail(c, 400, 'USER_CODE_LIMIT', `Coupon ${coupon.couponCode} can be redeemed at most ${coupon.perUserLimit} time(s) per user`);
    }
    const boost = store.boosts.get(userId);
    const usage: CouponUsage = {
      id: isTest ? 0 : store.nextId('couponUsage'),
      userId,
      couponCode: coupon.couponCode,
      packageId: coupon.packageId,
      campaignId: coupon.campaignId,
      creatorKey: coupon.creatorKey ?? (boost?.campaignId === coupon.campaignId ? boost.creatorKey : ''),
      usedAt: store.iso(),
    };
    if (!isTest) {
      store.append(store.couponUsages, usage);
      webhooks.emit(
        'coupon.redeemed',
        { usageId: usage.id, userId, couponCode: usage.couponCode, campaignId: usage.campaignId, creatorKey: usage.creatorKey, reward: coupon.reward, redeemedAt: usage.usedAt },
        callbackId,
      );
    }
    const answer: CouponRedemption = { success: true, usageId: usage.id, couponCode: coupon.couponCode, reward: coupon.reward, itemName: coupon.itemName, redeemedAt: usage.usedAt };
    return ok(c, answer);
  });

  app.post('/v1/server/coupons/validate', (c) => {
    const checked = check(ValidateCouponRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const { couponCode, userId } = checked.data;
    const coupon = store.coupon(couponCode);
    let answer: CouponValidation;
    if (!coupon) answer = { valid: false, couponCode, errorCode: COUPON_NOT_FOUND, errorMessage: `Coupon ${couponCode} does not exist` };
    else if (userId !== undefined && usesLeft(store, coupon, userId) <= 0) {
      answer = { valid: false, couponCode: coupon.couponCode, errorCode: 'USER_CODE_LIMIT', errorMessage: `User ${userId} has used coupon ${coupon.couponCode} ${coupon.perUserLimit} time(s), the limit` };
    } else answer = { valid: true, couponCode: coupon.couponCode, reward: coupon.reward };
    return ok(c, answer);
  });

  app.get('/v1/server/coupons/user/:userId', (c) => {
    const query = check(PageQuery, coerceQuery(queryOf(c), ['page', 'limit']));
    if (!query.success) return invalid(c, query.details);
    const userId = c.req.param('userId');
    const usages = store.couponUsages.filter((usage) => usage.userId === userId);
    return json(c, paginate(usages, query.data.page, query.data.limit));
  });
}

function usesLeft(store: Store, coupon: CouponFixture, userId: string): number {
  const used = store.couponUsages.filter((usage) => usage.userId === userId && usage.couponCode === coupon.couponCode).length;
  return coupon.perUserLimit - used;
}
