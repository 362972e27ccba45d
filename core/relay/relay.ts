/**
 * `createRelay`: the game server's endpoint that holds the Server key for its game clients, as a
 * Fetch-API handler (Request -> Response) that mounts in Node, Express, Hono, Bun, Deno and edge workers.
 * @see DESIGN section 6
 */
import { Hono } from 'hono';
import type * as z from 'zod/mini';
import { DEFAULT_BODY_LIMIT_BYTES } from '../http/read-capped.js';
import { createMiddleware } from 'hono/factory';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { CampaignServer } from '../server/campaign-server.js';
import { recordCheckedBulk } from '../server/playtime.js';
import { isCloudflareWorker } from '../server/runtime.js';
import { Id } from '../schema/primitives.js';
import { check } from '../schema/validate.js';
import { misnamedOption } from '../own-options.js';
import { withDeadline } from '../with-deadline.js';
import { SERVICE_MAX_BODY_BYTES } from '../schema/json-limits.js';
import { clientGoneResponse, dataResponse, errorResponse, unavailableResponse, upstreamAnswer, upstreamErrorResponse, validationErrorResponse } from './answers.js';
import { boostCreation, changeOrCreateBoost } from './boost-change.js';
import { forwardedTooLarge } from './forwarded-size.js';
import { withPlayerCallbackId } from './callback-id.js';
import { attachContextAddress, attachedClientAddress, limitKeyOfAddress, type ClientAddress } from './client-address.js';
import { PlaytimeCoalescer } from './coalescer.js';
import { REFUSED_REQUEST_CORS, relayCors, type RefusedRequestCors, type RelayCorsOptions } from './cors.js';
import { DailyPlaytimeCap, type DailyPlaytimeCapOptions } from './daily-cap.js';
import { failedAuthLimiterOf, FailedAuthLimit } from './failed-auth.js';
import { DEFAULT_CLOCK_SKEW_MS, DEFAULT_MAX_SESSION_AGE_MS, type AcceptSession } from './plausibility.js';
import { answerPlaytime } from './playtime.js';
import { RELAY_ROUTES, RelaySponsorRequest, RelayWebviewRequest, type RelayWebviewToken } from './protocol.js';
import { defaultRateLimiter, takeRateLimitPoint } from './rate-limit.js';
import { DEFAULT_STORE_TIMEOUT_MS, withStoreDeadline } from './store-connection.js';
import { isJsonContentType, notJson, readJsonBody, type BodyLimits } from './request-body.js';
import { unroutableRequest } from './request-target.js';
import { unservedRequest } from './unserved-request.js';
import { routedPath } from './routed-path.js';
import { unusablePathUser } from './user-path.js';
import { checkWebviewUrl } from './webview-url.js';

/** The game's own check of a client request: the player's `{ userId }`, or null when it fails. */
export type RelayAuthenticate = (request: Request) => Promise<{ userId: string } | null> | { userId: string } | null;

