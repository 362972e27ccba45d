import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import * as z from 'zod/mini';
import { checked } from '../schema/primitives.js';
import { CreateWebhookRequest, UpdateWebhookRequest, type CreatedWebhook, type WebhookConfig, type WebhookDeliveryLog } from '../schema/webhooks.js';

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

  /** Removes a receiver. Retried only after 429 (a repeat after success would answer 404). @throws NotFoundError */
  async delete(id: number, options?: RequestOptions): Promise<void> {
    const webhookId = validated(WebhookId, id, 'id');
    await this.transport.request({ method: 'DELETE', path: path`/v1/server/webhooks/${webhookId}`, retry: 'rate-limit', options });
  }

  /** Delivery attempts of a receiver. Retried after transient failures. @throws NotFoundError */
  async logs(id: number, options?: RequestOptions): Promise<WebhookDeliveryLog[]> {
    const webhookId = validated(WebhookId, id, 'id');
    return this.transport.get(path`/v1/server/webhooks/${webhookId}/logs`, 'WebhookDeliveryLog', 'list', options);
  }
}
