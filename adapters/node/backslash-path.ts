/**
 * A backslash in a request's path, read as the other runtimes read it. The WHATWG URL parser takes `\` in an http(s)
 * path for `/` (so Bun hands the handler `/campaign\playtime\sessions` as `/campaign/playtime/sessions`, and the relay
 * routes Deno's and workerd's raw URL so: core/relay/routed-path.ts), where @hono/node-server refuses it (400 "Backslash
 * in request path", a guard of its own fast path, which does not parse the URL). One request, one answer: on Node the
 * path's backslashes become slashes before @hono/node-server reads it, whose URL parse then resolves what they made
 * (`\..\` included). The query is left as sent; a target that is no path (`*`, absolute form) is left to its checks.
 */

/** `target` with the backslashes of its path as slashes; the same string when it has none. */
export function slashedPath(target: string): string {
  if (target.charCodeAt(0) !== 0x2f /* / */ || !target.includes('\\')) return target;
  const query = target.indexOf('?');
  const path = query < 0 ? target : target.slice(0, query);
  return path.replaceAll('\\', '/') + (query < 0 ? '' : target.slice(query));
}
