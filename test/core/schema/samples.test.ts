/** The shared samples are valid instances of their schemas, so tests built on them send and expect spec bodies. */
import { describe, expect, it } from 'vitest';
import { RESPONSES, validateResponse } from '../../../core/schema/responses.js';
import { BulkPaymentRequest, CreateOttRequest, PlaytimeSessionRequest, RedeemCouponRequest, check } from '../../../core/schema/index.js';
import * as samples from './samples.js';

describe('samples', () => {
  it.each<[keyof typeof RESPONSES, unknown]>([
    ['PlaytimeSession', samples.playtimeSession],
    ['BulkPlaytimeResult', samples.bulkPlaytimeResult],
    ['BulkPaymentResult', samples.bulkPaymentResult],
    ['PaymentRecord', samples.paymentRecord],
    ['PaymentDetail', samples.paymentDetail],
    ['CouponRedemption', samples.couponRedemption],
    ['CouponUsage', samples.couponUsage(1)],
    ['CouponValidation', samples.couponValidation],
    ['BoostRecord', samples.boostRecord],
    ['OneTimeToken', samples.oneTimeToken],
    ['WebhookConfig', samples.webhookConfig],
    ['CreatedWebhook', samples.createdWebhook],
    ['WebhookDeliveryLog', samples.deliveryLog],
    ['Campaign', samples.campaign(1)],
    ['CampaignDetail', samples.campaignDetail],
    ['Creator', samples.creator],
  ])('%s is a valid response item', (name, data) => {
    expect(validateResponse({ data }, name, 'item')).toBeUndefined();
  });

  it('boost history is a valid list', () => {
    expect(validateResponse({ data: samples.boostHistory }, 'BoostHistoryEntry', 'list')).toBeUndefined();
  });

  it('request samples pass the request schemas', () => {
    expect(check(PlaytimeSessionRequest, samples.sessionRequest).success).toBe(true);
    expect(check(BulkPaymentRequest, { payments: [samples.paymentItem] }).success).toBe(true);
    expect(check(CreateOttRequest, { userId: 'u', codeChallenge: samples.CHALLENGE }).success).toBe(true);
    expect(check(RedeemCouponRequest, { couponCode: 'C', userId: 'u', gameUserUuid: samples.UUID }).success).toBe(true);
  });
});
