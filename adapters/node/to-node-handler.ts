/**
 * Bridges a Fetch-API handler (the relay, the webhook receiver) to node:http and Express.
 * Wiring only: @hono/node-server turns the incoming message into a `Request` (keeping the raw body, also
 * `req.rawBody` where a framework already read it) and writes the `Response` back.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener } from '@hono/node-server';

/** Anything with a Fetch-API `fetch(request)`, such as `createRelay(...)`. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response> | Response;
}

/** A node:http request listener that also works as Express/Connect middleware. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void>;

/**
 * Mounts a Fetch-API handler on node:http: `http.createServer(toNodeHandler(relay))`, or
 * `app.use('/campaign', toNodeHandler(relay))` in Express.
 * @example
 * ```ts
 * http.createServer(toNodeHandler(createRelay({ server, authenticate }))).listen(8080);
 * ```
 */
export function toNodeHandler(handler: FetchHandler): NodeHandler {
  const listener = getRequestListener((request) => handler.fetch(request));
  return async (req, res) => {
    // Express strips its mount path from `url`; the handler routes on the full path it was given.
    const original = (req as IncomingMessage & { originalUrl?: string }).originalUrl;
    if (original) req.url = original;
    await listener(req, res);
  };
}
