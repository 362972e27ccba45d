/**
 * The listeners a node:http server gets for what no handler sees (parser errors, an unmet `Expect`, `CONNECT`), shared
 * by every handler {@link toNodeHandler} made that serves on it, and added from the server's first connection.
 */
import { subscribe } from 'node:diagnostics_channel';
import { EventEmitter } from 'node:events';
import { Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { Server as TlsServer } from 'node:tls';
import type { RefusedRequestCors } from '../../core/relay/cors.js';
import { clientErrorListener, errorText, refuseUnservedRequests, type ClientErrorAnswers } from './client-error.js';
import { rememberRequestStarts } from './request-starts.js';

/** A `clientError` listener answering with the CORS headers of every handler in `policies` (each says only its paths'). */
export function serverClientError(policies: Iterable<RefusedRequestCors>): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return clientErrorListener(serverAnswers(policies));
}

/** The error body (`BAD_REQUEST`) and the CORS headers of every handler in `policies`, for a request no handler sees. */
function serverAnswers(policies: Iterable<RefusedRequestCors>): ClientErrorAnswers {
  return {
    body: (status, message) => errorText(status, 'BAD_REQUEST', message),
    cors: (request) => Object.assign({}, ...Array.from(policies, (policy) => policy(request))) as Record<string, string>,
  };
}

/**
 * The CORS policies of the handlers serving on one server, held weakly: a handler made and dropped (one per request or
 * per tenant behind a wrapper, a hot reload replacing the app) is no longer answered for, and it and its relay can be
 * collected. Before, each one's policy stayed in the server's Set for the server's life, and with it the relay (the
 * policy's closure shares `toNodeHandler`'s scope): a long-lived server's memory grew with every handler made, and
 * every refused request asked every policy ever added.
 */
class WeakPolicies implements Iterable<RefusedRequestCors> {
  private readonly refs = new Set<WeakRef<RefusedRequestCors>>();
  private readonly held = new WeakSet<RefusedRequestCors>();

  add(policy: RefusedRequestCors): void {
    if (this.held.has(policy)) return;
    for (const ref of this.refs) if (ref.deref() === undefined) this.refs.delete(ref);
    this.refs.add(new WeakRef(policy));
    this.held.add(policy);
  }

  *[Symbol.iterator](): Iterator<RefusedRequestCors> {
    for (const ref of this.refs) {
      const policy = ref.deref();
      if (policy) yield policy;
      else this.refs.delete(ref);
    }
  }
}

/** The servers {@link listenForClientErrors} has looked at, with the CORS policies of the handlers serving on each. */
const serverPolicies = new WeakMap<object, WeakPolicies>();

/**
 * Adds a `clientError` listener to `server` (the socket's server, `socket.server` in node's net.js `onconnection`) the
 * first time a handler meets it (its first connection, its first request, `attach`), unless the server has a `clientError` listener of its own (node:http then
 * leaves parser errors to it, and two answers on one socket would clash). One listener for every handler on the server
 * (an Express app with the relay and the webhook middleware): it gives the CORS headers of each handler that serves
 * there, so the relay's refusals have theirs whichever handler served first (before, only the first one's were given).
 * Likewise `checkExpectation` and `connect` listeners (client-error.ts `refuseUnservedRequests`), each unless the server
 * has its own.
 */
export function listenForClientErrors(server: unknown, cors: RefusedRequestCors): void {
  if (!(server instanceof EventEmitter)) return;
  let policies = serverPolicies.get(server);
  if (!policies) {
    serverPolicies.set(server, (policies = new WeakPolicies()));
    if (server.listenerCount('clientError') === 0) {
      server.on('clientError', serverClientError(policies));
      // Over TLS (`https.createServer`, `http2.createSecureServer` with `allowHTTP1`) the refused bytes seldom hold the
      // request line: each connection's request starts are kept for the answer's CORS headers (request-starts.ts).
      if (server instanceof TlsServer) server.on('secureConnection', rememberRequestStarts);
    }
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
export function watchServerSockets(handle: object, cors: RefusedRequestCors): void {
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
  const socket = (message as { socket?: Duplex & { server?: unknown } } | null)?.socket;
  const server = socket?.server;
  if (!(server instanceof EventEmitter)) return;
  // A plain node:http server a handler serves on (https's sockets are kept from `secureConnection`, once TLS is up):
  // each connection's request starts, from its first read (request-starts.ts).
  if (serverPolicies.has(server)) {
    if (server instanceof HttpServer) rememberRequestStarts(socket!);
    return;
  }
  const listeners = server.listeners('request');
  for (const listener of listeners) {
    const cors = handlerPolicies.get(listener);
    if (cors) listenForClientErrors(server, cors);
  }
  if (serverPolicies.has(server) && server instanceof HttpServer) rememberRequestStarts(socket!);
  // The handler serves every request there: node:http's own empty 400 for an HTTP/1.1 request without `Host`
  // (`_http_server.js` `parserOnIncoming` reads `server.requireHostHeader` per request) becomes the handler's 400 in
  // the error body. Not on a server whose requests go elsewhere too (Express): its other routes would get them.
  if (listeners.length === 1 && handlerPolicies.has(listeners[0] as object)) answerMissingHost(server);
}

/**
 * Leaves an HTTP/1.1 request without `Host` to the handler, whose request reader (@hono/node-server) refuses it as a
 * `RequestError` ("Missing host header"), answered 400 `BAD_REQUEST` in the spec's error body: still the 400 RFC 9112
 * section 3.2 asks for, where node:http answered an empty one (`requireHostHeader`). Only for a server every request of
 * which the handler serves.
 */
export function answerMissingHost(server: object): void {
  (server as { requireHostHeader?: boolean }).requireHostHeader = false;
}
