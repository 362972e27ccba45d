/**
 * Webhooks: verify deliveries from the service, sign them (tests, the emulator), and receive them as typed
 * events. Part of the `game-campaign-sdk/server` entry.
 * @see spec "Events", DESIGN sections 8 and 10
 */
export { verifyWebhook, DEFAULT_TOLERANCE_SECONDS, type VerifyWebhookOptions, type RawWebhookPayload, type WebhookSecret } from './verify.js';
export { signWebhook, type SignWebhookOptions } from './sign.js';
export {
  createWebhookReceiver,
  WebhookReceiver,
  DEFAULT_WAIT_TIMEOUT_MS,
  type WebhookReceiverOptions,
  type WebhookReceiverEventMap,
  type WebhookReceiverListener,
  type WaitForOptions,
} from './receiver.js';
export { standardWebhooksScheme, type WebhookScheme, type WebhookSignInput, type WebhookVerifyInput, type VerifiedDelivery } from './scheme.js';
export {
  WebhookVerificationError,
  WebhookTimeoutError,
  isWebhookVerificationError,
  WEBHOOK_VERIFICATION_REASONS,
  type WebhookVerificationReason,
} from './errors.js';
export type { WebhookHeadersInput, HeaderReader } from './headers.js';
export type { SignedHeaders } from './signature.js';
export type { WebhookEvent, WebhookEventOf } from '../schema/events.js';
export type { ReceivedWebhookEvent, UnknownWebhookEvent, WebhookEventData, WebhookEventEnvelope, SentWebhookEvent } from '../schema/events.js';
export { isKnownWebhookEvent } from './read-event.js';
export type { WebhookEventType } from '../schema/webhooks.js';
