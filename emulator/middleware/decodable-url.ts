/**
 * Path and query parameters whose percent-encoding cannot be decoded (`/sponsors/user/%ZZ`, `?q=%ZZ`, a `%` without
 * two hex digits, or bytes that are not UTF-8 such as `%FF`) answer 400 `VALIDATION_ERROR` naming the parameter.
 * hono's `c.req.param()` and `c.req.query()` hand such text on as written (hono `utils/url.ts`
 * `tryDecodeURIComponent` keeps the text when `decodeURIComponent` throws), so the emulator looked up the user `%ZZ`,
 * or searched creators for the text `%ZZ`, and answered as if the request were well formed.
 * assumed: the spec types parameters as strings and answers a parameter that fails validation with 400
 * `VALIDATION_ERROR` (spec "Errors"); a URL no server can decode is such a parameter.
 * @see spec "Errors"; RFC 3986 section 2.1 (percent-encoding)
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../app-env.js';
import { invalid } from '../respond.js';

const MESSAGE = 'is not valid percent-encoding';
/**
 * A query parameter given more than once (`?limit=10&limit=20`): hono's `c.req.query()` took the first and dropped the
 * rest. assumed: the spec names no parameter that takes a list, so which value was meant is unknown; refused on every
 * `/v1/*` route, whatever the name.
 */
export const REPEATED_MESSAGE = 'must be given once (the query names it more than once)';

/**
 * 400 `VALIDATION_ERROR` when a segment of the request's path or a part of its query cannot be percent-decoded, or a
 * query parameter is given more than once.
 */
export const decodableUrl: MiddlewareHandler<AppEnv> = async (c, next) => {
  const url = new URL(c.req.url);
  const segments = url.pathname.split('/');
  const bad = segments.map((segment, i) => (decodes(segment) ? -1 : i)).filter((i) => i >= 0);
  // The parameter's name from the route the request matched (`/v1/server/sponsors/user/:userId`).
  const route = bad.length ? matchedRoutes(c).find((r) => r.method === c.req.method && r.path.split('/').length === segments.length) : undefined;
  const names = route?.path.split('/') ?? [];
  const details = bad.map((i) => ({ path: names[i]?.startsWith(':') ? names[i].slice(1) : '(path)', message: MESSAGE }));
  // A query pair is `name=value` (`+` is a space and always decodes); a name that cannot be decoded is named `(query)`.
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const pair of url.search.slice(1).split('&')) {
    if (pair === '') continue; // `?`, `&&`: no parameter
    const [name = '', value = ''] = pair.replace(/\+/g, ' ').split(/=(.*)/s);
    if (!decodes(name)) {
      details.push({ path: '(query)', message: MESSAGE });
      continue;
    }
    const decoded = decodeURIComponent(name);
    if (!decodes(value)) details.push({ path: decoded, message: MESSAGE });
    else if (seen.has(decoded)) repeated.add(decoded);
    else seen.add(decoded);
  }
  for (const name of repeated) details.push({ path: name, message: REPEATED_MESSAGE });
  return details.length ? invalid(c, details) : next();
};

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}
