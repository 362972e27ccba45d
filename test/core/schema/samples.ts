/**
 * One valid example of every request and response `data` of the spec, for tests that need a well-formed
 * body (test/core/schema/samples.test.ts proves each one against its schema, so they cannot drift).
 */
import type {
  BoostHistoryEntry,
  BoostRecord,
  BulkPaymentResult,
  BulkPlaytimeResult,
  Campaign,
  CampaignDetail,
  CouponRedemption,
  CouponUsage,
  CouponValidation,
  CreatedWebhook,
  Creator,
  OneTimeToken,
  PaymentDetail,
  PaymentItem,
  PaymentRecord,
  PlaytimeSession,
  PlaytimeSessionRequest,
  WebhookConfig,
  WebhookDeliveryLog,
} from '../../../core/types.js';

export const T0 = '2024-05-01T10:00:00.000Z';
export const T1 = '2024-05-01T10:30:00.000Z';
export const UUID = '3f1c2b7e-8d4a-4c5b-9e6f-1a2b3c4d5e6f';
/** A valid PKCE S256 challenge: 43 Base64URL characters. */
export const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

export const sessionRequest: PlaytimeSessionRequest = {
  sessionId: 'sess-1',
  userId: 'user-1',
  durationSeconds: 1800,
  startedAt: T0,
  endedAt: T1,
};

export const playtimeSession: PlaytimeSession = { sessionId: 'sess-1', userId: 'user-1', durationSeconds: 1800, recorded: true, createdAt: T1 };

export const bulkPlaytimeResult: BulkPlaytimeResult = {
  totalRequested: 3,
  successful: 1,
  failed: 1,
  skipped: 1,
  results: [
    { sessionId: 'sess-1', status: 'SUCCESS' },
    { sessionId: 'sess-2', status: 'SKIPPED' },
    { sessionId: 'sess-3', status: 'FAILED', error: 'creatorKey: must be exactly 5 uppercase letters or digits' },
  ],
};

export const paymentItem: PaymentItem = {
  userId: 'user-1',
  transactionId: 'tx-1',
  productId: 'gems-100',
  amount: 4.99,
  currency: 'USD',
  purchasedAt: T0,
};

export const paymentDetail: PaymentDetail = {
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
  campaignId: 'camp-1',
  creatorKey: 'ABC12',
  purchasedAt: T0,
  createdAt: T1,
};

export const paymentRecord: PaymentRecord = { ...paymentDetail, platform: 'iOS', distributionType: 'MOBILE_STORE', status: 'COMPLETED' };

export const bulkPaymentResult: BulkPaymentResult = {
  totalRequested: 2,
  successful: 1,
  failed: 0,
  skipped: 1,
  results: [
    { transactionId: 'tx-1', status: 'SUCCESS', data: paymentRecord },
    { transactionId: 'tx-0', status: 'SKIPPED' },
  ],
};

export const couponRedemption: CouponRedemption = {
  success: true,
  usageId: 11,
  couponCode: 'WELCOME',
  reward: [{ itemName: { en: 'Gold' }, itemId: 'gold', itemQuantity: 100, itemImageUrl: 'https://cdn.example/gold.png' }],
  itemName: { en: 'Gold' },
  redeemedAt: T1,
};

export const couponValidation: CouponValidation = { valid: true, couponCode: 'WELCOME', reward: couponRedemption.reward! };

/** The `n`th coupon usage record (1-based ids). */
export function couponUsage(n: number): CouponUsage {
  return { id: n, userId: 'user-1', couponCode: `CODE${n}`, packageId: 3, campaignId: 'camp-1', creatorKey: 'ABC12', usedAt: T0 };
}

export const boostRecord: BoostRecord = {
  userId: 'user-1',
  campaignId: 'camp-1',
  creatorKey: 'XYZ99',
  creatorName: 'Star',
  isActive: true,
  sponsoredAt: T1,
};

export const boostHistory: BoostHistoryEntry[] = [
  { action: 'CREATED', userId: 'user-1', campaignId: 'camp-1', creatorKey: 'ABC12', createdAt: T0 },
  { action: 'CHANGED', userId: 'user-1', campaignId: 'camp-1', creatorKey: 'XYZ99', previousCreatorKey: 'ABC12', createdAt: T1 },
];

export const oneTimeToken: OneTimeToken = { ott: 'ott_abc', expiresIn: 60 };

export const webhookConfig: WebhookConfig = {
  id: 5,
  eventType: 'coupon.redeemed',
  url: 'https://game.example/hooks',
  isActive: true,
  retryCount: 3,
  timeoutMs: 5000,
  createdAt: T0,
};

export const createdWebhook: CreatedWebhook = { ...webhookConfig, eventType: 'coupon.redeemed', secret: 'whsec_c2VjcmV0' };

export const deliveryLog: WebhookDeliveryLog = {
  id: 'log-1',
  eventType: 'coupon.redeemed',
  payload: { type: 'coupon.redeemed' },
  responseStatus: 200,
  attempt: 1,
  status: 'SUCCESS',
  callbackId: 'cb-1',
  createdAt: T0,
  completedAt: T1,
};

/** The `n`th campaign (no status, as the Server API lists it). */
export function campaign(n: number): Campaign {
  return {
    campaignId: `camp-${n}`,
    projectId: 'proj-1',
    campaignName: { en: `Campaign ${n}` },
    description: { en: 'Play and win' },
    startDate: T0,
    endDate: '2024-06-01T00:00:00.000Z',
  };
}

export const campaignDetail: CampaignDetail = { ...campaign(1), status: 'PENDING_EXPOSURE' };

export const creator: Creator = { creatorId: 1, creatorName: 'Star', genre: 'RPG', creatorKey: 'ABC12', status: 'ACTIVE' };
