import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import * as z from 'zod/mini';
import { checked, isRecord } from '../schema/primitives.js';
import { CreateWebhookRequest, DeleteWebhookRequest, UpdateWebhookRequest, type CreatedWebhook, type WebhookConfig, type WebhookDeliveryLog } from '../schema/webhooks.js';

/** The members of {@link RequestOptions}, to tell them from a delete's request. */
const REQUEST_OPTION_NAMES = ['signal', 'timeout', 'maxRetries', 'headers'] as const;

const WebhookId = checked(z.int(), z.minimum(1, 'must be a positive integer'));

/** Webhook receivers and their delivery logs. @see spec "Create webhook" and the endpoints after it */
export class Webhooks extends Resource {
  /**
   * Registers a receiver; the answer holds the signing `secret`, shown only this once.
   * Retried only after 429: a lost answer would otherwise register a second receiver.
   */
  async create(request: CreateWebhookRequest, options?: RequestOptions): Promise<CreatedWebhook> {
    const body = validated(CreateWebhookRequest, request);
    return this.transport.data({ method: 'POST', path: path`/v1/server/webhooks`, body, retry: 'rate-limit', response: { name: 'CreatedWebhook', shape: 'item' }, options });
  }

  /** Changes the fields given. Retried after transient failures (assumed: a PUT of the same values twice is harmless). */
  async update(id: number, request: UpdateWebhookRequest, options?: RequestOptions): Promise<WebhookConfig> {
    const webhookId = validated(WebhookId, id, 'id');
    const body = validated(UpdateWebhookRequest, request);
    return this.transport.data({ method: 'PUT', path: path`/v1/server/webhooks/${webhookId}`, body, retry: 'safe', response: { name: 'WebhookConfig', shape: 'item' }, options });
  }

  /**
   * Removes a receiver; with `{ isTest: true }` (spec "Test mode": every write accepts it) the service only answers,
   * and the receiver stays. Retried only after 429 (a repeat after success would answer 404). @throws NotFoundError
   * @example
   * ```ts
   * await server.webhooks.delete(id);
   * await server.webhooks.delete(id, { isTest: true }, { timeout: 5_000 });
   * ```
   */
  async delete(id: number, options?: RequestOptions): Promise<void>;
  async delete(id: number, request: DeleteWebhookRequest, options?: RequestOptions): Promise<void>;
  async delete(id: number, ...rest: [RequestOptions?] | [DeleteWebhookRequest, RequestOptions?]): Promise<void> {
    const webhookId = validated(WebhookId, id, 'id');
    // `delete(id, options)` came first: a second argument is the request when a third is given or it names a write
    // option. A third left `undefined` (a wrapper forwarding its own parameters, `(id, a, b) => delete(id, a, b)`) is
    // none: counted by `rest.length`, `delete(id, { signal }, undefined)` took the options for the request and the signal
    // went unheard (the receiver deleted after the caller aborted).
    const [first, second] = rest;
    // Own fields: under a polluted `Object.prototype.isTest` every options object would look like a request.
    const owns = (name: string) => isRecord(first) && Object.prototype.hasOwnProperty.call(first, name);
    const isRequest = second !== undefined || owns('isTest') || owns('callbackId');
    // A request naming a request option would lose it (a `signal` never heard): refused instead.
    if (isRequest && REQUEST_OPTION_NAMES.some(owns)) {
      throw new TypeError('webhooks.delete: pass the request ({ isTest, callbackId }) and the request options ({ signal, timeout, maxRetries, headers }) as two arguments: delete(id, request, options)');
    }
    const body = isRequest ? validated(DeleteWebhookRequest, first ?? {}) : undefined;
    const options = (isRequest ? second : first) as RequestOptions | undefined;
    // No body unless a write option is given: a plain delete goes out as it always did.
    const sent = body?.isTest !== undefined || body?.callbackId !== undefined ? body : undefined;
    await this.transport.request({ method: 'DELETE', path: path`/v1/server/webhooks/${webhookId}`, body: sent, retry: 'rate-limit', options });
  }

  /** Delivery attempts of a receiver. Retried after transient failures. @throws NotFoundError */
  async logs(id: number, options?: RequestOptions): Promise<WebhookDeliveryLog[]> {
    const webhookId = validated(WebhookId, id, 'id');
    return this.transport.get(path`/v1/server/webhooks/${webhookId}/logs`, 'WebhookDeliveryLog', 'list', options);
  }
}