/** Options of {@link createRelay}. */
export interface RelayOptions {
  /**
   * The Server API client the relay calls with its Server key.
   * @throws TypeError from `createRelay` when it is missing or not a `CampaignServer` (the key itself, say)
   */
  server: CampaignServer;
  /**
   * The game's own authentication: `{ userId }` or null (then 401). The relay takes the user from here,
   * never from a body. Read headers only: the relay reads the body afterwards (use `request.clone()` if
   * the check needs it; a body it read itself leaves the relay none, answered 500 saying so). A throw counts as a
   * failure; one that has not settled after `authenticateTimeoutMs` is answered 503; a `userId` that is not a string
   * (a database's number) is answered 500 naming `authenticate`, not counted as a failed login.
   * @throws TypeError from `createRelay` when it is not a function
   */
  authenticate: RelayAuthenticate;
  /**
   * How long `authenticate` may take, in ms: past it the request is answered 503 with `Retry-After` (the client
   * keeps its data and retries) and, with `failedAuthLimit`, its address's turn is freed without counting a
   * failure, so a stalled look-up does not hold every player behind that address. @defaultValue 10000
   * @throws RangeError from `createRelay` when it is not a finite number >= 1
   */
  authenticateTimeoutMs?: number;
  /** Where the relay is mounted, written decoded (`'/café'`, not `'/caf%C3%A9'`), as the router matches paths. @defaultValue '/campaign' */
  basePath?: string;
  /**
   * The web view address handed to clients with a one-time token. `http:` only on a host a developer tests on
   * (loopback, private and link-local addresses, a name without a dot, `.local`, `.test`, `.internal`, `.home.arpa`):
   * elsewhere anyone on a player's network reads the one-time token.
   * @defaultValue `${server.baseUrl}/webview` (assumed: the service's web view lives beside its API)
   * @throws TypeError from `createRelay` when it is not an absolute http(s) URL (game clients refuse to open any other),
   * holds credentials or a fragment (the SDK adds its own), or is `http:` on any other host (the default too)
   */
  webviewUrl?: string;
  /**
   * A rate-limiter-flexible limiter keyed by userId, one point per request; share a `RateLimiterRedis`
   * between the relays of a fleet. While its Redis client reports no connection, requests are answered 503 with
   * `Retry-After` at once, not held in the client's offline queue (unless it has an `insuranceLimiter`, which then
   * counts). @defaultValue a `RateLimiterMemory` of 20 requests/s per user (assumed)
   */
  rateLimiter?: RateLimiterAbstract;
  /**
   * Largest request body in bytes, counted as it arrives (413 above). @defaultValue 1048576 (1 MiB)
   * @throws RangeError from `createRelay` when it is not a finite number >= 1
   */
  maxBodyBytes?: number;
  /**
   * How long playtime batches wait to be merged with others into one bulk call, in ms; 0 turns merging off (each
   * request's batch goes upstream on its own, from that request). On a Cloudflare Worker merging is always off,
   * at every compatibility date: workerd cancels a request that waits for another request's upstream call with a
   * bare 500 ("your Worker's code had hung"). @defaultValue 50
   * @throws RangeError from `createRelay` when it is not a finite number >= 0
   */
  coalesceWindowMs?: number;
  /**
   * CORS, for game pages served from other origins (web portals): the origins allowed to call the relay. The relay
   * then answers their preflights (204) and marks every answer to them, errors included, with
   * `Access-Control-Allow-Origin`, `Access-Control-Expose-Headers: Retry-After` and `Vary: Origin`; other
   * origins get no CORS header. No credentials (cookies) are allowed: authenticate with a header.
   * @defaultValue none (same-origin pages only; a preflight is answered 405)
   * @example
   * ```ts
   * cors: { origins: ['https://game.portal-cdn.example', 'https://html.itch.zone'] }
   * ```
   */
  cors?: RelayCorsOptions;
  /**
   * How long a request body may take to arrive, in ms, counted from when the relay starts reading it; a body
   * still arriving then is answered 408 and not read further. Set node:http's own time-outs as well (see the
   * tracker guide). @defaultValue 10000
   * @throws RangeError from `createRelay` when it is not a finite number >= 1
   */
  bodyTimeoutMs?: number;
  /**
   * How far a session's `startedAt` or `endedAt` may be ahead of the server's clock, in ms, for device clocks
   * that run fast; later is an item FAILED. @defaultValue 300000 (5 minutes, assumed)
   * @throws RangeError from `createRelay` when it is not a finite number >= 0
   */
  clockSkewMs?: number;
  /**
   * The oldest `startedAt` accepted, in ms before now; older is an item FAILED. Offline queues hold sessions
   * for days, so keep it generous. @defaultValue 2592000000 (30 days, assumed)
   * @throws RangeError from `createRelay` when it is not a finite number >= 0
   */
  maxSessionAgeMs?: number;
  /**
   * The game's own policy per session, after the built-in checks (`durationSeconds` at most the interval
   * + 1 s, no future dates, the maximum age): return `false` or a message to refuse the session (item FAILED,
   * with that message as its `error`), `true` or nothing to accept it; throw to answer the batch 503, so the
   * client keeps it and retries.
   * @example
   * ```ts
   * acceptSession: (session, user) => session.durationSeconds <= 4 * 3600 || 'sessions last at most 4 h here'
   * ```
   */
  acceptSession?: AcceptSession;
  /**
   * How long `acceptSession` may take for one batch, in ms: past it the batch is answered 503 with `Retry-After`
   * (the client keeps it and retries), nothing forwarded or counted. @defaultValue 10000
   * @throws RangeError from `createRelay` when it is not a finite number >= 1
   */
  acceptSessionTimeoutMs?: number;
  /**
   * A per-user cap on recorded play time per UTC day (at most 86400 s), counted in memory or, with
   * `storeClient`, in the Redis the fleet's rate limits use. Sessions over it are FAILED.
   * @defaultValue none (no cap)
   */
  dailyPlaytimeCap?: DailyPlaytimeCapOptions;
  /**
   * Limits failed authentications per client address: `true` for 10 failures per minute (assumed), counted in
   * `dailyPlaytimeCap.storeClient`'s Redis when it has one (one count for the fleet), else in memory; or a
   * rate-limiter-flexible limiter of your own (a `RateLimiterRedis` for a fleet), one point per failure. While its
   * Redis client reports no connection, 503 at once. An address over the limit is answered 429 without calling
   * `authenticate`; other addresses are not affected. A limiter in memory beside a cap in Redis (or the other way
   * round) is warned of at `createRelay` (`console.warn`). @defaultValue false
   */
  failedAuthLimit?: boolean | RateLimiterAbstract;
  /**
   * The client's address for `failedAuthLimit`. Behind a proxy or load balancer, return the address it
   * forwards (e.g. the last `X-Forwarded-For` entry your own proxy appended); a request with no address is
   * not limited. An IPv6 address is counted by its /64 prefix (one subscriber's network), an IPv4-mapped one
   * (`::ffff:203.0.113.9`) as the IPv4 address, and a port written after an address (`203.0.113.9:41234`, as Azure
   * Application Gateway's `X-Forwarded-For` has it) is dropped. @defaultValue the connection's peer address, which `toNodeHandler` supplies
   * and `relay.fetch(request, context)` reads from the runtime's `context` (Bun's `server`, Deno's `info`, Hono's `c.env` on Node)
   */
  clientAddress?: ClientAddress;
  /**
   * How long one call to a limiter's store (`rateLimiter`, `failedAuthLimit`, `dailyPlaytimeCap`'s Redis) may take,
   * in ms: past it the request is answered 503 with `Retry-After` (the client keeps its data and retries), as when
   * the store's client reports no connection. A Redis that stalls, or dies with a command in flight, otherwise held
   * every player's request (ioredis without `commandTimeout` waits without end). A limiter with an `insuranceLimiter`
   * asks that one past the deadline. Limiters in memory are not timed.
   * @defaultValue 5000
   * @throws RangeError from `createRelay` when it is not a finite number >= 1
   */
  storeTimeoutMs?: number;
}

