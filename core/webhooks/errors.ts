/**
 * Why a webhook delivery was refused: one error class whose `reason` names the failed check, and a guard
 * that works across realms (it checks `name`, as oauth4webapi's guards do).
 * @see spec "Events" rule 6, DESIGN section 8
 */

/** Every check a delivery can fail, in the order they run. */
export const WEBHOOK_VERIFICATION_REASONS = [
  'missing_headers',
  'invalid_timestamp',
  'timestamp_too_old',
  'timestamp_too_new',
  'invalid_signature',
  'replayed',
] as const;

/**
 * The failed check: `missing_headers` (id, timestamp or signature absent), `invalid_timestamp` (not a
 * number), `timestamp_too_old` / `timestamp_too_new` (outside the tolerance), `invalid_signature` (wrong
 * secret or tampered body), `replayed` (a receiver saw this delivery id already). A signed body is never
 * refused over its shape.
 */
export type WebhookVerificationReason = (typeof WEBHOOK_VERIFICATION_REASONS)[number];

/**
 * A delivery that must not be trusted (or, for `replayed`, must not be handled twice).
 * @example
 * ```ts
 * try { await verifyWebhook({ payload, headers, secret }); }
 * catch (error) { if (isWebhookVerificationError(error)) console.warn(error.reason); else throw error; }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
  /** Which check failed. */
  readonly reason: WebhookVerificationReason;

  constructor(reason: WebhookVerificationReason, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.reason = reason;
  }
}

/** True for a {@link WebhookVerificationError}, also one from another realm or copy of the SDK. */
export function isWebhookVerificationError(error: unknown): error is WebhookVerificationError {
  if (error instanceof WebhookVerificationError) return true;
  if (typeof error !== 'object' || error === null) return false;
  const { name, reason } = error as { name?: unknown; reason?: unknown };
  return name === 'WebhookVerificationError' && (WEBHOOK_VERIFICATION_REASONS as readonly unknown[]).includes(reason);
}

/** `receiver.waitFor(...)` saw no matching event in time. */
export class WebhookTimeoutError extends Error {
  override readonly name = 'WebhookTimeoutError';
  readonly callbackId: string;
  readonly timeoutMs: number;

  constructor(callbackId: string, timeoutMs: number) {
    super(`No webhook event with callbackId "${callbackId}" arrived within ${timeoutMs} ms`);
    this.callbackId = callbackId;
    this.timeoutMs = timeoutMs;
  }
}
