/**
 * CORS for a relay that game pages on other origins call (every web portal: the game runs in a cross-site iframe
 * from the portal's CDN and calls the studio's relay). The relay answers the preflight of its own routes itself,
 * before authentication and rate limits (a preflight carries no credentials), and marks every answer to an allowed
 * origin, errors included, so the SDK can read the status, the body and `Retry-After`. Other origins get no CORS
 * header at all.
 * @see DESIGN section 6 (CORS); https://fetch.spec.whatwg.org/#http-cors-protocol
 */
import { routedPath } from './routed-path.js';
import { errorResponse } from './answers.js';

/** Options of the relay's `cors`: which page origins may call it. */
export interface RelayCorsOptions {
  /**
   * The page origins allowed to call the relay: exact origins as a browser sends them (`'https://game.portal-cdn.example'`:
   * scheme, host and a non-default port, no path or trailing slash), or a predicate for patterns. `'null'` (a
   * sandboxed iframe's origin) is allowed only when listed. A predicate that throws allows nothing.
   * @throws TypeError from `createRelay` for a list entry that is not an origin (the message names the origin meant)
   */
  origins: readonly string[] | ((origin: string) => boolean);
  /** How long a browser may reuse a preflight answer, in seconds (Chromium caps it at 7200). @defaultValue 7200 */
  maxAgeSeconds?: number;
}

/** Default of {@link RelayCorsOptions.maxAgeSeconds}. */
export const DEFAULT_CORS_MAX_AGE_SECONDS = 7200;

/**
 * Request headers every preflight allows: the SDK's JSON body and the usual bearer token. The game's own header
 * names (`relay.headers`) are allowed as the browser lists them in `Access-Control-Request-Headers`.
 */
export const CORS_ALLOWED_HEADERS = ['content-type', 'authorization'] as const;

/** Response headers the SDK reads beyond the CORS-safelisted ones (`Content-Type` is safelisted already). */
export const CORS_EXPOSED_HEADERS = ['retry-after'] as const;

/** A header name as RFC 9110 allows it (a token), so nothing else is ever echoed back. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/;

/** The CORS part of a relay: answers preflights of its routes and marks its other answers. */
export interface RelayCors {
  /** The answer to a CORS preflight for one of `routes`, or undefined when `request` is none (then route it as usual). */
  preflight(request: Request): Response | undefined;
  /** `response` with the CORS headers its request's origin is owed (none for an origin not allowed). */
  decorate(request: Request, response: Response): Response;
  /** The headers {@link RelayCors.decorate} adds for a request from `origin` (none but `Vary` for an origin not allowed). */
  headers(origin: string | null | undefined): Record<string, string>;
}

/**
 * Where a relay with `cors` keeps the CORS headers owed to a request node:http refuses before the relay sees it (a
 * parser error): `toNodeHandler` reads it to mark its raw answers as the relay marks its own. `Symbol.for`, so a relay
 * made by the package's other build (CJS beside ESM) is read too.
 */
export const REFUSED_REQUEST_CORS = Symbol.for('game-campaign-sdk.refusedRequestCors');

/** The function under {@link REFUSED_REQUEST_CORS}: the headers for a refused request's target and `Origin`, where known. */
export type RefusedRequestCors = (request: { target: string | undefined; origin: string | undefined }) => Record<string, string>;

/**
 * The relay's CORS handling.
 * @param routes - the relay's full paths (base path included) and the one method each accepts
 * @throws TypeError for an entry of `origins` that is not an origin, and RangeError for a bad `maxAgeSeconds`
 */
export function relayCors(options: RelayCorsOptions, routes: Readonly<Record<string, string>>): RelayCors {
  const allowed = originCheck(options.origins);
  const maxAge = options.maxAgeSeconds ?? DEFAULT_CORS_MAX_AGE_SECONDS;
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new RangeError('cors.maxAgeSeconds must be a whole number of seconds >= 0');
  const headers = (origin: string | null | undefined): Record<string, string> => {
    const marks: Record<string, string> = { vary: 'Origin' };
    if (origin != null && allowed(origin)) {
      marks['access-control-allow-origin'] = origin;
      marks['access-control-expose-headers'] = CORS_EXPOSED_HEADERS.join(', ');
    }
    return marks;
  };

  return {
    preflight(request) {
      const origin = request.headers.get('origin');
      const requestedMethod = request.headers.get('access-control-request-method');
      if (request.method !== 'OPTIONS' || origin === null || requestedMethod === null) return undefined;
      // The path as the router matches it (percent-decoded, dot segments resolved), not the URL's encoded one: under a
      // base path a URL encodes (`/café`), the router served the POST and the preflight, matched encoded, was a 405.
      const method = routes[routedPath(request)];
      if (method === undefined) return undefined;
      const vary = 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers';
      if (!allowed(origin)) {
        // assumed: a 403 with the spec's error body (no CORS header, so the browser blocks it) says why to anyone who looks.
        return errorResponse(403, 'FORBIDDEN', `Origin ${origin} is not allowed to call this relay (createRelay's cors.origins)`, undefined, { vary });
      }
      return new Response(null, {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': method,
          'access-control-allow-headers': allowedHeaders(request.headers.get('access-control-request-headers')),
          'access-control-max-age': String(maxAge),
          vary,
        },
      });
    },

    decorate: (request, response) => withHeaders(response, headers(request.headers.get('origin'))),
    headers,
  };
}

/** A check of an origin against the option: exact entries (validated here, once), or the game's predicate. */
function originCheck(origins: RelayCorsOptions['origins']): (origin: string) => boolean {
  if (typeof origins === 'function') {
    return (origin) => {
      try {
        return origins(origin) === true;
      } catch {
        return false;
      }
    };
  }
  if (!Array.isArray(origins)) throw new TypeError('cors.origins must be an array of origins or a function (origin) => boolean');
  for (const entry of origins) checkOriginEntry(entry);
  const set = new Set<string>(origins);
  return (origin) => set.has(origin);
}

/** Throws for a list entry a browser would never send as `Origin` (a path, a trailing slash, upper case, `*`). */
function checkOriginEntry(entry: unknown): void {
  if (entry === 'null') return;
  let serialized: string | undefined;
  try {
    serialized = typeof entry === 'string' ? new URL(entry).origin : undefined;
  } catch {
    serialized = undefined;
  }
  if (serialized === entry) return;
  const meant = serialized && serialized !== 'null' ? ` (did you mean '${serialized}'?)` : entry === '*' ? ' (for any origin pass origins: () => true)' : '';
  throw new TypeError(`cors.origins: ${JSON.stringify(entry)} is not an origin as browsers send it${meant}`);
}

/** The SDK's headers and the valid names the browser asked for, lower case, each once. */
function allowedHeaders(requested: string | null): string {
  const names = new Set<string>(CORS_ALLOWED_HEADERS);
  for (const name of (requested ?? '').split(',')) {
    const trimmed = name.trim().toLowerCase();
    if (HEADER_NAME.test(trimmed)) names.add(trimmed);
  }
  return [...names].join(', ');
}

/** `response` with `headers` set (Vary added to); a copy when its headers are immutable (a fetched response). */
function withHeaders(response: Response, headers: Record<string, string>): Response {
  let target = response;
  try {
    apply(target.headers, headers);
  } catch {
    target = new Response(response.body, response);
    apply(target.headers, headers);
  }
  return target;
}

function apply(target: Headers, headers: Record<string, string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (name === 'vary') target.append('vary', value);
    else target.set(name, value);
  }
}
