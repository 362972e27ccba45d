/**
 * Bridges a Fetch-API handler (the relay, the webhook receiver) to node:http and Express.
 * Wiring only: @hono/node-server turns the incoming message into a `Request` (keeping the raw body, also
 * `req.rawBody` where a framework already read it) and writes the `Response` back.
 */
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { errorResponse } from '../../core/relay/answers.js';
import { attachClientAddress } from '../../core/relay/client-address.js';
import { REFUSED_REQUEST_CORS, type RefusedRequestCors } from '../../core/relay/cors.js';
import { slashedPath } from './backslash-path.js';
import { faultyFraming } from './faulty-framing.js';
import { withoutConnectionFields } from './http2-answer.js';
import { useParsedBody } from './parsed-body.js';
import { rememberRequestStarts } from './request-starts.js';
import { answerMissingHost, listenForClientErrors, serverClientError, watchServerSockets } from './server-listeners.js';

/** Anything with a Fetch-API `fetch(request)`, such as `createRelay(...)`. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response> | Response;
}

/**
 * A node:http request listener that also works as Express/Connect middleware, and as a node:http2 server's
 * (`http2.createSecureServer({ allowHTTP1: true, ... }, handler)`: @hono/node-server reads its compatibility requests).
 */
export type NodeHandler = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse, next?: (error?: unknown) => void) => Promise<void>;

/**
 * A listener for a node:http server's `clientError` event: a request node:http's parser refuses (headers over 16 KiB,
 * a malformed request) is answered in the spec's error body (`BAD_REQUEST`; 431, 400, 413 or 408 as node:http gives
 * them) and, for a relay with `cors`, its CORS headers, where node:http answers an empty one.
 */
export type ClientErrorListener = (error: NodeJS.ErrnoException, socket: Duplex) => void;

/** What {@link toNodeHandler} returns: the listener, with the server's `clientError` listener beside it. */
export type NodeHandlerWithClientError = NodeHandler & {
  /**
   * Added to the server by the handler itself, unless the server has a `clientError` listener already: at the server's
   * first connection when the handler is its request listener (`http.createServer(handler)`), else at the first request
   * the handler serves (Express: use `attach(app.listen(...))` to cover the requests before).
   */
  readonly clientError: ClientErrorListener;
  /**
   * Answers `server`'s parser errors, unmet `Expect` and `CONNECT` from now on, before its first request: the same
   * listeners, shared with the other handlers on that server, each not added when the server has one of its own. Needed
   * where the handler is not the server's own request listener (Express's `app.listen()`: the handler, mounted inside
   * the app, otherwise adds them at the first request it serves); `http.createServer(handler)` and
   * `https.createServer(options, handler)` get them at their first connection without it. Returns `server`.
   * @example
   * ```ts
   * const handler = toNodeHandler(relay);
   * handler.attach(https.createServer({ key, cert }, handler)).listen(443);
   * ```
   */
  attach<S extends EventEmitter>(server: S): S;
};

/**
 * Mounts a Fetch-API handler on node:http: `http.createServer(toNodeHandler(relay))`, or
 * `app.use('/campaign', toNodeHandler(relay))` in Express (there `handler.attach(app.listen(port))`, so that what
 * node:http answers before any handler, from the first request on, is in the spec's error body). The socket's peer address goes with each request
 * (the relay's default `clientAddress`); behind a proxy that is the proxy's address.
 * @example
 * ```ts
 * http.createServer(toNodeHandler(createRelay({ server, authenticate }))).listen(8080);
 * ```
 * @throws TypeError when `handler` has no `fetch` method (a function given in its place, say)
 */
export function toNodeHandler(handler: FetchHandler): NodeHandlerWithClientError {
  // Checked here: a handler without fetch answered every request 500 with an empty body, and logged nothing.
  if (typeof handler?.fetch !== 'function') {
    const got = typeof handler === 'function' ? 'a function: pass the relay or receiver itself, not its fetch' : String(handler);
    throw new TypeError(`toNodeHandler needs an object with fetch(request), such as createRelay(...) or createWebhookReceiver(...); got ${got}`);
  }
  const listener = getRequestListener(
    (request, env) => {
      attachClientAddress(request, env.incoming.socket?.remoteAddress);
      return handler.fetch(request);
    },
    { errorHandler: unreadableRequest },
  );
  const refusedCors = (handler as { [REFUSED_REQUEST_CORS]?: RefusedRequestCors })[REFUSED_REQUEST_CORS];
  const cors: RefusedRequestCors = (request) => refusedCors?.(request) ?? {};
  const clientError = serverClientError([cors]);
  const handle = async (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    listenForClientErrors((req.socket as { server?: unknown } | null)?.server, cors);
    // A connection that began before the server had the listeners (Express without `attach`): its next requests.
    if (req.socket && req.httpVersionMajor === 1) rememberRequestStarts(req.socket);
    // Express strips its mount path from `url`; the handler routes on the full path it was given.
    const original = (req as IncomingMessage & { originalUrl?: string }).originalUrl;
    if (original) req.url = original;
    // `\` in the path as `/`, as Bun, Deno and workerd read it (backslash-path.ts), not @hono/node-server's 400.
    if (req.url) req.url = slashedPath(req.url);
    if (req.httpVersionMajor === 2) withoutConnectionFields(res as Http2ServerResponse);
    const unwritable = faultyFraming(req) ?? useParsedBody(req);
    if (unwritable) return writeAnswer(res, unwritable, cors({ target: req.url, origin: req.headers.origin }));
    await listener(req, res);
  };
  watchServerSockets(handle, cors);
  return Object.assign(handle, {
    clientError,
    attach: <S extends EventEmitter>(server: S): S => {
      if (!(server instanceof EventEmitter)) throw new TypeError(`attach needs the node:http server the handler serves, got ${String(server)}`);
      listenForClientErrors(server, cors);
      return server;
    },
  });
}

