/**
 * The single request path every API method and every game-client call to the relay goes through: URL and
 * headers, time-out, retries with backoff and `Retry-After`, typed errors, optional response validation and a
 * logger hook.
 */
import type { FetchLike } from '../platform.js';
import type { ErrorDetail } from '../schema/errors.js';
import type { ResponseName } from '../schema/responses.js';
import { apiRetryDelay, isTransientStatus, parseRetryAfter, sleep } from './backoff.js';
import { encoded, type Environment } from './environment.js';
import type { RelayHeaders } from '../relay/sender.js';
import { exchange, noAnswerError, parseJson, resolveHeaders } from './exchange.js';
import { gameHeaders } from './game-headers.js';
import { AbortError, CampaignError, ResponseValidationError, errorFromResponse } from './errors.js';
import { isRecord } from '../schema/rules.js';

/** One line for the logger hook. The API key is never part of it. */
export interface LogEntry {
  type: 'request' | 'response' | 'retry' | 'error';
  method: string;
  url: string;
  attempt: number;
  status?: number;
  delayMs?: number;
  error?: CampaignError;
}

/** Options shared by `CampaignClient` and `CampaignServer`. */
export interface TransportOptions {
  /**
   * `live`, `sandbox` or `{ baseUrl }`.
   * @defaultValue 'sandbox'
   */
  environment?: Environment;
  /** The fetch to use (tests pass the emulator's `fetch`). @defaultValue globalThis.fetch */
  fetch?: FetchLike;
  /** Per-attempt time-out in ms, above 0; `Infinity` sets none. @defaultValue 30000 */
  timeoutMs?: number;
  /** Retries after a retryable failure. @defaultValue 2 */
  maxRetries?: number;
  /**
   * Check every response against the spec's schemas. `CampaignServer` accepts `true`; in game clients
   * pass the validator itself (`validateResponses: validateResponse`), so that bundles that do not
   * validate carry no response schemas. assumed: `true` is refused there with a TypeError saying so,
   * because loading the schemas lazily would still put most of zod in every client bundle (bundlers
   * share modules, not parts of modules, between a lazy chunk and the entry).
   * @defaultValue false
   */
  validateResponses?: boolean | ResponseValidator;
  /** Called for each request, response, retry and error. An exception it throws is reported with `console.error`, never the call's. */
  logger?: (entry: LogEntry) => void;
  /** Source of jitter, for deterministic tests. @defaultValue Math.random */
  random?: () => number;
}

/** Returns the problems of a success body, or undefined when it matches the named schema. */
export type ResponseValidator = (body: unknown, name: ResponseName, shape: 'item' | 'list' | 'page') => ErrorDetail[] | undefined;

/**
 * Options of one call, the last optional argument of every `CampaignClient` and `CampaignServer` method.
 * On a paged list they apply to every page request.
 * @example
 * ```ts
 * const controller = new AbortController();
 * await server.payments.get('tx-1', { signal: controller.signal, timeout: 5_000, maxRetries: 0, headers: { 'x-request-id': id } });
 * ```
 */
export interface RequestOptions {
  /**
   * Cancels the request, and any wait before a retry: the call then rejects with an {@link AbortError}
   * (its `cause` is the signal's reason). Nothing is sent after the signal aborts.
   */
  signal?: AbortSignal;
  /** Per-attempt time-out in ms for this call, above 0; `Infinity` sets none. @defaultValue the client's `timeoutMs` */
  timeout?: number;
  /** Retries after a retryable failure, for this call. @defaultValue the client's `maxRetries` */
  maxRetries?: number;
  /**
   * Headers added to each request of this call (names in any case): an object, an array of `[name, value]` pairs or
   * a `Headers`, as fetch takes them. They never replace the SDK's own `authorization` (the key), `accept` and
   * `content-type`.
   */
  headers?: Record<string, string> | Iterable<readonly [string, string]>;
}

/**
 * When a method may be sent again. `safe`: after any transient failure (GETs, and writes the service
 * de-duplicates). `rate-limit`: only after a 429, which the service answers before processing.
 */
