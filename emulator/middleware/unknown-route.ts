/**
 * Unknown paths answer 404 `NOT_FOUND` before anything else looks at the request: a typo in a path must not read
 * as a key problem (401) or a body problem (415) just because it sits under `/v1/server/*`.
 */
import type { Hono, MiddlewareHandler } from 'hono';
import { METHOD_NAME_ALL, type Router } from 'hono/router';
import { TrieRouter } from 'hono/router/trie-router';
import type { AppEnv } from '../app-env.js';
import { fail } from '../respond.js';

/**
 * 404 `NOT_FOUND` in the spec's error body for a path no route of `app` has, whatever the method. assumed: a known
 * path called with a method it lacks goes on through the usual checks and ends in the app's own 404 (no 405).
 * The route table is read at the first request, once every route is registered; middleware (`app.use`) is not a route.
 */
export function rejectUnknownPaths(app: Hono<AppEnv>): MiddlewareHandler<AppEnv> {
  let known: Router<true> | undefined;
  return async (c, next) => {
    known ??= routeTable(app);
    if (known.match(METHOD_NAME_ALL, c.req.path)[0].length === 0) {
      return fail(c, 404, 'NOT_FOUND', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`);
    }
    await next();
  };
}

/** Every route path of `app`, for any method. */
function routeTable(app: Hono<AppEnv>): Router<true> {
  const router = new TrieRouter<true>();
  for (const route of app.routes) if (route.method !== METHOD_NAME_ALL) router.add(METHOD_NAME_ALL, route.path, true);
  return router;
}
