/**
 * A request with no URL to route. Fetch's `Request.url` is always absolute, but Bun (1.4) hands a handler the bare
 * request target (`/campaign/playtime/sessions`) when the request names no host: an HTTP/1.0 request without `Host`, an
 * empty `Host`, one that is no host name (probed on Bun 1.4.4 with raw requests). Hono's router reads a path after
 * what it takes for the scheme and host (hono/utils/url.js `getPath`: from the first `/` after the 4th character), so
 * the relay answered such a request with a 404 naming a path it did not ask for, and routed `/v2/playtime/sessions`
 * as `/playtime/sessions`. assumed: answered as `toNodeHandler` answers the same request on Node (@hono/node-server's
 * "Missing host header", "Invalid host header"): 400 `BAD_REQUEST` in the spec's error body, `Connection: close`. Deno
 * names such a request's URL after localhost and serves it; workerd refuses it itself (a bare 400).
 */
import { errorResponse } from './answers.js';

/** 400 `BAD_REQUEST` for a request whose URL is its bare target (no scheme, no host); undefined for any other. */
export function unroutableRequest(request: Request): Response | undefined {
  // A `/` where an absolute URL's scheme begins: one character read per request.
  if (request.url.charCodeAt(0) !== 0x2f) return undefined;
  return errorResponse(400, 'BAD_REQUEST', 'The request cannot be read: its Host header is missing or names no host, so it has no URL to route', undefined, {
    connection: 'close',
  });
}