export type RetryPolicy = 'safe' | 'rate-limit';

export interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  /**
   * `body` already written as JSON text, sent as it is instead of `JSON.stringify(body)`: the relay serializes
   * its merged batches once, to measure them, and forwards that text.
   */
  json?: string;
  retry: RetryPolicy;
  /** The schema of `data`, and whether the body is one item, a list or a page. */
  response?: { name: ResponseName; shape: 'item' | 'list' | 'page' };
  /** A 400 BAD_REQUEST here may be the boost cooldown (`BoostCooldownError`): only a boost change. */
  cooldown?: boolean;
  /** The caller's per-call options. */
  options?: RequestOptions | undefined;
}

/**
 * Where a transport sends, and the headers it adds to every request: the service's base URL and its key as a
 * bearer token ({@link apiEndpoint}), or a game's relay and the game's own authentication.
 */
export interface Endpoint {
  /** Without a trailing slash: request paths start with one. */
  baseUrl: string;
  /** An object, or a function evaluated per request (the API key's `authorization`; a game's session token). */
  headers: RelayHeaders | undefined;
}

/** The single request path of one endpoint: `CampaignClient`'s and `CampaignServer`'s resources, and the relay calls. */
export interface Transport {
  readonly baseUrl: string;
  /** Sends one request (retrying as its policy allows) and returns the parsed body, or undefined for 204. */
  request<T>(spec: RequestSpec): Promise<T>;
  /** Sends the request and returns the response's `data` member. */
  data<T>(spec: RequestSpec): Promise<T>;
  /** A GET (retried after any transient failure) of `path`, returning the `data` of the named schema. */
  get<T>(path: string, name: ResponseName, shape: 'item' | 'list', options: RequestOptions | undefined, query?: RequestSpec['query']): Promise<T>;
}

/**
 * The {@link Transport} of `endpoint`. `options.environment` is not read here (the endpoint says where);
 * `validator` is what `validateResponses: true` means for this surface. Closures over local variables rather
 * than a class with private fields: a bundler shortens local names but keeps `this.` before every field.
 */
