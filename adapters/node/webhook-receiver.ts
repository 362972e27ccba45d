/**
 * The webhook receiver as node:http / Express middleware. Wiring only: verification, replay refusal,
 * events and `waitFor` live in core (`createWebhookReceiver`).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { createWebhookReceiver, type WebhookReceiver, type WebhookReceiverOptions } from '../../core/webhooks/receiver.js';
import { asBytes } from './parsed-body.js';
import { servesAs } from './server-listeners.js';
import { toNodeHandler, type NodeHandler, type NodeHandlerWithClientError } from './to-node-handler.js';

/**
 * The middleware, with the receiver's `on`/`once`/`off`/`waitFor`/`verify` re-exposed (listeners per known
 * type, `unknown` for a type the SDK does not know, `event` for all, `error`).
 */
export type WebhookMiddleware = NodeHandlerWithClientError &
  Pick<WebhookReceiver, 'on' | 'once' | 'off' | 'waitFor' | 'verify'> & {
    /** The receiver behind the middleware. */
    readonly receiver: WebhookReceiver;
  };

/**
 * Receives webhook deliveries on node:http or Express: `http.createServer(webhookMiddleware({ secret }))`
 * or `app.post('/webhooks/campaign', webhookMiddleware({ secret }))`.
 *
 * The signature covers the raw body, so mount it BEFORE `express.json()` (or any body parser) for its
 * route. After a parser it works when the parser kept the raw bytes: in `req.rawBody`, or as `req.body` itself
 * (`express.raw({ type: 'application/json' })`, `express.text()`); otherwise the request is passed to `next(error)` (or answered 500 without Express) with an error saying so.
 * `on`, `once` and `off` return the receiver, for chaining.
 * @throws TypeError when the secret is not `whsec_<base64>`
 * @example
 * ```ts
 * const webhooks = webhookMiddleware({ secret: process.env.WEBHOOK_SECRET! });
 * webhooks.on('coupon.redeemed', ({ data }) => data.userId && data.reward && grantReward(data.userId, data.reward));
 * webhooks.on('unknown', (event) => console.info('webhook of a newer type', event.type, event.raw));
 * app.post('/webhooks/campaign', webhooks); // before app.use(express.json())
 * ```
 */
export function webhookMiddleware(receiverOrOptions: WebhookReceiver | WebhookReceiverOptions): WebhookMiddleware {
  const receiver = isReceiver(receiverOrOptions) ? receiverOrOptions : createWebhookReceiver(receiverOrOptions);
  const handle = toNodeHandler(receiver);
  const middleware: NodeHandler = async (req, res, next) => {
    const problem = rawBodyProblem(req);
    if (!problem) return handle(req, res, next);
    if (next) return next(problem);
    (res as ServerResponse).writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'body_already_read', message: problem.message }));
  };
  servesAs(middleware, handle);
  return Object.assign(middleware, {
    clientError: handle.clientError,
    attach: handle.attach,
    receiver,
    on: receiver.on.bind(receiver),
    once: receiver.once.bind(receiver),
    off: receiver.off.bind(receiver),
    waitFor: receiver.waitFor.bind(receiver),
    verify: receiver.verify.bind(receiver),
  });
}

function isReceiver(value: WebhookReceiver | WebhookReceiverOptions): value is WebhookReceiver {
  return typeof (value as Partial<WebhookReceiver> | undefined)?.fetch === 'function' && typeof (value as Partial<WebhookReceiver>).waitFor === 'function';
}

/**
 * An error when a body parser consumed the body and kept no raw copy: neither `req.rawBody` nor a `req.body`
 * that is still the bytes (`express.raw()`, a Uint8Array) or the text (`express.text()`). `toNodeHandler` hands those on.
 */
function rawBodyProblem(req: (IncomingMessage | Http2ServerRequest) & { rawBody?: unknown; body?: unknown }): Error | undefined {
  // Bytes in any shape, as toNodeHandler (parsed-body.ts `useParsedBody`) hands them on: a Uint8Array `rawBody` was refused.
  if (!req.readableDidRead || asBytes(req.rawBody) || asBytes(req.body)) return undefined;
  return new Error(
    'webhookMiddleware: the request body was already read by a body parser and no req.rawBody was kept, so the signature cannot be checked. ' +
      'Mount webhookMiddleware before express.json() (or use a parser that keeps req.rawBody).',
  );
}
