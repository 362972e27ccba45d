import { path } from '../http/environment.js';
import { keyOf, pagedList, type PagePromise } from '../http/page.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import { RedeemCouponRequest, ValidateCouponRequest, type CouponRedemption, type CouponUsage, type CouponValidation } from '../schema/coupons.js';
import { Id, PageQuery } from '../schema/primitives.js';

/** Coupons. @see spec "Redeem coupon", "List a user's coupon usage" */
export class Coupons extends Resource {
  /**
   * Redeems a coupon for a user: stores a usage record and sends `coupon.redeemed`.
   * Retried only after 429 (not processed): a redeem is not de-duplicated, so a lost answer is not resent.
   * @throws UserCodeLimitError when the user's limit for this coupon is used up
   */
  async redeem(request: RedeemCouponRequest, options?: RequestOptions): Promise<CouponRedemption> {
    const body = validated(RedeemCouponRequest, request);
    return this.transport.data({ method: 'POST', path: path`/v1/server/coupons/redeem`, body, retry: 'rate-limit', response: { name: 'CouponRedemption', shape: 'item' }, options });
  }

  /**
   * A user's coupon usage, newest pages on demand: `await` for one page, `for await` for every record.
   * Bad input rejects on first use. Retried after transient failures.
   */
  listUsage(userId: string, query: PageQuery = {}, options?: RequestOptions): PagePromise<CouponUsage> {
    return pagedList(this.transport, () => {
      const id = validated(Id, userId, 'userId');
      const { page, limit } = validated(PageQuery, query);
      return {
        firstPage: page,
        spec: (n) => ({ method: 'GET', path: path`/v1/server/coupons/user/${id}`, query: { page: n, limit }, retry: 'safe', response: { name: 'CouponUsage', shape: 'page' }, options }),
      };
    }, keyOf('id'));
  }

  /**
   * Checks a coupon code without redeeming it (`POST /v1/server/coupons/validate`). Retried after transient failures (it changes nothing).
   * @beta assumed (DESIGN section 10): the spec names this operation without a shape.
   */
  async validate(request: ValidateCouponRequest, options?: RequestOptions): Promise<CouponValidation> {
    const body = validated(ValidateCouponRequest, request);
    return this.transport.data({ method: 'POST', path: path`/v1/server/coupons/validate`, body, retry: 'safe', response: { name: 'CouponValidation', shape: 'item' }, options });
  }
}