/**
 * A node:http server for a Fetch-API handler (the relay, the webhook receiver) that answers node:http's parser errors
 * in the spec's error body (and the relay's CORS headers) from its first connection, as `http.createServer(options,
 * toNodeHandler(relay))` does. `options` are node:http's (`requestTimeout`, `headersTimeout`, `maxHeaderSize`...);
 * unless given, `headersTimeout` is 10 s (as the relay's body read time-out; at most `requestTimeout`) and
 * `connectionsCheckingInterval` 1 s, so a client trickling its headers is answered 408 within about 11 s.
 * @example
 * ```ts
 * createNodeServer(createRelay({ server, authenticate }), { requestTimeout: 30_000 }).listen(8080);
 * ```
 * @throws TypeError when `handler` has no `fetch` method, or `options` ask for TLS (`key`, `cert`, `pfx`...): use
 * `https.createServer(options, toNodeHandler(handler))` there
 */
export function createNodeServer(handler: FetchHandler, options: ServerOptions = {}): Server {
  const tls = TLS_OPTIONS.find((name) => (options as Record<string, unknown> | null)?.[name] !== undefined);
  if (tls) throw new TypeError(`createNodeServer serves plain HTTP and would ignore \`${tls}\`; for TLS use https.createServer(options, toNodeHandler(handler)) (or http2.createSecureServer)`);
  const listener = toNodeHandler(handler);
  const server = createServer(withTimeouts(options), listener);
  // An HTTP/1.1 request without `Host` is the handler's 400 in the error body (node:http's own is empty), unless asked.
  if (options?.requireHostHeader === undefined) answerMissingHost(server);
  return listener.attach(server);
}

/**
 * Options that ask for TLS, which node:http's `createServer` takes without a word while it serves plain HTTP: a server
 * given them listened (on 443, say) without TLS, and every browser request failed, with nothing in the server's log.
 */
const TLS_OPTIONS = ['key', 'cert', 'pfx', 'secureContext', 'SNICallback'] as const;

/** The default of `createNodeServer`'s `headersTimeout`: the relay's body read time-out (`DEFAULT_BODY_TIMEOUT_MS`). */
const HEADERS_TIMEOUT_MS = 10_000;

/**
 * node:http's options with the header time-out of a server facing players. node:http's own (Node 20) are 60 s, checked
 * every 30 s (`_http_server.js` `checkConnections`, `connectionsCheckingInterval`): a client sending a header line now
 * and then held its connection up to 90 s, where a body trickled the same way is cut at the relay's 10 s (408), so a
 * few hundred such clients held a server's sockets for minutes each. assumed: 10 s, as the relay's body and
 * `authenticate` time-outs, far above what a phone on a slow network takes to send a few hundred bytes of headers; a
 * 1 s check, which costs node:http one walk of its open connections a second. Options given are kept; the header
 * time-out stays within a `requestTimeout` given (node:http refuses a larger one).
 */
function withTimeouts(options: ServerOptions | null | undefined): ServerOptions {
  // An option set to `undefined` (a config's unset field: `{ headersTimeout: config.headersTimeout }`) is not given:
  // spread as it was, it replaced the 10 s and 1 s defaults with node:http's 60 s and 30 s. `null` is node:http's `{}`.
  const given = Object.fromEntries(Object.entries(options ?? {}).filter(([, value]) => value !== undefined)) as ServerOptions;
  const { requestTimeout } = given;
  const limit = typeof requestTimeout === 'number' && requestTimeout > 0 ? Math.min(HEADERS_TIMEOUT_MS, requestTimeout) : HEADERS_TIMEOUT_MS;
  return { headersTimeout: limit, connectionsCheckingInterval: 1_000, ...given };
}

/**
 * The answer for a request @hono/node-server cannot turn into a Fetch `Request` (`newRequest`/`buildUrl` throw a
 * `RequestError`): a target that is not a path (`OPTIONS *`), a backslash in the path, a `Host` that is not a host
 * name. 400 `BAD_REQUEST` in the spec's error body; without an `errorHandler` it answered an empty 400, and a handler
 * that threw an empty 500 or a `text/plain` 500 carrying the error's message. A handler's failure is 500
 * `INTERNAL_ERROR`, logged, its message not sent. assumed: the relay's own code for a request it cannot read.
 */
function unreadableRequest(error: unknown): Response {
  if (error instanceof RequestError) return errorResponse(400, 'BAD_REQUEST', `The request cannot be read: ${error.message}`, undefined, { connection: 'close' });
  console.error('[game-campaign-sdk] toNodeHandler: the handler failed', error);
  return errorResponse(500, 'INTERNAL_ERROR', 'The handler failed to answer the request');
}

/** Writes a Fetch `Response` the handler did not make (a small JSON body) with `extra` headers. */
async function writeAnswer(res: ServerResponse | Http2ServerResponse, response: Response, extra: Record<string, string>): Promise<void> {
  const text = await response.text();
  const headers: Record<string, string | number> = { ...Object.fromEntries(response.headers), ...extra, 'content-length': Buffer.byteLength(text) };
  // node:http2's compatibility response takes the same writeHead(status, headers) and end(text).
  (res as ServerResponse).writeHead(response.status, headers).end(text);
}