/** A Fetch-API handler: `relay.fetch(request)`, or `toNodeHandler(relay)` on node:http and Express. */
export interface Relay {
  /**
   * Answers one request. `context` is what the runtime's server passes beside it, read for the client's address
   * (`failedAuthLimit`) when `clientAddress` is not set: Bun.serve's `server`, Deno.serve's `info`, `@hono/node-server`'s
   * bindings (Hono's `c.env` on Node). So `Bun.serve({ fetch: relay.fetch })`, `Deno.serve(relay.fetch)`,
   * `app.mount('/campaign', relay.fetch)` and `(c) => relay.fetch(c.req.raw, c.env)` know the peer address.
   */
  fetch(request: Request, context?: unknown): Promise<Response>;
}

/** Default of {@link RelayOptions.maxBodyBytes}. */
export const DEFAULT_MAX_BODY_BYTES = DEFAULT_BODY_LIMIT_BYTES;
/** Default of {@link RelayOptions.coalesceWindowMs}. */
export const DEFAULT_COALESCE_WINDOW_MS = 50;
/** Default of {@link RelayOptions.bodyTimeoutMs}. */
export const DEFAULT_BODY_TIMEOUT_MS = 10_000;
/** Default of {@link RelayOptions.authenticateTimeoutMs}. assumed: 10 s, the body's read time-out. */
export const DEFAULT_AUTHENTICATE_TIMEOUT_MS = 10_000;
/** Default of {@link RelayOptions.acceptSessionTimeoutMs}. assumed: 10 s, as `authenticate`'s. */
const DEFAULT_ACCEPT_SESSION_TIMEOUT_MS = DEFAULT_AUTHENTICATE_TIMEOUT_MS;

type Env = { Variables: { user: { userId: string } } };

