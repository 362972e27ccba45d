/**
 * The emulator's HTTP server: requests that never reach the app still answer in the spec's error body. node:http
 * answers a request its parser refuses (a `Content-Length` given twice, a control character in a header, a bad chunk
 * size, a space in the path, a request line and headers over 16 KiB) with an empty 400 or 431 of its own (`_http_server.js`
 * `socketOnError`), an HTTP/1.1 request without `Host` with an empty 400 (`parserOnIncoming`, `requireHostHeader`),
 * and @hono/node-server one whose target is not a path (`OPTIONS *`, `GET x`) or whose `Host` is not a host name with an
 * empty 400 (`newRequest`/`buildUrl` throw a `RequestError`, and `serve` passes no `errorHandler`); a client then read
 * an error with no code or message (`CampaignServer`: `HTTP 400`, code `UNKNOWN` for the 431).
 * @see spec "Errors" (error body, all error responses)
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { getRequestListener, RequestError } from '@hono/node-server';
import { errorBody } from '../core/schema/errors.js';
import { codeForStatus } from './respond.js';
import { V1_CORS } from './app.js';

/** The status node:http gives each parser error (`socketOnError`); any other is 400. */
const STATUS_BY_PARSER_ERROR: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/**
 * The CORS headers the app gives an answer to `target` (a request's path and query): its `/v1/*` policy
 * ({@link V1_CORS}: any origin, so the request's `Origin` need not be read), none elsewhere (`/_emulator/*` is same
 * origin only) or when the target is unknown. Without them a browser hid a raw answer (a 431 from the Client API)
 * from the page, which saw only a network error.
 */
export function corsHeadersFor(target: string | undefined): Record<string, string> {
  if (target === undefined || !/^\/v1(?:[/?]|$)/.test(target)) return {};
  return { 'access-control-allow-origin': V1_CORS.origin, 'access-control-expose-headers': V1_CORS.exposeHeaders.join(',') };
}

/**
 * The target of the request line at the start of `packet`, the bytes node:http's parser refused (`error.rawPacket`):
 * known when the request line arrived in the same read as the error (a header over 16 KiB sent at once), else undefined.
 */
function targetOf(packet: unknown): string | undefined {
  if (!Buffer.isBuffer(packet)) return undefined;
  return /^[A-Z]+ (\/[!-~]*) HTTP\/1\.[01]\r\n/.exec(packet.subarray(0, 8192).toString('latin1'))?.[1];
}

/** The spec's error body for `status` as JSON text (`code` as the app gives a status it did not answer itself). */
function errorText(status: number, message: string): string {
  const body = errorBody(status, codeForStatus(status), message);
  return JSON.stringify(body.error === 'Error' ? { ...body, error: STATUS_CODES[status] ?? 'Error' } : body);
}

/**
 * A node:http server for `handle` (the app's fetch) on behalf of `hostname`: the app's answers as `serve` gives them,
 * and the spec's error body for what node:http or @hono/node-server would answer with an empty one.
 */
export function emulatorServer(handle: (request: Request, env: unknown) => Response | Promise<Response>, hostname: string): Server {
  // The request the listener is turning into a Fetch `Request`: @hono/node-server calls `errorHandler` for a
  // `RequestError` synchronously, inside the listener call (dist/index.mjs `getRequestListener`, `newRequest` throws).
  let reading: IncomingMessage | undefined;
  const listener = getRequestListener(handle, {
    hostname,
    // `RequestError`: the request could not become a Fetch `Request` (bad target or Host); anything else is ours.
    errorHandler: (error) => {
      const bad = error instanceof RequestError;
      const status = bad ? 400 : 500;
      const message = bad ? `The request cannot be read: ${error.message}` : 'Internal error in the emulator';
      if (!bad) console.error('[game-campaign-emulator] unexpected error', error);
      const cors = corsHeadersFor(bad ? reading?.url : undefined);
      return new Response(errorText(status, message), { status, headers: { 'content-type': 'application/json', connection: 'close', ...cors } });
    },
  });
  // RFC 9112 section 3.2: an HTTP/1.1 request without Host is a 400; answered here so that it has the error body.
  const server = createServer({ requireHostHeader: false }, (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers.host === undefined && request.httpVersion === '1.1') {
      response.shouldKeepAlive = false;
      const text = errorText(400, 'An HTTP/1.1 request must carry a Host header');
      response.writeHead(400, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...corsHeadersFor(request.url) }).end(text);
      return;
    }
    reading = request;
    try {
      void listener(request, response);
    } finally {
      reading = undefined;
    }
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => answerClientError(error, socket));
  return server;
}

/**
 * What node:http's default `clientError` does (`_http_server.js` `socketOnError`), with the spec's error body: an
 * answer only on a socket that can take one and has had nothing written to it yet (else the parser error came after
 * an answer, on a kept-alive connection, and the socket is closed as node:http closes it).
 */
function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Socket).bytesWritten !== 0) {
    socket.destroy();
    return;
  }
  const status = STATUS_BY_PARSER_ERROR[error.code ?? ''] ?? 400;
  const text = errorText(status, `The request is not valid HTTP (${error.code ?? 'parse error'})`);
  const cors = Object.entries(corsHeadersFor(targetOf((error as { rawPacket?: unknown }).rawPacket)));
  const extra = cors.map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra}Connection: close\r\n\r\n${text}`,
  );
}
