/**
 * Bridges a Fetch-API handler (the relay, the webhook receiver) to node:http and Express.
 * Wiring only: @hono/node-server turns the incoming message into a `Request` (keeping the raw body, also
 * `req.rawBody` where a framework already read it) and writes the `Response` back.
 */
import { subscribe } from 'node:diagnostics_channel';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { errorResponse, validationErrorResponse } from '../../core/relay/answers.js';
import { TOO_DEEP_MESSAGE } from '../../core/relay/request-body.js';
import { attachClientAddress } from '../../core/relay/client-address.js';
import { REFUSED_REQUEST_CORS, type RefusedRequestCors } from '../../core/relay/cors.js';
import { clientErrorListener, errorText, refuseUnservedRequests, type ClientErrorAnswers } from './client-error.js';

/** Anything with a Fetch-API `fetch(request)`, such as `createRelay(...)`. */
export interface FetchHandler {
  fetch(request: Request): Promise<Response> | Response;
}

/** A node:http request listener that also works as Express/Connect middleware. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void) => Promise<void>;

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
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    listenForClientErrors((req.socket as { server?: unknown } | null)?.server, cors);
    // Express strips its mount path from `url`; the handler routes on the full path it was given.
    const original = (req as IncomingMessage & { originalUrl?: string }).originalUrl;
    if (original) req.url = original;
    const unwritable = useParsedBody(req);
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
 * @throws TypeError when `handler` has no `fetch` method
 */
export function createNodeServer(handler: FetchHandler, options: ServerOptions = {}): Server {
  const listener = toNodeHandler(handler);
  return listener.attach(createServer(withTimeouts(options), listener));
}

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
function withTimeouts(options: ServerOptions): ServerOptions {
  const { requestTimeout } = options;
  const limit = typeof requestTimeout === 'number' && requestTimeout > 0 ? Math.min(HEADERS_TIMEOUT_MS, requestTimeout) : HEADERS_TIMEOUT_MS;
  return { headersTimeout: limit, connectionsCheckingInterval: 1_000, ...options };
}

/** A `clientError` listener answering with the CORS headers of every handler in `policies` (each says only its paths'). */
function serverClientError(policies: Iterable<RefusedRequestCors>): ClientErrorListener {
  return clientErrorListener(serverAnswers(policies));
}

/** The error body (`BAD_REQUEST`) and the CORS headers of every handler in `policies`, for a request no handler sees. */
function serverAnswers(policies: Iterable<RefusedRequestCors>): ClientErrorAnswers {
  return {
    body: (status, message) => errorText(status, 'BAD_REQUEST', message),
    cors: (request) => Object.assign({}, ...Array.from(policies, (policy) => policy(request))) as Record<string, string>,
  };
}

/** The servers {@link listenForClientErrors} has looked at, with the CORS policies of the handlers serving on each. */
const serverPolicies = new WeakMap<object, Set<RefusedRequestCors>>();

/**
 * Adds a `clientError` listener to `server` (the socket's server, `socket.server` in node's net.js `onconnection`) the
 * first time a handler meets it (its first connection, its first request, `attach`), unless the server has a `clientError` listener of its own (node:http then
 * leaves parser errors to it, and two answers on one socket would clash). One listener for every handler on the server
 * (an Express app with the relay and the webhook middleware): it gives the CORS headers of each handler that serves
 * there, so the relay's refusals have theirs whichever handler served first (before, only the first one's were given).
 * Likewise `checkExpectation` and `connect` listeners (client-error.ts `refuseUnservedRequests`), each unless the server
 * has its own.
 */
function listenForClientErrors(server: unknown, cors: RefusedRequestCors): void {
  if (!(server instanceof EventEmitter)) return;
  let policies = serverPolicies.get(server);
  if (!policies) {
    serverPolicies.set(server, (policies = new Set()));
    if (server.listenerCount('clientError') === 0) server.on('clientError', serverClientError(policies));
    // An unmet `Expect` (node:http: an empty 417, the connection kept) and `CONNECT` (a dropped socket).
    refuseUnservedRequests(server, serverAnswers(policies), 'the server');
  }
  policies.add(cors);
}

/** Each handler {@link toNodeHandler} made, with its CORS policy: found among a server's `request` listeners. */
const handlerPolicies = new WeakMap<object, RefusedRequestCors>();

/**
 * Makes `handle` add its listeners to a server whose request listener it is (`http.createServer(handle)`,
 * `https.createServer(options, handle)`) at the server's first connection, before its first request is read: node's
 * net.js `onconnection` publishes each accepted socket, `socket.server` set, on the diagnostics channel
 * `net.server.socket` after the `connection` event, whose http listener (`_http_server.js` `connectionListener`) only
 * starts reading then. Before, a server made so answered what came before the first request served (the very first
 * request an unmet `Expect`, a `CONNECT`, headers over 16 KiB) with node:http's own empty answer or a dropped socket. A
 * handler mounted inside another listener (Express's `app.use`) is not among the server's `request` listeners: there
 * `attach(server)` does it. One subscriber for every handler; a server's listeners are looked at per connection, by
 * reference, until one is the handler's (a server may get it after listening).
 */
