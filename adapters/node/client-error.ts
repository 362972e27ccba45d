/**
 * Answers for the requests node:http refuses before any handler sees them, in the spec's error body: its parser's errors
 * (`clientError`: a request line and headers over 16 KiB, a `Content-Length` given twice, a control character in a
 * header, a bad chunk size). node:http's own answer (`_http_server.js` `socketOnError`) is an empty 400 or 431, which a
 * client reads as an error with no code or message, and which a browser hides from a page on another origin (no CORS
 * header: "Failed to fetch"). One implementation for `toNodeHandler` (the relay, the webhook receiver) and the
 * emulator's server (emulator/http-errors.ts).
 * @see spec "Errors" (error body, all error responses)
 */
import type { EventEmitter } from 'node:events';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorBody } from '../../core/schema/errors.js';
import type { RefusedRequest } from './refused-request.js';
import { requestRefusedOn } from './request-starts.js';

/** The status node:http gives each parser error (`socketOnError`); any other is 400. */
const STATUS_BY_PARSER_ERROR: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  // p50: a method llhttp does not know (`FOO`, a lower-case `post`): 501, as the relay answers one that reaches it
  // (core/relay/unserved-request.ts, RFC 9110 section 9.1), where node:http answers 400.
  HPE_INVALID_METHOD: 501,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** The spec's error body as JSON text, its `error` node:http's name of the status where the spec's table has none (431). */
export function errorText(status: number, code: string, message: string): string {
  const body = errorBody(status, code, message);
  return JSON.stringify(body.error === 'Error' ? { ...body, error: STATUS_CODES[status] ?? 'Error' } : body);
}

/** How a server answers a refused request. */
export interface ClientErrorAnswers {
  /** The spec's error body for `status` as JSON text. */
  body(status: number, message: string): string;
  /** The CORS headers owed to the request (none when it is unknown or not allowed). */
  cors(request: RefusedRequest): Record<string, string>;
}

/**
 * A `clientError` listener: what node:http's default does (`_http_server.js` `socketOnError`), with the spec's error
 * body and the CORS headers `answers` gives: an answer on a socket that can take one unless a response of its own is
 * already under way there (`socket._httpMessage` with its head sent: writing would corrupt it), else the socket is
 * closed as node:http closes it. A kept-alive connection that was answered before is answered too: browsers reuse
 * connections, so the request that overflows is seldom a connection's first (before, such a socket was closed without
 * an answer, which a page read as "Failed to fetch").
 */
export function clientErrorListener(answers: ClientErrorAnswers): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?._headerSent) {
      socket.destroy();
      return;
    }
    const status = STATUS_BY_PARSER_ERROR[error.code ?? ''] ?? 400;
    const text = answers.body(status, `The request is not valid HTTP (${error.code ?? 'parse error'})`);
    const extra = Object.entries(answers.cors(requestRefusedOn(socket, (error as { rawPacket?: unknown }).rawPacket)))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // Destroyed once the answer is written, as node:http destroys it: end() alone leaves the reading side open
    // (node:http servers are allowHalfOpen), so a client that kept its side open held the socket until the server's
    // headersTimeout/requestTimeout.
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra}Connection: close\r\n\r\n${text}`,
      () => socket.destroy(),
    );
  };
}

/**
 * The listeners for the two requests node:http answers before any request listener sees them, in the spec's error body
 * with the CORS headers `answers` gives, and `describe` (who refuses: "the relay", "the emulator") in their message.
 * Added to `server` unless it has a listener of its own for the event. One implementation for `toNodeHandler` (the relay,
 * the webhook receiver) and the emulator's server.
 * - `checkExpectation`: 417 for an `Expect` other than `100-continue` (RFC 9110 section 10.1.1: a server MAY answer
 *   417). Without a listener node:http answers an empty 417 itself (`_http_server.js` `parserOnIncoming`) and keeps the
 *   connection, so a client read no code or message, and the body it still sent was read as its next request.
 *   `Connection: close` here.
 * - `connect`: 400 for `CONNECT` (a proxy's method; its target is a host and port, not a path), as for another target
 *   that is not a path. Without a listener node:http destroys the socket without a word (`_http_server.js`
 *   `onParserExecuteCommon`), which a client read as a network error. On an HTTP/2 server (node:http2 answers an
 *   unheard CONNECT 405 itself) the same 400, as an HTTP/2 response.
 */
export function refuseUnservedRequests(server: EventEmitter, answers: ClientErrorAnswers, refuser: string): void {
  if (server.listenerCount('checkExpectation') === 0) {
    server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
      const expectation = String(request.headers.expect ?? '');
      const text = answers.body(417, `The expectation ${JSON.stringify(expectation)} cannot be met: ${refuser} meets only Expect: 100-continue`);
      const cors = answers.cors({ target: request.url, origin: request.headers.origin });
      response.shouldKeepAlive = false;
      response.writeHead(417, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...cors }).end(text);
    });
  }
  if (server.listenerCount('connect') === 0) {
    server.on('connect', (request: IncomingMessage, socket: Duplex | ServerResponse) => {
      const target = request.url || (request.headers as Record<string, unknown>)[':authority'] || '';
      const text = answers.body(400, `The request cannot be read: CONNECT ${String(target)} asks for a tunnel, and ${refuser} is not a proxy`);
      // node:http2's compatibility layer (an `http2.createServer`/`createSecureServer` server, lib/internal/http2/compat.js
      // `onServerStream`) emits `connect` with a response, not a socket: HTTP/1.1 text written to it went out as the body
      // of a 200, which in HTTP/2 opens the tunnel (RFC 9113 section 8.5: a 2xx answers CONNECT with the tunnel made).
      if (isResponse(socket)) {
        const cors = answers.cors({ target: undefined, origin: request.headers.origin });
        socket.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...cors }).end(text);
        return;
      }
      // Destroyed once written, as the parser errors' sockets are (node:http servers are allowHalfOpen).
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`, () => socket.destroy());
    });
  }
}

/** A response (node:http2's compatibility `Http2ServerResponse`) rather than the socket node:http passes `connect`. */
function isResponse(value: Duplex | ServerResponse): value is ServerResponse {
  return typeof (value as Partial<ServerResponse>).writeHead === 'function';
}
