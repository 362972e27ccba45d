/**
 * Webhook receivers: create, update, delete, delivery logs; create, update and delete honour `isTest` (validated,
 * answered, nothing recorded). @see spec "Create webhook" and the endpoints after it, "Test mode"
 */
import type { Hono } from 'hono';
import { check } from '../data-only.js';
import { CreateWebhookRequest, DeleteWebhookRequest, UpdateWebhookRequest, type CreatedWebhook, type WebhookConfig, type WebhookDeliveryLog } from '../../core/schema/webhooks.js';
import type { AppEnv, AppContext, Services } from '../app-env.js';
import { webhookSecret } from '../ids.js';
import { fail, invalid, notFound, ok } from '../respond.js';
import type { Store, StoredDelivery, StoredWebhook } from '../store.js';
import { receiverUrlProblem } from '../webhook-targets.js';

/** Retries of a receiver created without `retryCount`. assumed. */
export const DEFAULT_RETRY_COUNT = 3;
/** Time-out of a receiver created without `timeoutMs`. assumed. */
export const DEFAULT_TIMEOUT_MS = 5000;

/** Registers the webhook routes. */
export function webhookRoutes(app: Hono<AppEnv>, { store, webhooks, webhookHosts }: Services): void {
  // assumed: a test-mode creation answers id 0 and a fresh, well-formed secret that nothing will ever sign with;
  // no id is used up and no receiver is registered (spec "Test mode": mock data, nothing recorded). It meets the
  // same address rule and cap as a real one, so it answers what the real call would.
  app.post('/v1/server/webhooks', (c) => {
    const checked = check(CreateWebhookRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const problem = receiverUrlProblem(checked.data.url, webhookHosts);
    if (problem) return invalid(c, [problem]);
    const cap = store.limits.webhooks;
    if (store.webhooks.size >= cap) {
      return fail(c, 400, 'BAD_REQUEST', `At most ${cap} webhook receivers can be registered at once: delete one (DELETE /v1/server/webhooks/{id}) or reset the emulator`);
    }
    const isTest = checked.data.isTest === true;
    const hook: StoredWebhook = {
      id: isTest ? 0 : store.nextId('webhook'),
      eventType: checked.data.eventType,
      url: checked.data.url,
      isActive: true,
      retryCount: checked.data.retryCount ?? DEFAULT_RETRY_COUNT,
      timeoutMs: checked.data.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      createdAt: store.iso(),
      secret: webhookSecret(),
    };
    if (!isTest) store.webhooks.set(hook.id, hook);
    const data: CreatedWebhook = { ...config(hook), eventType: hook.eventType, secret: hook.secret };
    return ok(c, data, 201);
  });

  // In test mode the same checks run (404, then validation) and the answer is the receiver as it would become,
  // while the stored one stays as it is.
  app.put('/v1/server/webhooks/:id', (c) => {
    const found = findHook(c, store);
    if (found instanceof Response) return found;
    const checked = check(UpdateWebhookRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const { url, isActive, retryCount, timeoutMs, isTest } = checked.data;
    const problem = url !== undefined ? receiverUrlProblem(url, webhookHosts) : undefined;
    if (problem) return invalid(c, [problem]);
    const hook = isTest === true ? { ...found } : found;
    if (url !== undefined) hook.url = url;
    if (isActive !== undefined) hook.isActive = isActive;
    if (retryCount !== undefined) hook.retryCount = retryCount;
    if (timeoutMs !== undefined) hook.timeoutMs = timeoutMs;
    return ok(c, config(hook));
  });

  // The body may be left out; with `isTest: true` the receiver stays (spec "Test mode": every write accepts it).
  app.delete('/v1/server/webhooks/:id', (c) => {
    const hook = findHook(c, store);
    if (hook instanceof Response) return hook;
    // Without a body: an object without a prototype, so a polluted `Object.prototype.isTest` is not read as the field.
    const checked = check(DeleteWebhookRequest, c.get('json') ?? Object.create(null));
    if (!checked.success) return invalid(c, checked.details);
    if (checked.data.isTest === true) return c.body(null, 204);
    store.webhooks.delete(hook.id);
    webhooks.forget(hook.id);
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

/** How the spec's integer path `id` is written: decimal digits, an optional minus, no leading zero. */
const INTEGER_ID = /^-?(?:0|[1-9]\d*)$/;

/**
 * The receiver named by `:id`; a 400 `VALIDATION_ERROR` naming `id` when it is not an integer (spec: the path `id` is
 * an integer, and a request parameter that fails validation is a VALIDATION_ERROR with `details`), else a 404 when no
 * receiver has it. assumed: `01`, `+1`, `1.0` and `1e0` are not integers as a path writes them: the service gives ids as
 * JSON numbers, so such a path was never made from one (before, `01` reached receiver 1 and `abc` was a 404).
 */
function findHook(c: AppContext, store: Store): StoredWebhook | Response {
  const raw = c.req.param('id') ?? '';
  if (!INTEGER_ID.test(raw)) return invalid(c, [{ path: 'id', message: 'must be an integer written in decimal digits (no plus sign, leading zero, fraction or exponent)' }]);
  const hook = raw.length <= 15 ? store.webhooks.get(Number(raw)) : undefined;
  return hook ?? notFound(c, `Webhook ${raw} not found`);
}
