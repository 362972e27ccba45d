/**
 * Path parameters whose percent-encoding cannot be decoded (`/sponsors/user/%ZZ`, a `%` without two hex digits, or
 * bytes that are not UTF-8 such as `%FF`) answer 400 `VALIDATION_ERROR` naming the parameter. hono's `c.req.param()`
 * hands such a segment on as written (hono `utils/url.ts` `tryDecodeURIComponent` keeps the text when
 * `decodeURIComponent` throws), so the emulator looked up the user `%ZZ` and answered as if it existed.
 * assumed: the spec types path parameters as strings and answers a parameter that fails validation with 400
 * `VALIDATION_ERROR` (spec "Errors"); a URL no server can decode is such a parameter.
 * @see spec "Errors"; RFC 3986 section 2.1 (percent-encoding)
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../app-env.js';
import { invalid } from '../respond.js';

/** 400 `VALIDATION_ERROR` when a segment of the request's path cannot be percent-decoded. */
export const decodablePathParams: MiddlewareHandler<AppEnv> = async (c, next) => {
  const segments = new URL(c.req.url).pathname.split('/');
  const bad = segments.map((segment, i) => (decodes(segment) ? -1 : i)).filter((i) => i >= 0);
  if (bad.length === 0) return next();
  // The parameter's name from the route the request matched (`/v1/server/sponsors/user/:userId`).
  const route = matchedRoutes(c).find((r) => r.method === c.req.method && r.path.split('/').length === segments.length);
  const names = route?.path.split('/') ?? [];
  const details = bad.map((i) => ({ path: names[i]?.startsWith(':') ? names[i].slice(1) : '(path)', message: 'is not valid percent-encoding' }));
  return invalid(c, details);
};

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}
