/**
 * Unknown paths (and known paths called with a method they lack) answer 404 `NOT_FOUND` before anything else looks
 * at the request: a typo in a path or a method must not read as a key problem (401) or a body problem (415) just
 * because it sits under `/v1/server/*`.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { METHOD_NAME_ALL, type Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import type { AppEnv } from '../app-env.js';
import { fail } from '../respond.js';

/**
 * 404 `NOT_FOUND` in the spec's error body for a path no route of `app` has, whatever the method, and for a known
 * path called with a method it lacks (`PATCH /v1/server/webhooks/1`), the message naming the methods it takes: a
 * method and a path name an endpoint (spec "Endpoints"), so a request for none is not found before its key or its
 * body is judged. Before, such a request went on through the key, rate limit and body checks, answering 401 or 415
 * for an endpoint that does not exist, and its 404 only when those passed. assumed: 404 rather than 405 (the spec
 * lists no 405); HEAD is GET, as hono routes it. The route table is read at the first request, once every route is
 * registered; middleware (`app.use`) is not a route.
 */
export function rejectUnknownPaths(app: Hono<AppEnv>): MiddlewareHandler<AppEnv> {
  let known: Router<string> | undefined;
  return async (c, next) => {
    known ??= routeTable(app);
    const methods = new Set(known.match(METHOD_NAME_ALL, c.req.path)[0].map(([method]) => method));
    const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
    if (!methods.has(method)) {
      const takes = methods.size > 0 ? ` (this path takes ${[...methods].join(', ')})` : '';
      return fail(c, 404, 'NOT_FOUND', `No route for ${c.req.method} ${new URL(c.req.url).pathname}${takes}`);
    }
    await next();
  };
}

/** Every route path of `app` with its method. */
function routeTable(app: Hono<AppEnv>): Router<string> {
  const router = new TrieRouter<string>();
  for (const route of app.routes) if (route.method !== METHOD_NAME_ALL) router.add(METHOD_NAME_ALL, route.path, route.method);
  return router;
}
