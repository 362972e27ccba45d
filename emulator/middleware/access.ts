/**
 * Who may call: API keys (spec "Authentication"), the per-key rate limit (rate-limiter-flexible, in memory;
 * assumed, DESIGN section 10: 50 requests/s per key by default) and the guards of the control endpoints (loopback
 * only, same origin only, no webhook delivery).
 */
/// <reference path="../../core/relay/limiter-files.d.ts" />
import type { MiddlewareHandler } from 'hono';
// Each class from its own file, as the relay imports them (core/relay/limiters.ts): the package's index also loads
// its cluster limiter, whose `require('cluster')` throws in a game server's tests bundled as an ES module.
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import { timingSafeEqual } from '../../core/webhooks/signature.js';
import type { AppEnv } from '../app-env.js';
import type { EmulatorKeys } from '../options.js';
import { fail } from '../respond.js';
import type { Store } from '../store.js';

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i;

/**
 * Requires `Authorization: Bearer <key_id>:<secret>`: 401 `UNAUTHORIZED` without a known key, 403 `FORBIDDEN` for the
 * other surface's key (spec "Authentication" rule 2: each surface requires its own key). A Client key on the Server
 * API is the spec's own example (rule 5). assumed: the Server key on the Client API answers the same 403, so a game
 * built with the Server key in place of its Client key fails in the sandbox instead of shipping that key to players.
 */
export function requireKey(keys: EmulatorKeys, surface: 'client' | 'server'): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    const key = BEARER.exec(header ?? '')?.[1];
    if (key === undefined) {
      const message = header?.trim() ? 'The Authorization header must be Bearer <key_id>:<secret> (one key, the Bearer scheme)' : 'Missing API key: send Authorization: Bearer <key_id>:<secret>';
      return fail(c, 401, 'UNAUTHORIZED', message);
    }
    const isServerKey = timingSafeEqual(key, keys.serverKey);
    const isClientKey = timingSafeEqual(key, keys.clientKey);
    if (!isServerKey && !isClientKey) return fail(c, 401, 'UNAUTHORIZED', 'Invalid API key');
    if (surface === 'server' && !isServerKey) return fail(c, 403, 'FORBIDDEN', 'A Client key cannot call the Server API; use the Server key');
    if (surface === 'client' && !isClientKey) {
      return fail(c, 403, 'FORBIDDEN', 'The Server key cannot call the Client API; game clients use the Client key (a Server key must never ship in a game)');
    }
    c.set('apiKey', key);
    await next();
  };
}

/**
 * Answers 429 `RATE_LIMITED` with `Retry-After` (whole seconds, at least 1) once a key made more than
 * `store.faults.rateLimitPerSecond` requests in the current second; 0 turns the limit off. The limiter is rebuilt
 * when the limit changes or the store is reset.
 */
export function rateLimit(store: Store): MiddlewareHandler<AppEnv> {
  let limiter: RateLimiterMemory | undefined;
  let builtFor = '';
  return async (c, next) => {
    const perSecond = store.faults.rateLimitPerSecond;
    const key = c.get('apiKey');
    if (!key || perSecond <= 0) return next();
    const signature = `${perSecond}/${store.generation}`;
    if (!limiter || builtFor !== signature) {
      limiter = new RateLimiterMemory({ points: perSecond, duration: 1 });
      builtFor = signature;
    }
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      c.header('Retry-After', String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000))));
      return fail(c, 429, 'RATE_LIMITED', `Rate limit of ${perSecond} requests per second exceeded`);
    }
    await next();
  };
}

/** True for 127.0.0.0/8, ::1 and their IPv4-mapped forms. */
export function isLoopback(address: string): boolean {
  const plain = address.startsWith('::ffff:') ? address.slice(7) : address;
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain);
}

/** True for a loopback host name as a `Host` header carries it: localhost, 127.0.0.0/8, [::1], with or without a port. */
export function isLoopbackHost(host: string): boolean {
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d+$/, '');
  return name.toLowerCase() === 'localhost' || isLoopback(name);
}

/**
 * 403 `FORBIDDEN` over HTTP from anything but a loopback address, or under a `Host` that is not a loopback name
 * (DNS rebinding: a page whose domain resolves to 127.0.0.1 reaches the socket from loopback, but names its own
 * host). In-process calls (no socket) pass.
 */
export const loopbackOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const address = c.env?.incoming?.socket?.remoteAddress;
  if (address !== undefined && !isLoopback(address)) {
    return fail(c, 403, 'FORBIDDEN', 'Emulator controls answer only loopback addresses');
  }
  const host = c.env?.incoming?.headers?.host;
  if (address !== undefined && host !== undefined && !isLoopbackHost(host)) {
    return fail(c, 403, 'FORBIDDEN', `Emulator controls answer only loopback host names, not ${host}`);
  }
  await next();
};

/**
 * 403 `FORBIDDEN` for a request whose `Origin` header names another origin than the emulator's own (the scheme,
 * host and port it was called on), `Origin: null` included: a web page the developer happens to open must not
 * reset or reconfigure a running emulator (CSRF). Requests without `Origin` (scripts, tests, same-origin GETs) pass.
 * assumed: the emulator's origin is the one of the URL it was called on (`Host` over HTTP), compared exactly.
 */
export const sameOriginOnly: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header('origin');
  if (origin !== undefined && origin !== new URL(c.req.url).origin) {
    return fail(c, 403, 'FORBIDDEN', `Emulator controls refuse requests from another origin (${origin})`);
  }
  await next();
};

/**
 * 403 `FORBIDDEN` for a webhook delivery (a request with Standard Webhooks' `webhook-id` header, which every delivery
 * of an emulator carries): a receiver registered at `http://127.0.0.1:<port>/_emulator/reset` by any holder of the
 * sandbox Server key, a client the loopback guard refuses, would otherwise reach the controls through the
 * emulator's own deliveries, from loopback under a loopback name.
 */
export const noWebhookDelivery: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.header('webhook-id') !== undefined) return fail(c, 403, 'FORBIDDEN', 'Emulator controls refuse webhook deliveries');
  await next();
};