function watchServerSockets(handle: object, cors: RefusedRequestCors): void {
  if (!watchingSockets) subscribe('net.server.socket', onServerSocket);
  watchingSockets = true;
  handlerPolicies.set(handle, cors);
}

let watchingSockets = false;

/**
 * Makes `outer`, a listener that hands requests to `handle` (the webhook middleware), found among a server's `request`
 * listeners as `handle` is: `http.createServer(webhookMiddleware(...))` then has the listeners from its first connection.
 */
export function servesAs(outer: object, handle: object): void {
  const cors = handlerPolicies.get(handle);
  if (cors) handlerPolicies.set(outer, cors);
}

function onServerSocket(message: unknown): void {
  const server = (message as { socket?: { server?: unknown } } | null)?.socket?.server;
  if (!(server instanceof EventEmitter) || serverPolicies.has(server)) return;
  for (const listener of server.listeners('request')) {
    const cors = handlerPolicies.get(listener);
    if (cors) listenForClientErrors(server, cors);
  }
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

/**
 * A body parser mounted before us has read the stream: @hono/node-server then takes `req.rawBody`, and only as
 * a Buffer. A string `rawBody` (a `verify` hook that kept text) becomes its UTF-8 bytes; without one, the
 * parser's result does: the bytes (`express.raw()`), the text (`express.text()`) or JSON written back
 * (`express.json()`: the relay's routes take nothing else). The webhook middleware refuses that last case
 * before calling us, since a signature covers the exact bytes.
 */
function useParsedBody(req: IncomingMessage & { rawBody?: unknown; body?: unknown }): Response | undefined {
  if (typeof req.rawBody === 'string') req.rawBody = Buffer.from(req.rawBody);
  if (req.rawBody !== undefined || !req.readableDidRead || req.body === undefined) return undefined;
  const { body } = req;
  if (Buffer.isBuffer(body) || typeof body === 'string') {
    req.rawBody = Buffer.isBuffer(body) ? body : Buffer.from(body);
    return undefined;
  }
  const text = parsedBodyText(body);
  if (typeof text === 'string') req.rawBody = Buffer.from(text);
  return text instanceof Response ? text : undefined;
}

/** Marks a non-finite number in a parsed body, replaced in the text by a number JSON.parse reads as Infinity again. */
const NOT_FINITE = '\u0000game-campaign-sdk:not-finite\u0000';

/**
 * A parser's result written back as JSON text, as the client's bytes would have read. A number the parser read as
 * Infinity (`1e400`: JSON.parse's) is written `1e400`, so the relay refuses it naming where, as it refuses it in a body
 * it reads itself; `JSON.stringify` wrote `null`, which was forwarded as the player's. A value JSON.stringify cannot
 * write is answered 400 in the spec's error body: nesting deeper than its stack (a few thousand levels, well under
 * express.json()'s 100 KB) as the relay answers JSON nested too deep, a BigInt (a parser that keeps large integers) as
 * BAD_REQUEST. Before, the thrown error left the handler's promise rejected: no answer, and under Express 4 (which drops
 * a middleware's promise) an unhandled rejection, which ends a Node process.
 */
function parsedBodyText(body: unknown): string | Response {
  let text: string;
  try {
    text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? `${NOT_FINITE}${value < 0 ? '-' : ''}` : value));
  } catch (error) {
    if (error instanceof RangeError) return validationErrorResponse([{ path: '(body)', message: TOO_DEEP_MESSAGE }]);
    return errorResponse(400, 'BAD_REQUEST', `The body a parser mounted before the relay read cannot be written back as JSON (${(error as Error)?.message ?? String(error)})`);
  }
  // As JSON.stringify writes the marker (its NULs escaped); a client's string equal to it is refused as its own number.
  const marker = JSON.stringify(NOT_FINITE);
  return text.includes(marker.slice(1, -1)) ? text.split(JSON.stringify(`${NOT_FINITE}-`)).join('-1e400').split(marker).join('1e400') : text;
}

/** Writes a Fetch `Response` the handler did not make (a small JSON body) with `extra` headers. */
async function writeAnswer(res: ServerResponse, response: Response, extra: Record<string, string>): Promise<void> {
  const text = await response.text();
  const headers: Record<string, string | number> = { ...Object.fromEntries(response.headers), ...extra, 'content-length': Buffer.byteLength(text) };
  res.writeHead(response.status, headers).end(text);
}