/**
 * Creates the relay: `POST {basePath}/playtime/sessions`, `POST {basePath}/webview/ott` and
 * `PUT {basePath}/sponsor`, each for the user `authenticate` names, validated with the SDK's schemas,
 * rate limited per user, and answered with the spec's error body on every failure (never 500 for bad input).
 * @example
 * ```ts
 * const server = new CampaignServer({ serverKey: process.env.CAMPAIGN_SERVER_KEY!, environment: 'sandbox' });
 * const relay = createRelay({ server, authenticate: async (request) => sessionUser(request.headers.get('authorization')) });
 * http.createServer(toNodeHandler(relay)).listen(8080); // or: export default { fetch: relay.fetch }
 * ```
 */
export function createRelay(options: RelayOptions): Relay {
  const { server } = checkRequired(options);
  const storeTimeoutMs = limit(options, 'storeTimeoutMs', DEFAULT_STORE_TIMEOUT_MS, 1);
  const limiter = withStoreDeadline(options.rateLimiter ?? defaultRateLimiter(), storeTimeoutMs);
  const bodyLimits: BodyLimits = {
    maxBytes: limit(options, 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES, 1),
    timeoutMs: limit(options, 'bodyTimeoutMs', DEFAULT_BODY_TIMEOUT_MS, 1),
  };
  const webviewUrl = options.webviewUrl ?? `${server.baseUrl}/webview`;
  checkWebviewUrl(webviewUrl, options.webviewUrl === undefined);
  const maxSessionAgeMs = limit(options, 'maxSessionAgeMs', DEFAULT_MAX_SESSION_AGE_MS, 0);
  const coalesceWindowMs = limit(options, 'coalesceWindowMs', DEFAULT_COALESCE_WINDOW_MS, 0);
  const coalescer = new PlaytimeCoalescer({
    windowMs: isCloudflareWorker() ? 0 : coalesceWindowMs,
    maxBytes: SERVICE_MAX_BODY_BYTES,
    // Every item was checked with the SDK's schema on arrival: sent without a second pass, as the text it was measured in.
    send: (sessions, isTest, json) => recordCheckedBulk(server.playtime, { sessions, ...(isTest ? { isTest } : {}) }, json),
  });
  const playtime = {
    coalescer,
    rules: { clockSkewMs: limit(options, 'clockSkewMs', DEFAULT_CLOCK_SKEW_MS, 0), maxSessionAgeMs },
    acceptSession: options.acceptSession,
    acceptSessionTimeoutMs: limit(options, 'acceptSessionTimeoutMs', DEFAULT_ACCEPT_SESSION_TIMEOUT_MS, 1),
    dailyCap: options.dailyPlaytimeCap ? new DailyPlaytimeCap(options.dailyPlaytimeCap, maxSessionAgeMs, storeTimeoutMs) : undefined,
    maxUpstreamBytes: SERVICE_MAX_BODY_BYTES,
  };
  const cap = options.dailyPlaytimeCap;
  const failedAuthLimiter = failedAuthLimiterOf(options.failedAuthLimit, cap);
  const failedAuth = failedAuthLimiter ? new FailedAuthLimit(withStoreDeadline(failedAuthLimiter, storeTimeoutMs)) : undefined;
  const clientAddress = options.clientAddress ?? attachedClientAddress;
  const authenticateTimeoutMs = limit(options, 'authenticateTimeoutMs', DEFAULT_AUTHENTICATE_TIMEOUT_MS, 1);
  let warnedNoAddress = false;

  const guard = createMiddleware<Env>(async (c, next) => {
    // Every route takes a JSON body, which a browser sends cross-origin only after a preflight the relay refuses to
    // origins it does not allow. A request of another type (a form or `no-cors` fetch another site's page makes the
    // player's browser send) is refused before `authenticate`: counted as a failed login, a few of them locked the
    // player's address (their NAT, their school) out of the relay.
    const contentType = c.req.raw.headers.get('content-type');
    if (!isJsonContentType(contentType)) return notJson(contentType);
    const address = failedAuth ? addressOf(clientAddress, c.req.raw) : undefined;
    if (failedAuth && address === undefined && !warnedNoAddress) {
      // Said once: a limit switched on that limits nothing (a Worker without clientAddress, a relay.fetch(request)
      // without the runtime's context) was otherwise silent.
      warnedNoAddress = true;
      console.warn(
        'createRelay: failedAuthLimit is on but a request came with no client address, so it is not limited: pass clientAddress, ' +
          "or hand relay.fetch the runtime's context (relay.fetch(request, server) on Bun, (request, info) on Deno, c.env in Hono; toNodeHandler on node:http)",
      );
    }
    if (failedAuth && address !== undefined) {
      const blocked = await failedAuth.begin(address);
      if (blocked) return blocked;
    }
    const userId = await authenticatedUser(options.authenticate, c.req.raw, authenticateTimeoutMs);
    // A look-up that did not answer is not the client's failure: its turn is freed uncounted.
    if (failedAuth && address !== undefined) await failedAuth.end(address, userId !== undefined);
    if (userId === TIMED_OUT) return unavailableResponse(`Authentication did not answer within ${authenticateTimeoutMs} ms; retry later`);
    if (typeof userId === 'object') return errorResponse(500, 'INTERNAL_ERROR', `The game's authenticate returned a userId that is not a string (${userId.got}): return { userId: string }`);
    if (userId === undefined) return errorResponse(401, 'UNAUTHORIZED', 'Authentication failed');
    const limited = await takeRateLimitPoint(limiter, userId);
    if (limited) return limited;
    c.set('user', { userId });
    await next();
  });

  const basePath = normalizeBasePath(options.basePath ?? '/campaign');
  // Routed by the path with its dot segments resolved, as Node and Bun hand it over (Deno and workerd do not).
  const app = new Hono<Env>({ getPath: routedPath }).basePath(basePath);

  app.post(RELAY_ROUTES.playtime, guard, async (c) => {
    const body = await readJsonBody(c.req.raw, bodyLimits);
    if (!body.ok) return body.response;
    return answerPlaytime(body.value, c.get('user'), playtime, c.req.raw.signal, body.ascii);
  });

  /**
   * A route that reads its body, checks it with `schema`, and answers `call`'s data, the refusal it returns instead
   * of calling the service (a `Response`), or the upstream error.
   */
  const forward = <S extends z.ZodMiniType>(schema: S, call: (body: z.output<S>, userId: string, signal: AbortSignal) => Promise<unknown>) =>
    createMiddleware<Env>(async (c) => {
      const body = await readJsonBody(c.req.raw, bodyLimits);
      if (!body.ok) return body.response;
      const parsed = check(schema, body.value);
      if (!parsed.success) return validationErrorResponse(parsed.details);
      try {
        // `check`'s output has no prototypes: a field the body lacks (`callbackId`) is not read from a polluted one.
        const answer = await call(parsed.data, c.get('user').userId, c.req.raw.signal);
        return answer instanceof Response ? answer : dataResponse(answer);
      } catch (error) {
        // Its call aborted as the client went (the web view token's): an answer no one reads, not a 503 in the logs.
        if (c.req.raw.signal.aborted) return clientGoneResponse();
        return upstreamErrorResponse(error);
      }
    });

  app.post(
    RELAY_ROUTES.webviewToken,
    guard,
    forward(RelayWebviewRequest, async (body, userId, signal): Promise<RelayWebviewToken | Response> => {
      const request = { ...withPlayerCallbackId(body, userId), userId };
      const tooLarge = forwardedTooLarge(request);
      if (tooLarge) return tooLarge;
      // A one-time token only its requester can use: a client gone before or while it is made needs none, so its
      // call is not sent, or is aborted (the service's unused token expires on its own).
      if (signal.aborted) return clientGoneResponse();
      const token = await upstreamAnswer(WEBVIEW_TOKEN_CALL, server.webview.createToken(request, { signal }), tokenProblem);
      return token instanceof Response ? token : { ott: token.ott, expiresIn: token.expiresIn, url: webviewUrl };
    }),
  );
  app.put(
    RELAY_ROUTES.sponsor,
    guard,
    // The player is named in the upstream path: an id it cannot carry is the game's authenticate's to fix.
    createMiddleware<Env>(async (c, next) => unusablePathUser(c.get('user').userId) ?? (await next())),
    forward(RelaySponsorRequest, async (body, userId, signal) => {
      const request = withPlayerCallbackId(body, userId);
      // The creation's body, the change's with the userId, is the larger of the two it may send.
      return forwardedTooLarge(boostCreation(userId, request)) ?? changeOrCreateBoost(server.sponsors, userId, request, signal);
    }),
  );

  const allowed = { [RELAY_ROUTES.playtime]: 'POST', [RELAY_ROUTES.webviewToken]: 'POST', [RELAY_ROUTES.sponsor]: 'PUT' };
  for (const [route, method] of Object.entries(allowed)) {
    // assumed: the spec has no code for a wrong method; 405 with BAD_REQUEST and an Allow header.
    app.all(route, (c) => errorResponse(405, 'BAD_REQUEST', `${c.req.method} is not allowed here; use ${method}${preflightHint(c.req.raw)}`, undefined, { allow: method }));
  }
  app.notFound((c) => {
    // The path as routed (decoded, dot segments resolved): compared with the base path, which is written decoded (`/café`).
    const path = c.req.path;
    // A client's relay.url without the mount point (or a relay mounted elsewhere) is the likeliest cause: say so.
    const outside = basePath !== '/' && path !== basePath && !path.startsWith(`${basePath}/`);
    const hint = outside ? `: the relay's routes are under ${basePath} (end the client's relay.url with it, or set createRelay's basePath)` : '';
    return errorResponse(404, 'NOT_FOUND', `No relay route ${c.req.method} ${path}${hint}`);
  });
  app.onError(() => errorResponse(500, 'INTERNAL_ERROR', 'The relay failed to handle the request'));

  // The peer address a runtime's server passes beside the request, for the default clientAddress.
  const withAddress = (request: Request, context: unknown) => {
    if (failedAuth && !options.clientAddress) attachContextAddress(request, context);
    return request;
  };
  if (!options.cors) return { fetch: async (request, context) => unroutableRequest(request) ?? unservedRequest(request) ?? app.fetch(withAddress(request, context)) };
  const prefix = basePath === '/' ? '' : basePath;
  const cors = relayCors(options.cors, Object.fromEntries(Object.entries(allowed).map(([route, method]) => [prefix + route, method])));
  // A preflight is answered before authentication and rate limits: it carries no credentials and costs no point.
  const relay: Relay = {
    fetch: async (request, context) => {
      // Before the preflight, which matches the path as the router reads it.
      const unroutable = unroutableRequest(request) ?? unservedRequest(request);
      if (unroutable) return cors.decorate(request, unroutable);
      return cors.preflight(request) ?? cors.decorate(request, await app.fetch(withAddress(request, context)));
    },
  };
  // For toNodeHandler's answers to what node:http refuses: marked as the relay marks its own, under its base path only
  // (the server may serve other things beside it), and only where the refused bytes named the path.
  const refused: RefusedRequestCors = ({ target, origin }) => {
    const raw = target?.split('?')[0];
    // Decoded as the router and the preflight read it; a target that is not a path (`*`, absolute form) stays as it is.
    const path = raw?.startsWith('/') ? routedPath({ url: `http://relay${raw}` } as Request) : raw;
    return path !== undefined && (prefix === '' || path === prefix || path.startsWith(`${prefix}/`)) ? cors.headers(origin) : {};
  };
  Object.defineProperty(relay, REFUSED_REQUEST_CORS, { value: refused });
  return relay;
}

