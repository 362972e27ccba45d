/**
 * The path the relay routes a request by: Hono's own reading (percent-decoded, from the first `/` after the scheme
 * and host) of the URL with its dot segments resolved as the WHATWG URL parser resolves them (RFC 3986 section
 * 5.2.4; `.`, `..`, `%2e`, `.%2E` and `\` as `/`). The runtimes disagree on what `request.url` holds for a raw target
 * such as `/campaign/x/../playtime/sessions`: Node (@hono/node-server behind toNodeHandler) and Bun resolve it (the
 * playtime route), Deno and workerd hand it on as sent (probed on Deno 2, workerd 2024-10-14 and Bun 1.4 with raw
 * requests), so the relay answered it 200 on two runtimes and 404 on the other two. What Node and Bun resolved before
 * the handler cannot be told apart from a path sent resolved, so refusing dot segments could not be one answer
 * everywhere; resolving them is, and a path that climbs out of the base path (`/campaign/../admin`) is then outside
 * it on every runtime: a 404, never a route. The request itself is not rebuilt (it keeps its body, signal and the
 * client address an adapter attached, core/relay/client-address.ts).
 */
import { getPath } from 'hono/utils/url';

/**
 * A dot segment (`/.`, `/..` or a percent-encoded dot) or a backslash anywhere in the URL: only then is the URL parsed.
 * A match in the query alone costs a parse and changes nothing.
 */
const MAY_HOLD_DOT_SEGMENTS = /\/\.|%2e|\\/i;

/** The path the relay's router, its preflight and its 404 read: {@link getPath} of the URL with dot segments resolved. */
export function routedPath(request: Request): string {
  const url = request.url;
  if (!MAY_HOLD_DOT_SEGMENTS.test(url)) return getPath(request);
  let resolved: string;
  try {
    resolved = new URL(url).href;
  } catch {
    // Not a URL (Bun's bare target, which the relay refuses before routing): read as it is.
    return getPath(request);
  }
  return getPath({ url: resolved } as Request);
}
