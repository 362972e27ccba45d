/**
 * A `fetch` over `XMLHttpRequest`, for runtimes that have XHR only: WeChat mini-games, where Cocos's adapter
 * wraps `wx.request` in an XHR. That wrapper's quirks shape this file: its default content type is
 * form-urlencoded (so a body always goes with an explicit `content-type`), it matches header names
 * case-sensitively (so every name is sent lowercase), and it keeps one listener per event (so only the
 * `on*` properties are used, once each). There is no `AbortController` there: a time-out is our own timer
 * and any object shaped like an `AbortSignal` aborts the request.
 */
import type { FetchLike } from '../../core/platform.js';

/** The part of `XMLHttpRequest` this fetch uses. */
export interface XhrLike {
  open(method: string, url: string, async?: boolean): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  send(body?: string | null): void;
  abort(): void;
  readonly status: number;
  readonly statusText?: string;
  readonly responseText: string;
  onload: ((event?: unknown) => void) | null;
  onerror: ((event?: unknown) => void) | null;
  ontimeout: ((event?: unknown) => void) | null;
  onabort: ((event?: unknown) => void) | null;
}

/** An `XMLHttpRequest` constructor. */
export type XhrConstructor = new () => XhrLike;

/** Options of {@link createXhrFetch}. */
export interface XhrFetchOptions {
  /** Rejects a request with no complete answer after this many ms (0: never). @defaultValue 0 */
  timeoutMs?: number;
}

/** The rejection of an XHR fetch that got no answer within `timeoutMs`. */
export class XhrTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/** Anything shaped like an `AbortSignal`: a real one, a polyfill's, or the SDK's own. */
interface SignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener?(type: 'abort', listener: () => void): void;
  removeEventListener?(type: 'abort', listener: () => void): void;
}

/**
 * Creates a `fetch` over `Xhr`. The response has what the SDK reads (`ok`, `status`, `statusText`, `url`,
 * `headers.get/has/forEach`, `text()`, `json()`); it is not a full `Response` (WeChat has no `Response`).
 * A string body without a `content-type` is sent as `text/plain;charset=UTF-8`, as `fetch` would.
 * @throws (as a rejection) `TypeError` on a network error, {@link XhrTimeoutError} on a time-out, the signal's
 * reason (or an `AbortError`) when aborted
 * @example
 * ```ts
 * const fetch = createXhrFetch(XMLHttpRequest, { timeoutMs: 30_000 });
 * const response = await fetch('https://game.example/campaign/playtime/sessions', { method: 'POST', body });
 * ```
 */
export function createXhrFetch(Xhr: XhrConstructor, options: XhrFetchOptions = {}): FetchLike {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const request = typeof input === 'string' ? undefined : input;
      const url = request ? request.url : (input as string);
      const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
      const body = init.body ?? null;
      if (body !== null && typeof body !== 'string') return reject(new TypeError('xhr fetch: only string bodies are supported'));
      const signal = (init.signal ?? undefined) as SignalLike | undefined;
      if (signal?.aborted) return reject(abortReason(signal));

      const xhr = new Xhr();
      let timer: ReturnType<typeof setTimeout> | undefined;
      const onAbort = () => {
        finish();
        xhr.abort();
        reject(abortReason(signal));
      };
      const finish = () => {
        clearTimeout(timer);
        signal?.removeEventListener?.('abort', onAbort);
        xhr.onload = xhr.onerror = xhr.ontimeout = xhr.onabort = null;
      };
      xhr.onload = () => {
        finish();
        resolve(xhrResponse(xhr, url));
      };
      xhr.onerror = () => {
        finish();
        reject(new TypeError(`Network request failed: ${method} ${url}`));
      };
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => {
        finish();
        reject(abortReason(signal));
      };
      xhr.open(method, url, true);
      const headers = lowercaseHeaders(init.headers ?? request?.headers);
      if (body !== null && !('content-type' in headers)) headers['content-type'] = 'text/plain;charset=UTF-8';
      for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
      signal?.addEventListener?.('abort', onAbort);
      if (options.timeoutMs) {
        timer = setTimeout(() => {
          finish();
          xhr.abort();
          reject(new XhrTimeoutError(`xhr fetch: no answer within ${options.timeoutMs} ms: ${method} ${url}`));
        }, options.timeoutMs);
      }
      xhr.send(body);
    });
}

/** Header pairs from any `HeadersInit`, names lowercased (the WeChat wrapper matches names case-sensitively). */
export function lowercaseHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (name: string, value: string) => (out[name.toLowerCase()] = String(value));
  if (!headers) return out;
  if (Array.isArray(headers)) for (const [name, value] of headers) add(name!, value!);
  else if (typeof (headers as Headers).forEach === 'function') (headers as Headers).forEach((value, name) => add(name, value));
  else for (const [name, value] of Object.entries(headers)) add(name, value);
  return out;
}

function abortReason(signal: SignalLike | undefined): unknown {
  if (signal?.reason !== undefined) return signal.reason;
  const error = new Error('The request was aborted');
  error.name = 'AbortError';
  return error;
}

/** The answer as the subset of `Response` the SDK reads. */
function xhrResponse(xhr: XhrLike, url: string): Response {
  const headers = parseHeaders(xhr.getAllResponseHeaders());
  const text = xhr.responseText ?? '';
  const response = {
    ok: xhr.status >= 200 && xhr.status < 300,
    status: xhr.status,
    statusText: xhr.statusText ?? '',
    url,
    headers: {
      get: (name: string) => headers.get(name.toLowerCase()) ?? null,
      has: (name: string) => headers.has(name.toLowerCase()),
      forEach: (fn: (value: string, name: string) => void) => headers.forEach(fn),
    },
    text: async () => text,
    json: async () => JSON.parse(text) as unknown,
  };
  return response as unknown as Response;
}

/** `getAllResponseHeaders()` text as a map of lowercase names; repeated names are joined with `, `. */
function parseHeaders(raw: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of (raw ?? '').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  return headers;
}
