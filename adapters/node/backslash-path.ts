/**
 * A backslash in a request's path, read as the other runtimes read it. The WHATWG URL parser takes `\` in an http(s)
 * path for `/` (so Bun hands the handler `/campaign\playtime\sessions` as `/campaign/playtime/sessions`, and the relay
 * routes Deno's and workerd's raw URL so: core/relay/routed-path.ts), where @hono/node-server refuses it (400 "Backslash
 * in request path", a guard of its own fast path, which does not parse the URL). One request, one answer: on Node the
 * path's backslashes become slashes before @hono/node-server reads it, whose URL parse then resolves what they made
 * (`\..\` included). The query is left as sent; an absolute-form target is left to its checks.
 * p50: the asterisk-form `*` (RFC 9112 section 3.2.4, `OPTIONS *`: the server as a whole) becomes `/*`, the URL Deno
 * hands a handler for it (probed on Deno 2: `OPTIONS *` and `OPTIONS /*` both arrive as `http://host/*`), where
 * @hono/node-server refused it (400 "Invalid URL"): the relay answers 404 `NOT_FOUND` (no relay route) on Node, Deno
 * and workerd alike (workerd hands `*` on as the URL's tail); Bun answers a bare 400 itself before any handler.
 */

/** `target` with the backslashes of its path as slashes, `*` as `/*`; the same string for any other. */
export function slashedPath(target: string): string {
  if (target === '*') return '/*';
  if (target.charCodeAt(0) !== 0x2f /* / */ || !target.includes('\\')) return target;
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  return path.replaceAll('\\', '/') + (query < 0 ? '' : target.slice(query));
}
