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

/**
 * A `Host` that is not one host (and port): sent twice (Fetch joins the lines with `, `), or holding a path, query,
 * fragment, credentials or spaces. Deno and workerd build a request's URL as `http://` + Host + target, so
 * `Host: relay.example/campaign/playtime/sessions?` sent with any target was routed to the playtime route (probed on
 * Deno 2 and workerd 2024-10-14 with raw requests); Node (@hono/node-server: "Invalid host header") and Bun (a bare
 * target, above) refuse it. RFC 9112 section 3.2: a server MUST answer 400 to a request with more than one Host line
 * or a Host of invalid value.
 */
const NOT_ONE_HOST = /[\/?#@,\s\\]/;

/**
 * 400 `BAD_REQUEST` for a request whose URL is its bare target (no scheme, no host), or whose `Host` is not one host
 * ({@link NOT_ONE_HOST}); undefined for any other.
 */
export function unroutableRequest(request: Request): Response | undefined {
  // A `/` where an absolute URL's scheme begins: one character read per request.
  if (request.url.charCodeAt(0) !== 0x2f) {
    // HTTP/2 carries `:authority`, which the runtimes check, and no Host.
    const host = request.headers.get('host');
    if (host === null || !NOT_ONE_HOST.test(host)) return undefined;
    return refused('its Host header is not one host name (sent twice, or holding a path), so it has no URL to route');
  }
  return refused('its Host header is missing or names no host, so it has no URL to route');
}

/** The 400 in the spec's error body, closing the connection (what else it sends is not read as a request). */
function refused(why: string): Response {
  return errorResponse(400, 'BAD_REQUEST', `The request cannot be read: ${why}`, undefined, { connection: 'close' });
}
