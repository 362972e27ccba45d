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
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import { clientErrorListener, errorText, refuseUnservedRequests } from '../adapters/node/client-error.js';
import { codeForStatus } from './respond.js';
import { V1_CORS } from './app.js';

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

/** The spec's error body for `status` as JSON text (`code` as the app gives a status it did not answer itself). */
function emulatorErrorText(status: number, message: string): string {
  return errorText(status, codeForStatus(status), message);
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
      return new Response(emulatorErrorText(status, message), { status, headers: { 'content-type': 'application/json', connection: 'close', ...cors } });
    },
  });
  // RFC 9112 section 3.2: an HTTP/1.1 request without Host is a 400; answered here so that it has the error body.
  const server = createServer({ requireHostHeader: false }, (request: IncomingMessage, response: ServerResponse) => {
    if (request.headers.host === undefined && request.httpVersion === '1.1') {
      response.shouldKeepAlive = false;
      const text = emulatorErrorText(400, 'An HTTP/1.1 request must carry a Host header');
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
  const answers = { body: emulatorErrorText, cors: ({ target }: { target: string | undefined }) => corsHeadersFor(target) };
  server.on('clientError', clientErrorListener(answers));
  // An unmet `Expect` is 417 and `CONNECT` 400, both in the error body (node:http: an empty 417, a dropped socket).
  refuseUnservedRequests(server, answers, 'the emulator');
  return server;
}