/** The upstream call of `POST /webview/ott`, as its answers name it. */
const WEBVIEW_TOKEN_CALL = 'POST /v1/server/webview/ott';

/**
 * What is wrong with the service's one-time token, or undefined: the fields the relay hands on (spec "Web view one-time
 * token": `ott` string, `expiresIn` integer). An empty `ott` opens no page either. Members the spec does not name pass.
 */
function tokenProblem(token: unknown): string | undefined {
  if (typeof token !== 'object' || token === null) return `data is ${token === null ? 'null' : typeof token}`;
  const { ott, expiresIn } = token as Record<string, unknown>;
  if (typeof ott !== 'string' || ott === '') return 'ott is not a non-empty string';
  if (!Number.isSafeInteger(expiresIn)) return 'expiresIn is not an integer';
  return undefined;
}

/** The relay's numeric options, each checked by {@link limit}. */
type NumericOption = 'maxBodyBytes' | 'bodyTimeoutMs' | 'authenticateTimeoutMs' | 'acceptSessionTimeoutMs' | 'maxSessionAgeMs' | 'coalesceWindowMs' | 'clockSkewMs' | 'storeTimeoutMs';

/**
 * The two options every relay needs, checked as it is made: without them each request failed later with nothing said
 * to the game server's developer (every answer 401 without `authenticate`, a TypeError or a 400 about `userId` with a
 * key in place of the server).
 */
