/**
 * A `fetch` over `XMLHttpRequest` (its request code is in ./xhr-request.ts), for runtimes that have XHR only: WeChat mini-games, where Cocos's adapter
 * wraps `wx.request` in an XHR. That wrapper's quirks shape this file: its default content type is
 * form-urlencoded (so a body always goes with an explicit `content-type`), it matches header names
 * case-sensitively (so every name is sent lowercase), and it keeps one listener per event (so only the
 * `on*` properties are used, once each; its `addEventListener` sets them too). There is no `AbortController`
 * there: a time-out is our own timer (also given to the wrapper as `xhr.timeout`, which `wx.request` honours) and
 * any object shaped like an `AbortSignal` aborts the request. A GET sends no body at all (`send()`), and
 * "url not in domain list" becomes a `RequestBlockedError`.
 */
import type { FetchLike } from '../../core/platform.js';
import { RequestBlockedError } from '../shared/errors.js';
import type { xhrFetch } from './xhr-request.js';

/** The part of `XMLHttpRequest` this fetch uses. */
export interface XhrLike {
  open(method: string, url: string, async?: boolean): void;
  setRequestHeader(name: string, value: string): void;
  getAllResponseHeaders(): string;
  send(body?: string): void;
  abort(): void;
  /** ms; WeChat's wrapper passes it to `wx.request` as its `timeout`. */
  timeout?: number;
  readonly status: number;
  readonly statusText?: string;
  readonly responseText: string;
  onload: ((event?: unknown) => void) | null;
  /** WeChat's wrapper calls it with `wx.request`'s errMsg (a string), a browser with an event. */
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

/** The rejection of an XHR fetch that got no answer within `timeoutMs` (or the runtime's own request time-out). */
export class XhrTimeoutError extends Error {
  override readonly name = 'TimeoutError';
}

/**
 * Creates a `fetch` over `Xhr`. The response has what the SDK reads (`ok`, `status`, `statusText`, `url`,
 * `headers.get/has/forEach`, `text()`, `json()`); it is not a full `Response` (WeChat has no `Response`).
 * A string body without a `content-type` is sent as `text/plain;charset=UTF-8`, as `fetch` would. The request
 * code is imported on the first request: only mini-game builds use it, so no other build loads it. On Alipay, where `Xhr`
 * is the global `XMLHttpRequest` (Cocos's wrapper, which reports an answer that is not 2xx as a network error), it sends
 * with `my.request` itself.
 * @throws TypeError when `Xhr` is not a constructor (a runtime without XHR); as a rejection: `TypeError` on a network error, `RequestBlockedError` when WeChat, Douyin or Alipay refuses a host
 * that is not on the mini-game's request domain list, {@link XhrTimeoutError} on a time-out (ours or the
 * runtime's), the signal's reason (or an `AbortError`) when aborted
 * @example
 * ```ts
 * const fetch = createXhrFetch(XMLHttpRequest, { timeoutMs: 30_000 });
 * const response = await fetch('https://game.example/campaign/playtime/sessions', { method: 'POST', body });
 * ```
 */
export function createXhrFetch(Xhr: XhrConstructor, options: XhrFetchOptions = {}): FetchLike {
  if (typeof Xhr !== 'function') throw new TypeError('no XMLHttpRequest: pass options.XMLHttpRequest or options.fetch');
  let ready: Promise<ReturnType<typeof xhrFetch>> | undefined;
  return async (input, init) => (await (ready ??= import('./xhr-request.js').then((module) => module.xhrFetch(Xhr, options, XhrTimeoutError, RequestBlockedError))))(input, init);
}
