import { apiEndpoint } from '../http/environment.js';
import { createTransport, type RequestOptions, type RequestSpec, type Transport, type TransportOptions } from '../http/transport.js';
import { invalid } from '../http/request-validation.js';
import { MAX_PATH_USER_CHARS } from '../relay/user-path.js';
import { validateResponse } from '../schema/responses.js';
import { ServerCampaigns } from './campaigns.js';
import { Coupons } from './coupons.js';
import { Payments } from './payments.js';
import { Playtime } from './playtime.js';
import { detectClientRuntime } from './runtime.js';
import { Sponsors } from './sponsors.js';
import { Webhooks } from './webhooks.js';
import { Webview } from './webview.js';
import { acceptOtherCopies } from './other-copies.js';
import { serverFetch } from './server-fetch.js';
import { envValueProblem } from '../env-value.js';
import { misnamedOption, ownFields } from '../own-options.js';

// Where the server entries are loaded, errors of the package's other build (CJS beside ESM) pass `instanceof` too.
acceptOtherCopies();

/** Options of {@link CampaignServer}. */
export interface CampaignServerOptions extends TransportOptions {
  /** The Server key, `<SERVER_KEY_ID>:<SERVER_SECRET>`. Keep it on your server. */
  serverKey: string;
  /**
   * Allow construction in a browser, Cocos or React Native runtime. Only for tools that never ship to
   * players (an admin page on an intranet): a Server key in a game client can be read by anyone.
   * @defaultValue false
   */
  dangerouslyAllowBrowser?: boolean;
  /**
   * Largest response body read, in bytes: a longer one fails as a `ConnectionError` (retried where a dropped
   * connection is) instead of filling the process's memory. assumed: 32 MiB, far above any answer of the spec.
   * It also bounds what a body's JSON may hold: one value per 16 bytes of it (at least 10,000); a denser body fails
   * the same way before it is parsed (its parse would take many times its size in memory).
   * @defaultValue 33554432
   */
  maxResponseBytes?: number;
}

/**
 * The Server API (read/write, Server key), for the game's own server.
 * @example
 * ```ts
 * const server = new CampaignServer({ serverKey: process.env.CAMPAIGN_SERVER_KEY!, environment: 'sandbox' });
 * await server.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' });
 * ```
 * @see spec "Server API"
 */
export class CampaignServer {
  readonly playtime: Playtime;
  readonly payments: Payments;
  readonly coupons: Coupons;
  readonly sponsors: Sponsors;
  readonly webview: Webview;
  readonly webhooks: Webhooks;
  readonly campaigns: ServerCampaigns;
  /** The base address requests go to, e.g. for deriving the web view address of the same environment. */
  readonly baseUrl: string;

  /**
   * @throws TypeError when the key is not `<key_id>:<secret>`, `environment.baseUrl` holds `user:password@`, a top-level `baseUrl` or `timeout` is given (they are `environment: { baseUrl }` and `timeoutMs`), `maxResponseBytes` is not a whole number >= 1, `fetch` is not a function, or when a game-client runtime is detected
   * without `dangerouslyAllowBrowser`.
   * @throws RangeError when `maxRetries` is not a whole number >= 0 (or Infinity), or `timeoutMs` not a number above 0
   */
  constructor(options: CampaignServerOptions) {
    options = ownOptions(options) as CampaignServerOptions;
    const runtime = detectClientRuntime();
    // `new CampaignServer()` from JavaScript: the key's own message, not "Cannot read properties of undefined".
    if (runtime && !options?.dangerouslyAllowBrowser) {
      throw new TypeError(
        `CampaignServer holds a Server key and must not run in a game client (${runtime} detected). ` +
          'Call the Server API from your game server, and let clients reach it through createRelay().',
      );
    }
    checkNumbers(options);
    checkKeyText(options?.serverKey);
    misplaced(options, { baseUrl: 'environment: { baseUrl }', timeout: 'timeoutMs' }, 'new CampaignServer');
    // Redirects are not followed and bodies are capped (server-fetch.ts): the key's requests go nowhere else.
    const fetch = serverFetch(options?.fetch, options?.maxResponseBytes);
    // Own fields only (ownFields): the transport reads `maxRetries`, `timeoutMs`, `logger`... off this object, and a
    // literal would inherit them from a polluted `Object.prototype` (`options` has none, but `{ ...options }` does).
    const transport = checkedCalls(createTransport(apiEndpoint(options?.serverKey, 'Server', options), ownFields({ ...options, fetch } as CampaignServerOptions), validateResponse));
    this.baseUrl = transport.baseUrl;
    this.playtime = new Playtime(transport);
    this.payments = new Payments(transport);
    this.coupons = new Coupons(transport);
    this.sponsors = new Sponsors(transport);
    this.webview = new Webview(transport);
    this.webhooks = new Webhooks(transport);
    this.campaigns = new ServerCampaigns(transport);
  }
}