function checkRequired(options: RelayOptions): RelayOptions {
  const { server, authenticate } = (options ?? {}) as Partial<RelayOptions>;
  if (!server || typeof server !== 'object' || !server.playtime || !server.webview || !server.sponsors) {
    const got = typeof server === 'string' ? 'a string (pass the client made with the key, not the key)' : String(server);
    throw new TypeError(`createRelay needs server: a CampaignServer, new CampaignServer({ serverKey, environment }); got ${got}`);
  }
  if (typeof authenticate !== 'function') {
    throw new TypeError(`createRelay needs authenticate: your own check of the player's request, (request) => ({ userId }) or null; got ${String(authenticate)}`);
  }
  const misnamed = misnamedOption(options, Object.keys(MISNAMED_TIME_OUTS));
  if (misnamed !== undefined) throw new TypeError(`createRelay: \`${misnamed}\` is not an option; ${MISNAMED_TIME_OUTS[misnamed]}`);
  return options;
}

/**
 * Time-outs under names the relay does not read, which TypeScript refuses but plain JavaScript (or `any`) passed on
 * unread, so the default applied in silence: the upstream call's time-out is the `CampaignServer`'s own option, and
 * each of the relay's ends in `Ms`. As `CampaignServer` refuses a misplaced `timeout` (core/server/campaign-server.ts).
 */
