/** Webhook receivers: create, update, delete, delivery logs. @see spec "Create webhook" and the endpoints after it */
import type { Hono } from 'hono';
import { check } from '../../core/schema/validate.js';
import { CreateWebhookRequest, UpdateWebhookRequest, type CreatedWebhook, type WebhookConfig, type WebhookDeliveryLog } from '../../core/schema/webhooks.js';
import type { AppEnv, AppContext, Services } from '../app-env.js';
import { webhookSecret } from '../ids.js';
import { invalid, notFound, ok } from '../respond.js';
import type { Store, StoredDelivery, StoredWebhook } from '../store.js';

/** Retries of a receiver created without `retryCount`. assumed. */
export const DEFAULT_RETRY_COUNT = 3;
/** Time-out of a receiver created without `timeoutMs`. assumed. */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Registers the webhook routes. */
export function webhookRoutes(app: Hono<AppEnv>, { store }: Services): void {
  app.post('/v1/server/webhooks', (c) => {
    const checked = check(CreateWebhookRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const hook: StoredWebhook = {
      id: store.nextId('webhook'),
      eventType: checked.data.eventType,
      url: checked.data.url,
      isActive: true,
      retryCount: checked.data.retryCount ?? DEFAULT_RETRY_COUNT,
      timeoutMs: checked.data.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      createdAt: store.iso(),
      secret: webhookSecret(),
    };
    store.webhooks.set(hook.id, hook);
    const data: CreatedWebhook = { ...config(hook), eventType: hook.eventType, secret: hook.secret };
    return ok(c, data, 201);
  });

  app.put('/v1/server/webhooks/:id', (c) => {
    const hook = findHook(c, store);
    if (hook instanceof Response) return hook;
    const checked = check(UpdateWebhookRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const { url, isActive, retryCount, timeoutMs } = checked.data;
    if (url !== undefined) hook.url = url;
    if (isActive !== undefined) hook.isActive = isActive;
    if (retryCount !== undefined) hook.retryCount = retryCount;
    if (timeoutMs !== undefined) hook.timeoutMs = timeoutMs;
    return ok(c, config(hook));
  });

  app.delete('/v1/server/webhooks/:id', (c) => {
    const hook = findHook(c, store);
    if (hook instanceof Response) return hook;
    store.webhooks.delete(hook.id);
    return c.body(null, 204);
  });

  app.get('/v1/server/webhooks/:id/logs', (c) => {
    const hook = findHook(c, store);
    if (hook instanceof Response) return hook;
    return ok(c, store.deliveries.filter((delivery) => delivery.webhookId === hook.id).map(logEntry));
  });
}

/** The configuration as responses show it: everything but the secret. */
function config({ secret: _secret, ...hook }: StoredWebhook): WebhookConfig {
  return hook;
}

function logEntry({ webhookId: _webhookId, ...entry }: StoredDelivery): WebhookDeliveryLog {
  return entry;
}

/** The receiver named by `:id`, or a 404 answer (also for an id that is not a positive integer). */
function findHook(c: AppContext, store: Store): StoredWebhook | Response {
  const raw = c.req.param('id') ?? '';
  const hook = /^\d{1,15}$/.test(raw) ? store.webhooks.get(Number(raw)) : undefined;
  return hook ?? notFound(c, `Webhook ${raw} not found`);
}