/**
 * The constructor's options as their own fields, in objects without a prototype, an `environment` object too: every
 * option is read from here, and `apiEndpoint` (shared with game clients, which carry no such copy) reads `baseUrl` and
 * `environment`. Before, with `Object.prototype.environment = { baseUrl: 'https://evil.example' }` or
 * `Object.prototype.baseUrl = { baseUrl: ... }` (a deep merge of untrusted JSON in another package), a game server that
 * named no environment sent every request, its Server key in the Authorization header, to that host; a polluted
 * `timeoutMs` or `maxResponseBytes` stopped it from starting. `undefined` and `null` stay as given (their own errors).
 */
function ownOptions(options: CampaignServerOptions | undefined): CampaignServerOptions | undefined {
  if (options == null || typeof options !== 'object') return options;
  const own = ownFields(options);
  const environment: unknown = own.environment;
  if (typeof environment === 'object' && environment !== null) {
    own.environment = ownFields(environment as { baseUrl: string });
    refuseCredentials(own.environment.baseUrl);
  }
  return own;
}

/**
 * A base address with `user:password@` is refused, its text not repeated: fetch refuses such a URL (Fetch standard,
 * Request constructor: "If parsedURL includes credentials, then throw a TypeError"), so every call was retried and
 * failed as a ConnectionError whose message, logged or passed on, held the password. Read with `URL`, as fetch reads it.
 */
function refuseCredentials(baseUrl: unknown): void {
  let url: URL | undefined;
  try {
    url = typeof baseUrl === 'string' ? new URL(baseUrl) : undefined;
  } catch {
    // Not a URL: baseUrlOf's own error.
  }
  if (url && (url.username || url.password)) {
    throw new TypeError(`environment.baseUrl ${url.protocol}//…@${url.host} holds credentials (user:password@), which fetch refuses: leave them out (a proxy's credentials go in a header your own \`fetch\` option adds)`);
  }
}

/**
 * `maxRetries` and `timeoutMs`, checked once here rather than at every call (server code: game clients carry no such
 * check). A number read from an unset environment variable (`Number(undefined)`, NaN) turned retries off in silence
 * (`attempt < NaN` is false) and failed every call with a RangeError only once it was made; a negative or fractional
 * count of retries meant none or one more than written. Absent (`undefined` or `null`): the default.
 */
function checkNumbers(options: CampaignServerOptions | undefined): void {
  const { maxRetries, timeoutMs } = (options ?? {}) as { maxRetries?: unknown; timeoutMs?: unknown };
  checkMaxRetries(maxRetries);
  if (timeoutMs != null && !(typeof timeoutMs === 'number' && timeoutMs > 0)) {
    throw new RangeError(`timeoutMs must be a number of ms above 0 (Infinity: none), got ${String(timeoutMs)}`);
  }
}

/**
 * A Server key as an env file may leave it: with a trailing line break (refused by the key's form, with a message that
 * did not say why) or wrapped in quotes (accepted, and every call answered 401). A TypeError saying which, the key not in it.
 */
function checkKeyText(serverKey: unknown): void {
  const problem = typeof serverKey === 'string' ? envValueProblem(serverKey) : undefined;
  if (problem) throw new TypeError(`Server key ${problem}; it must have the form <key_id>:<secret>`);
}

/**
 * An option where a developer guesses it goes, which TypeScript refuses but plain JavaScript (or `any`) passed on
 * unread: a top-level `baseUrl` sent every request to the sandbox, a constructor's `timeout` or a call's `timeoutMs`
 * (each the other's name) kept the default time-out. A TypeError naming where it goes.
 */
function misplaced(options: object | undefined, names: Record<string, string>, where: string): void {
  const name = misnamedOption(options, Object.keys(names));
  if (name !== undefined) throw new TypeError(`${where}: \`${name}\` is not an option here; use \`${names[name]}\``);
}

