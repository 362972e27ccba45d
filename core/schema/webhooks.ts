/** Webhook receivers and their delivery logs. @see spec "Create webhook", "Webhook configuration", "Events" */
import * as z from 'zod/mini';
import { checked, UtcDateTime, WriteOptions } from './primitives.js';

export const WEBHOOK_EVENT_TYPES = [
  'coupon.redeemed',
  'payment.created',
  'payment.refunded',
  'payment.bulk_created',
  'sponsor.created',
  'sponsor.changed',
  'sponsor.ended',
] as const;
export const WebhookEventType = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventType>;

/** Receiver address: an absolute http(s) URL. */
export const WebhookUrl = z.url({ protocol: /^https?$/, error: 'must be an absolute http or https URL' });
export const RetryCount = checked(z.int(), z.minimum(0, 'must be at least 0'), z.maximum(10, 'must be at most 10'));
export const TimeoutMs = checked(z.int(), z.minimum(1000, 'must be at least 1000'), z.maximum(30000, 'must be at most 30000'));

/**
 * Body of `POST /v1/server/webhooks`. assumed (DESIGN section 10): `eventType` is a required body field;
 * `retryCount` and `timeoutMs` are optional (the emulator defaults them to 3 and 5000). `isTest` and
 * `callbackId` as on every write (spec "Test mode", "Callback tracking"): a test-mode call is validated and
 * answered with mock data, and records nothing.
 */
export const CreateWebhookRequest = z.object({
  url: WebhookUrl,
  eventType: WebhookEventType,
  retryCount: z.optional(RetryCount),
  timeoutMs: z.optional(TimeoutMs),
  ...WriteOptions,
});
export type CreateWebhookRequest = z.infer<typeof CreateWebhookRequest>;

/** Body of `PUT /v1/server/webhooks/{id}`: every field optional; the ones given change (none with `isTest`). */
export const UpdateWebhookRequest = z.object({
  url: z.optional(WebhookUrl),
  isActive: z.optional(z.boolean()),
  retryCount: z.optional(RetryCount),
  timeoutMs: z.optional(TimeoutMs),
  ...WriteOptions,
});
export type UpdateWebhookRequest = z.infer<typeof UpdateWebhookRequest>;

/**
 * Body of `DELETE /v1/server/webhooks/{id}`, which may be left out: the write options (spec "Test mode": every write
 * operation shown accepts `isTest`; with it the receiver stays). assumed: carried in a JSON body, as on every other write.
 */
export const DeleteWebhookRequest = z.object({ ...WriteOptions });
export type DeleteWebhookRequest = z.infer<typeof DeleteWebhookRequest>;

const webhookConfigFields = {
  id: z.int(),
  eventType: z.optional(WebhookEventType),
  url: z.string(),
  isActive: z.boolean(),
  retryCount: z.int(),
  timeoutMs: z.int(),
  createdAt: UtcDateTime,
};
export const WebhookConfig = z.object(webhookConfigFields);
export type WebhookConfig = z.infer<typeof WebhookConfig>;

/** The creation response: the only place the signing secret is ever shown. */
export const CreatedWebhook = z.object({ ...webhookConfigFields, eventType: WebhookEventType, secret: z.string() });
export type CreatedWebhook = z.infer<typeof CreatedWebhook>;

export const WebhookDeliveryLog = z.object({
  id: z.string(),
  eventType: z.string(),
  payload: z.record(z.string(), z.unknown()),
  responseStatus: z.optional(z.int()),
  attempt: z.int(),
  status: z.string(),
  callbackId: z.optional(z.string()),
  createdAt: UtcDateTime,
  completedAt: z.optional(UtcDateTime),
});
export type WebhookDeliveryLog = z.infer<typeof WebhookDeliveryLog>;
