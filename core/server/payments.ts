import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import {
  BULK_CALLBACK_PREFIX,
  BulkPaymentRequest,
  PaymentRequest,
  type BulkPaymentResult,
  type PaymentDetail,
  type PaymentRecord,
} from '../schema/payments.js';
import { Id } from '../schema/primitives.js';

/** In-game payments. @see spec "Register bulk payments", "Get payment" */
export class Payments extends Resource {
  /**
   * Registers up to 1000 payments; an existing transactionId is SKIPPED. Triggers one `payment.bulk_created`.
   * Retried after transient failures: the service de-duplicates by transactionId. Sent without a `callbackId` (or with ''), the call
   * gets one (`gcsdk-bulk-<32 hex digits>`), the same on every attempt: the service sends a summary per attempt, and the webhook
   * receiver emits one per such id (the first to arrive).
   */
  async registerBulk(request: BulkPaymentRequest, options?: RequestOptions): Promise<BulkPaymentResult> {
    const checked = validated(BulkPaymentRequest, request);
    // '' (an unset setting passed on) is no id either: sent as given, the call's summary could not be told from its retry's.
    const body = !checked.callbackId ? { ...checked, callbackId: BULK_CALLBACK_PREFIX + randomHex() } : checked;
    return this.transport.data({ method: 'POST', path: path`/v1/server/payments/bulk`, body, retry: 'safe', response: { name: 'BulkPaymentResult', shape: 'item' }, options });
  }

  /**
   * Registers one payment (`POST /v1/server/payments`), one of the three operations a campaign needs.
   * Retried after transient failures: the service de-duplicates by transactionId.
   * @beta assumed (DESIGN section 10): the spec names this operation without a shape.
   */
  async register(payment: PaymentRequest, options?: RequestOptions): Promise<PaymentRecord> {
    const body = validated(PaymentRequest, payment);
    return this.transport.data({ method: 'POST', path: path`/v1/server/payments`, body, retry: 'safe', response: { name: 'PaymentRecord', shape: 'item' }, options });
  }

  /** One payment by transactionId. Retried after transient failures. @throws NotFoundError */
  async get(transactionId: string, options?: RequestOptions): Promise<PaymentDetail> {
    const id = validated(Id, transactionId, 'transactionId');
    return this.transport.get(path`/v1/server/payments/${id}`, 'PaymentDetail', 'item', options);
  }
}

/**
 * 32 random hex digits. `crypto.getRandomValues`, not `randomUUID`, which a browser gives only to secure contexts (an
 * admin tool with `dangerouslyAllowBrowser` on an intranet's http page).
 */
function randomHex(): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