const MISNAMED_TIME_OUTS: Record<string, string> = {
  timeout: 'pass timeoutMs to new CampaignServer({ serverKey, timeoutMs }): the relay calls the service with it',
  timeoutMs: 'pass timeoutMs to new CampaignServer({ serverKey, timeoutMs }): the relay calls the service with it',
  authenticateTimeout: 'use `authenticateTimeoutMs`',
  acceptSessionTimeout: 'use `acceptSessionTimeoutMs`',
  bodyTimeout: 'use `bodyTimeoutMs`',
  storeTimeout: 'use `storeTimeoutMs`',
};

/**
 * A numeric option, or its default when not given. A value that is not a finite number of at least `min` throws: a
 * limit read from an unset environment variable (`Number(undefined)` is NaN) would otherwise switch its rule off.
 */
function limit(options: RelayOptions, name: NumericOption, fallback: number, min: number): number {
  const value: unknown = options[name] ?? fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min) throw new RangeError(`${name} must be a finite number >= ${min}, got ${String(value)}`);
  return value;
}

/** What {@link authenticatedUser} gives for an `authenticate` that did not settle in time. */
const TIMED_OUT = Symbol('authenticate timed out');

/**
 * The user `authenticate` vouches for, undefined when it returned nothing usable or threw, {@link TIMED_OUT}
 * when it did not settle within `timeoutMs` (left to settle on its own; its result is not used), or what it
 * returned as a userId that is not a string (a number from the game's database, say): the game's fault, not the
 * player's, so not a 401 (nor a failed login counted against the player's address).
 */
async function authenticatedUser(authenticate: RelayAuthenticate, request: Request, timeoutMs: number): Promise<string | undefined | typeof TIMED_OUT | { got: string }> {
  try {
    const result = await withDeadline<Awaited<ReturnType<RelayAuthenticate>> | typeof TIMED_OUT>(Promise.resolve().then(() => authenticate(request)), timeoutMs, () => TIMED_OUT);
    if (result === TIMED_OUT) return TIMED_OUT;
    const userId: unknown = result?.userId;
    if (userId != null && typeof userId !== 'string') return { got: typeof userId };
    return check(Id, userId).success ? (userId as string) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The key the client's address is limited under ({@link limitKeyOfAddress}: an IPv6 address's /64), or undefined when
 * the game's `clientAddress` has none or throws (then it is not limited).
 */
function addressOf(clientAddress: ClientAddress, request: Request): string | undefined {
  try {
    const address = clientAddress(request);
    return typeof address === 'string' && address !== '' ? limitKeyOfAddress(address) : undefined;
  } catch {
    return undefined;
  }
}

/** For a CORS preflight reaching a relay without `cors`: what to set, in the 405's message. */
function preflightHint(request: Request): string {
  const origin = request.headers.get('origin');
  if (request.method !== 'OPTIONS' || origin === null || !request.headers.has('access-control-request-method')) return '';
  return ` (a CORS preflight from ${origin}: allow it with createRelay({ cors: { origins: ['${origin}'] } }))`;
}

/** `/campaign`, `campaign/` and `/campaign/` all mount at `/campaign`; `''` and `/` at the root. */
function normalizeBasePath(basePath: string): string {
  const trimmed = basePath.replace(/^\/+|\/+$/g, '');
  return `/${trimmed}`;
}
