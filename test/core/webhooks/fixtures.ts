/** Shared test data for webhook tests: a secret, a full delivery of each event type, and signed deliveries. */
import type { SentWebhookEvent } from '../../../core/schema/events.js';
import type { WebhookEventType } from '../../../core/schema/webhooks.js';
import { signWebhook } from '../../../core/webhooks/sign.js';

/** The example secret of the Standard Webhooks specification. */
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** Another valid secret (a different key). */
export const OTHER_SECRET = 'whsec_' + Buffer.from('another-secret-of-24-bytes').toString('base64');

/** 2024-05-01T12:00:00.000Z in unix seconds. */
export const NOW_SECONDS = 1_714_564_800;
export const NOW_MS = NOW_SECONDS * 1000;

/** A delivery of type `T` as we assume the service sends it, every field present. */
export type SentOf<T extends WebhookEventType> = Extract<SentWebhookEvent, { type: T }>;

const AT = '2024-05-01T12:00:00.000Z';
const payment = {
  id: 7,
  transactionId: 'tx-1',
  userId: 'user-1',
  productId: 'gems-100',
  productName: '100 Gems',
  amount: 4.99,
  currency: 'USD',
  amountUsd: 4.99,
  isRefund: false,
  netAmount: 4.99,
  netCurrency: 'USD',
  campaignCurrency: 'USD',
  campaignId: 'camp_1',
  creatorKey: 'ABCDE',
  purchasedAt: AT,
  createdAt: AT,
  platform: 'iOS',
  distributionType: 'MOBILE_STORE',
  status: 'COMPLETED',
};

/** The `data` of each type with every assumed field. */
export const FULL_DATA: { [T in WebhookEventType]: SentOf<T>['data'] } = {
  'coupon.redeemed': {
    usageId: 7,
    userId: 'user-1',
    couponCode: 'WELCOME',
    campaignId: 'camp_1',
    creatorKey: 'ABCDE',
    reward: [{ itemName: { en: 'Gold' }, itemId: 'gold', itemQuantity: 100 }],
    redeemedAt: AT,
  },
  'payment.created': payment,
  'payment.refunded': { ...payment, isRefund: true },
  'payment.bulk_created': { totalRequested: 2, successful: 1, failed: 0, skipped: 1, transactionIds: ['tx-1', 'tx-2'] },
  'sponsor.created': { userId: 'user-1', campaignId: 'camp_1', creatorKey: 'ABCDE', creatorName: 'Star', sponsoredAt: AT },
  'sponsor.changed': { userId: 'user-1', campaignId: 'camp_1', oldCreatorKey: 'ABCDE', newCreatorKey: 'FGHIJ', changedAt: AT },
  'sponsor.ended': { userId: 'user-1', campaignId: 'camp_1', creatorKey: 'ABCDE', endedAt: AT },
};

/** A full delivery of `type`. */
export function sent<T extends WebhookEventType>(type: T, overrides: Partial<SentOf<T>> = {}): SentOf<T> {
  return { id: `evt_${type}`, type, createdAt: AT, callbackId: `cb-${type}`, data: structuredClone(FULL_DATA[type]), ...overrides } as unknown as SentOf<T>;
}

export function couponRedeemed(overrides: Partial<SentOf<'coupon.redeemed'>> = {}): SentOf<'coupon.redeemed'> {
  return sent('coupon.redeemed', { id: 'evt_coupon_1', callbackId: 'cb-1', ...overrides });
}

export function sponsorChanged(overrides: Partial<SentOf<'sponsor.changed'>> = {}): SentOf<'sponsor.changed'> {
  return sent('sponsor.changed', { id: 'evt_sponsor_1', callbackId: 'cb-2', ...overrides });
}

/** What a receiver makes of a delivery whose every field has its assumed type: the same, plus `raw`. */
export function received<E extends object>(event: E): E & { raw: E } {
  return { ...structuredClone(event), raw: structuredClone(event) };
}

/** A delivery of `event` signed with `SECRET` (or `options.secret`) at `NOW_SECONDS` (or `options.timestamp`). */
export function delivery(event: object, options: { id?: string; timestamp?: number; secret?: string } = {}) {
  const payload = JSON.stringify(event);
  const { headers } = signWebhook({ payload, secret: options.secret ?? SECRET, id: options.id ?? 'msg_1', timestamp: options.timestamp ?? NOW_SECONDS });
  return { payload, headers };
}
