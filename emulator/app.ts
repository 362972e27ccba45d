/**
 * The emulator's Hono app: middleware in the order a request meets it, then every route of the spec.
 * Every request: count -> (CORS on `/v1/*`) -> unknown path? 404 `NOT_FOUND` before any key or body check.
 * `/v1/*`: faults -> key (client/server surfaces) -> rate limit -> body size -> JSON body -> path parameters -> route.
 * `/_emulator/*`: loopback only -> same origin only -> no webhook delivery -> body size -> JSON body (optional) -> control route.
 */
import { Hono, type MiddlewareHandler } from 'hono';
import { cors } from 'hono/cors';
import { matchedRoutes } from 'hono/route';
import type { AppEnv, Services } from './app-env.js';
import { loopbackOnly, noWebhookDelivery, rateLimit, requireKey, sameOriginOnly } from './middleware/access.js';
import { injectFaults } from './middleware/faults.js';
import { limitBody, parseJsonBody } from './middleware/json-body.js';
import { decodableUrl } from './middleware/decodable-url.js';
import { rejectUnknownPaths } from './middleware/unknown-route.js';
import { answerError, fail } from './respond.js';
import { campaignRoutes } from './routes/campaigns.js';
import { controlRoutes, type Controls } from './routes/control.js';
import { couponRoutes } from './routes/coupons.js';
import { paymentRoutes } from './routes/payments.js';
import { playtimeRoutes } from './routes/playtime.js';
import { sponsorRoutes } from './routes/sponsors.js';
import { webhookRoutes } from './routes/webhooks.js';
import { webviewRoutes } from './routes/webview.js';
import type { Store } from './store.js';

type CORSOptions = NonNullable<Parameters<typeof cors>[0]>;

/**
 * The CORS policy of `/v1/*`: every origin may call the API and read its answers (its keys are the sandbox's, and a
 * game's page calls the Client API). Raw answers to malformed HTTP follow it too (http-errors.ts `corsHeadersFor`).
 */
export const V1_CORS = { origin: '*', allowHeaders: ['authorization', 'content-type'], exposeHeaders: ['retry-after'], maxAge: 600 } satisfies CORSOptions;

/** Builds the app over the emulator's services. */
export function createApp(services: Services, controls: Controls): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const { store, keys, random, latency } = services;

  app.use('*', countRequests(store));
  app.use('/v1/*', cors(V1_CORS));
  app.use('*', rejectUnknownPaths(app));
  app.use('/v1/*', injectFaults(store, random, latency));
  app.use('/v1/server/*', requireKey(keys, 'server'));
  app.use('/v1/client/*', requireKey(keys, 'client'));
  app.use('/v1/*', rateLimit(store));
  app.use('/v1/*', limitBody);
  app.use('/v1/*', parseJsonBody(true));
  app.use('/v1/*', decodableUrl);
  app.use('/_emulator/*', loopbackOnly);
  app.use('/_emulator/*', sameOriginOnly);
  app.use('/_emulator/*', noWebhookDelivery);
  app.use('/_emulator/*', limitBody);
  app.use('/_emulator/*', parseJsonBody(false));

  playtimeRoutes(app, services);
  paymentRoutes(app, services);
  couponRoutes(app, services);
  sponsorRoutes(app, services);
  webviewRoutes(app, services);
  webhookRoutes(app, services);
  campaignRoutes(app, services);
  controlRoutes(app, controls);

  app.notFound((c) => fail(c, 404, 'NOT_FOUND', `No route for ${c.req.method} ${new URL(c.req.url).pathname}`));
  app.onError(answerError);
  return app;
}

/**
 * Adds one to `store.requests["<METHOD> <route pattern>"]` for every request that matches a route, whatever its
 * answer (auth errors, faults and drops included); unmatched requests and `/_emulator` controls are not counted.
 */
function countRequests(store: Store): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const route = matchedRoutes(c).find((r) => r.method === c.req.method);
    if (route && !route.path.startsWith('/_emulator')) {
      const name = `${route.method} ${route.path}`;
      store.requests[name] = (store.requests[name] ?? 0) + 1;
    }
    await next();
  };
}
