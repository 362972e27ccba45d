/**
 * The `data` schema of every response, by name. The transport loads this module only when
 * `validateResponses` is on, so response schemas stay out of production client bundles.
 */
import * as z from 'zod/mini';
import { CampaignDetail, Campaign, Creator } from './campaigns.js';
import { CouponRedemption, CouponUsage, CouponValidation } from './coupons.js';
import { BulkPaymentResult, PaymentDetail, PaymentRecord } from './payments.js';
import { BulkPlaytimeResult, PlaytimeSession } from './playtime.js';
import { BoostHistoryEntry, BoostRecord } from './sponsors.js';
import type { ErrorDetail } from './errors.js';
import { Pagination } from './primitives.js';
import { check } from './validate.js';
import { OneTimeToken } from './webview.js';
import { CreatedWebhook, WebhookConfig, WebhookDeliveryLog } from './webhooks.js';

export const RESPONSES = {
  PlaytimeSession,
  BulkPlaytimeResult,
  BulkPaymentResult,
  PaymentRecord,
  PaymentDetail,
  CouponRedemption,
  CouponUsage,
  CouponValidation,
  BoostRecord,
  BoostHistoryEntry,
  OneTimeToken,
  WebhookConfig,
  CreatedWebhook,
  WebhookDeliveryLog,
  Campaign,
  CampaignDetail,
  Creator,
};
export type ResponseName = keyof typeof RESPONSES;

/**
 * Checks a success body against `{ data }` (item or list) or `{ data, pagination }` (page) and returns
 * its problems, or undefined when it fits. Pass it as `validateResponses` to check responses in development.
 * @example
 * ```ts
 * const client = new CampaignClient({ clientKey, validateResponses: validateResponse });
 * ```
 */
export function validateResponse(body: unknown, name: ResponseName, shape: 'item' | 'list' | 'page'): ErrorDetail[] | undefined {
  const item = RESPONSES[name];
  const data = shape === 'item' ? item : z.array(item);
  const envelope = shape === 'page' ? z.object({ data, pagination: Pagination }) : z.object({ data });
  const result = check(envelope, body);
  return result.success ? undefined : result.details;
}
