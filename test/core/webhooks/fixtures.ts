/** Shared test data for webhook tests: a secret, valid events of two types, and signed deliveries. */
import type { WebhookEvent, WebhookEventOf } from '../../../core/schema/events.js';
import { signWebhook } from '../../../core/webhooks/sign.js';

/** The example secret of the Standard Webhooks specification. */
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** Another valid secret (a different key). */
export const OTHER_SECRET = 'whsec_' + Buffer.from('another-secret-of-24-bytes').toString('base64');

/** 2024-05-01T12:00:00.000Z in unix seconds. */
export const NOW_SECONDS = 1_714_564_800;
export const NOW_MS = NOW_SECONDS * 1000;

export function couponRedeemed(overrides: Partial<WebhookEventOf<'coupon.redeemed'>> = {}): WebhookEventOf<'coupon.redeemed'> {
  return {
    id: 'evt_coupon_1',
    type: 'coupon.redeemed',
    createdAt: '2024-05-01T12:00:00.000Z',
    callbackId: 'cb-1',
    data: {
      usageId: 7,
      userId: 'user-1',
      couponCode: 'WELCOME',
      campaignId: 'camp_1',
      creatorKey: 'ABCDE',
      reward: [{ itemName: { en: 'Gold' }, itemId: 'gold', itemQuantity: 100 }],
      redeemedAt: '2024-05-01T12:00:00.000Z',
    },
    ...overrides,
  };
}

export function sponsorChanged(overrides: Partial<WebhookEventOf<'sponsor.changed'>> = {}): WebhookEventOf<'sponsor.changed'> {
  return {
    id: 'evt_sponsor_1',
    type: 'sponsor.changed',
    createdAt: '2024-05-01T12:00:00.000Z',
    callbackId: 'cb-2',
    data: { userId: 'user-1', campaignId: 'camp_1', oldCreatorKey: 'ABCDE', newCreatorKey: 'FGHIJ', changedAt: '2024-05-01T12:00:00.000Z' },
    ...overrides,
  };
}

/** A delivery of `event` signed with `SECRET` (or `options.secret`) at `NOW_SECONDS` (or `options.timestamp`). */
export function delivery(event: WebhookEvent | object, options: { id?: string; timestamp?: number; secret?: string } = {}) {
  const payload = JSON.stringify(event);
  const { headers } = signWebhook({ payload, secret: options.secret ?? SECRET, id: options.id ?? 'msg_1', timestamp: options.timestamp ?? NOW_SECONDS });
  return { payload, headers };
}
