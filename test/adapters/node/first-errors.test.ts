// The Node wiring called wrongly, as a developer's first try might: each says what to pass when it is made, instead
// of answering every request 500 with an empty body (toNodeHandler without a fetch method) or throwing
// "Cannot read properties of undefined" (webhookMiddleware or createWebhookReceiver with nothing).
import { describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/to-node-handler.js';
import { webhookMiddleware } from '../../../adapters/node/webhook-receiver.js';
import type { FetchHandler } from '../../../adapters/node/to-node-handler.js';
import { createWebhookReceiver, type WebhookReceiverOptions } from '../../../core/webhooks/receiver.js';

const NEEDS = 'toNodeHandler needs an object with fetch(request), such as createRelay(...) or createWebhookReceiver(...)';

describe('toNodeHandler given no handler', () => {
  it.each([
    ['nothing', undefined, `${NEEDS}; got undefined`],
    ['an object without fetch', {}, `${NEEDS}; got [object Object]`],
    ["the relay's fetch function", async () => new Response(null), `${NEEDS}; got a function: pass the relay or receiver itself, not its fetch`],
  ])('throws a TypeError saying what to pass for %s', (_, handler, message) => {
    expect(() => toNodeHandler(handler as unknown as FetchHandler)).toThrow(new TypeError(message));
  });
});

describe('webhookMiddleware and createWebhookReceiver given nothing', () => {
  it.each([
    ['webhookMiddleware', webhookMiddleware],
    ['createWebhookReceiver', createWebhookReceiver],
  ])("%s throws the secret's own TypeError", (_, make) => {
    const call = make as unknown as (options?: WebhookReceiverOptions) => unknown;
    expect(() => call()).toThrow(new TypeError('secret must be the webhook secret string (whsec_...) returned when the webhook was created'));
  });
});