export function createTransport(endpoint: Endpoint, options: TransportOptions = {}, validator?: ResponseValidator): Transport {
  const { baseUrl } = endpoint;
  const wanted = options.validateResponses;
  if (wanted === true && !validator) {
    throw new TypeError('validateResponses: pass validateResponse, not true, in a game client');
  }
  const validate = typeof wanted === 'function' ? wanted : wanted ? validator : undefined;

  /**
   * The request URL. The query is percent-encoded by hand rather than with `URLSearchParams`, which WeChat
   * mini-games and Cocos native lack and React Native implements only in part (its `set` throws).
   */
  const urlOf = ({ path, query }: RequestSpec): string => {
    let url = baseUrl + path;
    for (const key in query) if (query[key] !== undefined) url += `${url.includes('?') ? '&' : '?'}${key}=${encoded(query[key]!, key)}`;
    return url;
  };

  /** One attempt: the response and its body's text, read within the time-out. */
  const send = async (spec: RequestSpec, url: string, timeout: number): Promise<{ response: Response; text: string }> => {
    const { signal, headers: extra } = spec.options ?? {};
    // The SDK's own headers set last replace a caller's (lower-cased) `Authorization`, not join it.
    const headers = Object.assign(gameHeaders(extra), await resolveHeaders(endpoint.headers), { accept: 'application/json' });
    // A header no request can carry (a name with a space, a value with a line break) is the caller's TypeError, thrown
    // here, not fetch's, which would read as a ConnectionError and be retried. Runtimes without Headers skip the check.
    if (typeof Headers == 'function') new Headers(headers);
    // Only writes carry a body (no GET has one; a DELETE only its write options): JSON.stringify(undefined) is undefined. A body
    // JSON cannot carry (a BigInt, a cycle) is the caller's TypeError, as a bad header is, not a ConnectionError.
    const body: string | undefined = spec.json ?? JSON.stringify(spec.body);
    if (body) headers['content-type'] = 'application/json';
    try {
      const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
      // A connection lost mid-body is a ConnectionError like any other.
      return await exchange(fetch, url, { method: spec.method, headers, body }, timeout, signal);
    } catch (cause) {
      throw noAnswerError(cause);
    }
  };

  /**
   * The body of a success. A method that expects no body (delete) takes whatever comes, 204 or 200; one that
   * expects `data` gets it or a `ResponseValidationError` (a 204 or a body without `data` included), checked
   * against its schema when `validateResponses` is on. Even when off, `data` is an object for one item and a list
   * for a list or a page (every resource of the spec is an object): a `null` or a list where the game's code reads a
   * campaign would throw a TypeError of its own, far from the read.
   */
  const success = (response: Response, body: unknown, spec: RequestSpec): unknown => {
    const expected = spec.response;
    // A 204's body is undefined (no text).
    if (!expected) return body;
    // A body that is no JSON object (text, a list, null) has no `data`, so it fails too.
    const envelope = (expected.shape == 'item' ? isRecord : Array.isArray)((body as { data?: unknown } | undefined)?.data);
    const details = envelope ? validate?.(body, expected.name, expected.shape) : undefined;
    if (!envelope || details) {
      // No envelope: a 204, an empty body, or one that is not a JSON object with a `data` member of the shape asked for.
      const message = envelope ? `The response does not match the ${expected.name} schema` : `The ${response.status} response has no ${expected.name} data`;
      throw new ResponseValidationError({ status: response.status, code: 'INVALID_RESPONSE', message, details, headers: response.headers });
    }
    return body;
  };

  const request = async <T>(spec: RequestSpec): Promise<T> => {
    const url = urlOf(spec);
    const { signal, maxRetries = options.maxRetries ?? 2, timeout = options.timeoutMs ?? 30_000 } = spec.options ?? {};
    // 0, a negative number or NaN would time every attempt out at once, with a message that blames the service.
    if (!(timeout > 0)) throw new RangeError(`timeout must be above 0 ms (Infinity: none), not ${timeout}`);
    // Declared outside the loop: a closure over a loop's own binding makes Babel (React Native) wrap the whole
    // loop body in a function.
    let attempt = 0;
    // A logger that throws must not change the call's outcome: after a redeem's answer, a rejection would read as a
    // failure, and a caller who tried again would redeem twice.
    const log = (type: LogEntry['type'], more?: Partial<LogEntry>) => {
      try {
        options.logger?.({ type, method: spec.method, url, attempt, ...more });
      } catch (error) {
        console.error(error);
      }
    };
    for (; ; attempt++) {
      if (signal?.aborted) throw new AbortError(signal);
      log('request');
      let error: CampaignError;
      let retryAfterMs: number | undefined;
      try {
        const { response, text } = await send(spec, url, timeout);
        const body = parseJson(text);
        log('response', { status: response.status });
        if (response.ok) return success(response, body, spec) as T;
        retryAfterMs = parseRetryAfter(response.headers, Date.now());
        error = errorFromResponse(response.status, body, response.headers, retryAfterMs, spec.cooldown);
      } catch (caught) {
        if (signal?.aborted) throw new AbortError(signal);
        if (!(caught instanceof CampaignError)) throw caught;
        error = caught;
      }
      // A ResponseValidationError (2xx) is retried by neither policy; API_RETRY's timing, where a Retry-After
      // longer than it waits goes to the caller.
      const retryable = spec.retry === 'safe' ? isTransientStatus(error.status) : error.status === 429;
      const delayMs = attempt < maxRetries && retryable ? apiRetryDelay(retryAfterMs, attempt, options.random) : undefined;
      if (delayMs === undefined) {
        log('error', { error, status: error.status });
        throw error;
      }
      log('retry', { delayMs, status: error.status });
      await sleep(delayMs, signal).catch(() => {
        throw new AbortError(signal!);
      });
    }
  };

  const data = <T>(spec: RequestSpec) => request<{ data: T }>(spec).then((body) => body.data);
  return {
    baseUrl,
    request,
    data,
    get: (path, name, shape, options, query) => data({ method: 'GET', path, query, retry: 'safe', response: { name, shape }, options }),
  };
}