/** A `maxRetries` (the client's or one call's): a whole number >= 0 or Infinity; `undefined` or `null` is the default. */
function checkMaxRetries(maxRetries: unknown): void {
  if (maxRetries != null && !(maxRetries === Infinity || (Number.isSafeInteger(maxRetries) && (maxRetries as number) >= 0))) {
    throw new RangeError(`maxRetries must be a whole number >= 0 (Infinity: no limit), got ${String(maxRetries)}`);
  }
}

/**
 * The longest path `CampaignServer` sends, percent-encoded: the relay's longest player id in a path
 * ({@link MAX_PATH_USER_CHARS}) with room for the longest fixed part (`/v1/server/sponsors/user/`), so that every path the
 * relay lets through is sent. assumed: the request line then still fits nginx's default 8 KiB buffer.
 */
export const MAX_PATH_CHARS = MAX_PATH_USER_CHARS + 100;

/**
 * `transport` with each call checked before anything is sent:
 * - its own `maxRetries`, as the constructor checks the client's: `{ maxRetries: NaN }` on one call (a number read from
 *   an unset environment variable) turned its retries off in silence, `-1` meant none and `1.5` two;
 * - a `timeoutMs` (the constructor's name) where a call takes `timeout`: it was ignored;
 * - its path's length: a path parameter of tens of thousands of characters (a `transactionId` a player crafted, passed
 *   on by the game) made a request line servers refuse with 431 or 414 while it was still being sent, which read as a
 *   `ConnectionError` ("other side closed") and was retried; now a `ValidationError` naming `(path)`.
 * Its query is passed on as its own fields only: the transport lists a query with `for...in`, which also lists what a
 * polluted `Object.prototype` holds (`Object.prototype.isTest = true` went out as `?page=1&isTest=true`).
 * Checked here, not in the transport, which game clients carry (the per-call `timeout` is checked there already).
 */
function checkedCalls(transport: Transport): Transport {
  const check = (path: string, options: RequestOptions | undefined): RequestOptions | undefined => {
    checkMaxRetries((options as { maxRetries?: unknown } | undefined)?.maxRetries);
    misplaced(options, { timeoutMs: 'timeout' }, 'a call\'s options');
    if (path.length > MAX_PATH_CHARS) {
      invalid([{ path: '(path)', message: `is ${path.length} characters percent-encoded, over ${MAX_PATH_CHARS}: a path parameter is too long for servers to take` }]);
    }
    // Own fields only: the transport reads `headers`, `timeout`, `maxRetries` off them (`spec.options ?? {}`), and an
    // object literal inherits what a polluted `Object.prototype` holds (`headers` went out on every request).
    return ownFields(withoutNulls(options) ?? {});
  };
  return {
    baseUrl: transport.baseUrl,
    request: async (spec) => transport.request({ ...spec, query: ownQuery(spec.query), options: check(spec.path, spec.options) }),
    data: async (spec) => transport.data({ ...spec, query: ownQuery(spec.query), options: check(spec.path, spec.options) }),
    get: async (path, name, shape, options, query) => transport.get(path, name, shape, check(path, options), ownQuery(query)),
  };
}

/** `query`'s own fields in an object without a prototype, which `for...in` lists alone. */
function ownQuery(query: RequestSpec['query']): RequestSpec['query'] {
  return query && ownFields(query);
}


/**
 * A call's `timeout` and `maxRetries` given as `null` (a wrapper passing `config.timeout ?? null`) are the client's, as
 * `null` is the default for the constructor's `timeoutMs` and `maxRetries`. The transport (which game clients carry)
 * defaults only `undefined`: `{ timeout: null }` was a RangeError and `{ maxRetries: null }` turned retries off
 * (`attempt < null` is false).
 */
function withoutNulls(options: RequestOptions | undefined): RequestOptions | undefined {
  const loose = options as { timeout?: unknown; maxRetries?: unknown } | undefined;
  if (loose?.timeout !== null && loose?.maxRetries !== null) return options;
  const copy = { ...options } as Record<string, unknown>;
  if (copy['timeout'] === null) delete copy['timeout'];
  if (copy['maxRetries'] === null) delete copy['maxRetries'];
  return copy as RequestOptions;
}
