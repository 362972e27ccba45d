/** The types of every request and resource, inferred from the schemas (never written twice). */
export type { PageQuery, Pagination, BulkItemStatus } from './schema/primitives.js';
export type { ErrorBody, ErrorCode, ErrorDetail } from './schema/errors.js';
export type { PlaytimeSessionRequest, BulkPlaytimeItem, BulkPlaytimeRequest, PlaytimeSession, PlaytimeItemResult, BulkPlaytimeResult } from './schema/playtime.js';
export type { PaymentItem, PaymentRequest, BulkPaymentRequest, PaymentRecord, PaymentDetail, PaymentItemResult, BulkPaymentResult } from './schema/payments.js';
export type { RedeemCouponRequest, CouponRedemption, CouponUsage, RewardItem, ValidateCouponRequest, CouponValidation } from './schema/coupons.js';
export type { ChangeSponsorRequest, CreateSponsorRequest, BoostRecord, BoostHistoryEntry, BoostHistoryAction } from './schema/sponsors.js';
export type { CreateOttRequest, OneTimeToken } from './schema/webview.js';
export type { WebhookEventType, CreateWebhookRequest, UpdateWebhookRequest, DeleteWebhookRequest, WebhookConfig, CreatedWebhook, WebhookDeliveryLog } from './schema/webhooks.js';
export type { WebhookEvent, WebhookEventOf } from './schema/events.js';
export type { ReceivedWebhookEvent, UnknownWebhookEvent, WebhookEventData, WebhookEventEnvelope, SentWebhookEvent } from './schema/events.js';
export type { Campaign, CampaignDetail, Creator, SearchCreatorsQuery } from './schema/campaigns.js';
