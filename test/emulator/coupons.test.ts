// Coupons: redemption (usage stored, coupon.redeemed), per-user limits (USER_CODE_LIMIT), unknown codes,
// validation without redeeming, and the paged usage list with query coercion.
import { describe, expect, it } from 'vitest';
import { CouponRedemption, CouponUsage, CouponValidation, RedeemCouponRequest } from '../../core/schema/coupons.js';
import { dataOf, PageQuery, pageOf } from '../../core/schema/primitives.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_BOOSTED_CREATORS, DEMO_COUPON_LIMITS, DEMO_COUPONS, DEMO_USERS, demoFixtures } from '../../emulator/index.js';
import { at, problemsOf, useSubscribedEmulator, T0 } from './helpers.js';

describe('emulator coupons', () => {
  const ctx = useSubscribedEmulator(['coupon.redeemed']);
  const redeem = (couponCode: string, userId: string, extra: Record<string, unknown> = {}) =>
    ctx.call('POST', '/v1/server/coupons/redeem', { body: { couponCode, userId, ...extra } });

  it('has fixture coupons with different per-user limits and localized rewards', () => {
    const coupons = demoFixtures(T0).coupons;
    expect(coupons.map((c) => [c.couponCode, c.perUserLimit])).toEqual([
      [DEMO_COUPONS.welcome, 1],
      [DEMO_COUPONS.daily, 3],
      [DEMO_COUPONS.creator, 2],
    ]);
    expect(coupons[0]!.reward[0]!.itemName).toEqual({ en: 'Gold', ko: '골드' });
  });

  it('redeems a coupon: the reward in the answer, a usage record stored and coupon.redeemed sent with the callbackId', async () => {
    const welcome = demoFixtures(T0).coupons[0]!;
    const answer = await redeem('WELCOME', 'user_1', { callbackId: 'cb-7', gameUserUuid: '4f9a1c1e-2b7d-4c1a-9e3f-7a6b5c4d3e2f' });
    expect(answer.status).toBe(200);
    expect(dataOf(CouponRedemption).parse(answer.body)).toEqual({
      data: { success: true, usageId: 1, couponCode: 'WELCOME', reward: welcome.reward, itemName: { en: 'Welcome Pack', ko: '웰컴 패키지' }, redeemedAt: at(0) },
    });
    const usage = { id: 1, userId: 'user_1', couponCode: 'WELCOME', packageId: 101, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: '', usedAt: at(0) };
    expect(ctx.emulator.state().couponUsages).toEqual([usage]);
    await ctx.emulator.webhooksIdle();
    const [event, ...others] = ctx.receiver.events();
    expect(others).toEqual([]);
    expect(event).toMatchObject({
      type: 'coupon.redeemed',
      callbackId: 'cb-7',
      createdAt: at(0),
      data: { usageId: 1, userId: 'user_1', couponCode: 'WELCOME', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: '', reward: welcome.reward, redeemedAt: at(0) },
    });
  });

  it('answers 400 USER_CODE_LIMIT once a user used up a coupon, per user and per coupon', async () => {
    expect((await redeem('WELCOME', 'user_1')).status).toBe(200);
    const second = await redeem('WELCOME', 'user_1');
    expect(second.status).toBe(400);
    expect(second.body).toEqual({ status: 400, error: 'Bad Request', message: 'Coupon WELCOME can be redeemed at most 1 time(s) per user', code: 'USER_CODE_LIMIT' });
    expect((await redeem('WELCOME', 'user_2')).status).toBe(200);
    for (let i = 0; i < DEMO_COUPON_LIMITS.DAILY; i++) expect((await redeem('DAILY', 'user_1')).status).toBe(200);
    const fourth = await redeem('DAILY', 'user_1');
    expect(fourth.status).toBe(400);
    expect(fourth.body.code).toBe('USER_CODE_LIMIT');
    expect(ctx.emulator.state().couponUsages.map((u) => `${u.userId}:${u.couponCode}`)).toEqual([
      'user_1:WELCOME',
      'user_2:WELCOME',
      'user_1:DAILY',
      'user_1:DAILY',
      'user_1:DAILY',
    ]);
  });

  it('answers an unknown code with success false and COUPON_NOT_FOUND, storing nothing', async () => {
    const answer = await redeem('NOPE', 'user_1');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { success: false, couponCode: 'NOPE', errorCode: 'COUPON_NOT_FOUND', errorMessage: 'Coupon NOPE does not exist' } });
    expect(ctx.emulator.state().couponUsages).toEqual([]);
    await ctx.emulator.webhooksIdle();
    expect(ctx.receiver.received).toEqual([]);
  });

  it('attributes usage to the coupon creator, else to the user boost in the coupon campaign', async () => {
    await redeem('luna7gift', 'user_1');
    await redeem('DAILY', DEMO_USERS.changeable);
    expect(ctx.emulator.state().couponUsages.map((u) => [u.couponCode, u.creatorKey])).toEqual([
      ['LUNA7GIFT', 'LUNA7'],
      ['DAILY', DEMO_BOOSTED_CREATORS.changeable],
    ]);
  });

  it('answers an invalid redeem body with 400 VALIDATION_ERROR', async () => {
    const answer = await ctx.call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', gameUserUuid: 'not-a-uuid' } });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(RedeemCouponRequest, { couponCode: 'WELCOME', gameUserUuid: 'not-a-uuid' }));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['userId', 'gameUserUuid']);
  });

  it('validates a code without redeeming it (assumed route)', async () => {
    const valid = await ctx.call('POST', '/v1/server/coupons/validate', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    expect(dataOf(CouponValidation).parse(valid.body)).toEqual({ data: { valid: true, couponCode: 'DAILY', reward: demoFixtures(T0).coupons[1]!.reward } });
    const unknown = await ctx.call('POST', '/v1/server/coupons/validate', { body: { couponCode: 'NOPE' } });
    expect(unknown.body).toEqual({ data: { valid: false, couponCode: 'NOPE', errorCode: 'COUPON_NOT_FOUND', errorMessage: 'Coupon NOPE does not exist' } });
    await redeem('WELCOME', 'user_1');
    const used = await ctx.call('POST', '/v1/server/coupons/validate', { body: { couponCode: 'WELCOME', userId: 'user_1' } });
    expect(used.body).toEqual({
      data: { valid: false, couponCode: 'WELCOME', errorCode: 'USER_CODE_LIMIT', errorMessage: 'User user_1 has used coupon WELCOME 1 time(s), the limit' },
    });
    expect(ctx.emulator.state().couponUsages).toHaveLength(1);
  });

  it('pages a user coupon usage with page/limit coerced from the query; a page past the end is empty', async () => {
    await redeem('WELCOME', 'user_1');
    await redeem('DAILY', 'user_1');
    await redeem('DAILY', 'user_2');
    await redeem('DAILY', 'user_1');
    await redeem('LUNA7GIFT', 'user_1');
    await redeem('DAILY', 'user_1');
    const page = (query: string) => ctx.call('GET', `/v1/server/coupons/user/user_1${query}`);

    const all = await page('');
    expect(pageOf(CouponUsage).parse(all.body).pagination).toEqual({ page: 1, limit: 20, total: 5, totalPages: 1 });
    expect(all.body.data.map((u: { id: number }) => u.id)).toEqual([1, 2, 4, 5, 6]);

    const second = await page('?page=2&limit=2');
    expect(second.status).toBe(200);
    expect(second.body.data.map((u: { id: number }) => u.id)).toEqual([4, 5]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 2, total: 5, totalPages: 3 });

    const past = await page('?page=4&limit=2');
    expect(past.body).toEqual({ data: [], pagination: { page: 4, limit: 2, total: 5, totalPages: 3 } });

    const nobody = await ctx.call('GET', '/v1/server/coupons/user/nobody');
    expect(nobody.body).toEqual({ data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } });
  });

  it('answers bad page values with 400 VALIDATION_ERROR and details', async () => {
    const answer = await ctx.call('GET', '/v1/server/coupons/user/user_1?page=0&limit=101');
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(PageQuery, { page: 0, limit: 101 }));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['page', 'limit']);
    const words = await ctx.call('GET', '/v1/server/coupons/user/user_1?page=two&limit=1.5');
    expect(words.body.details).toEqual(problemsOf(PageQuery, { page: 'two', limit: 1.5 }));
    expect(words.body.details.map((d: { path: string }) => d.path)).toEqual(['page', 'limit']);
  });
});
