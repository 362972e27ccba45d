/**
 * The request code of {@link createXhrFetch} (./xhr-fetch.ts says why it is shaped so), imported by it on the
 * first request.
 */
import type { FetchLike } from '../../core/platform.js';
import type { RequestBlockedError } from '../shared/errors.js';
import { myRequestXhr } from './alipay-request.js';
import type { XhrConstructor, XhrFetchOptions, XhrLike, XhrTimeoutError } from './xhr-fetch.js';

/** Anything shaped like an `AbortSignal`: a real one, a polyfill's, or the SDK's own. */
interface SignalLike {
  readonly aborted: boolean;
  readonly reason?: unknown;
  addEventListener?(type: 'abort', listener: () => void): void;
  removeEventListener?(type: 'abort', listener: () => void): void;
}

/**
 * The fetch of {@link createXhrFetch}, ready to send (see there). The error classes are passed in, not imported:
 * a static import of a module the eager code uses too (./xhr-fetch.ts, ../shared/errors.ts) would make bundlers
 * split it into a chunk of its own.
 */
export function xhrFetch(Xhr: XhrConstructor, { timeoutMs }: XhrFetchOptions, TimeoutError: typeof XhrTimeoutError, BlockedError: typeof RequestBlockedError): FetchLike {
  const g = globalThis as Record<string, any>;
  const my = g['my'];
  // Alipay: Cocos's XMLHttpRequest there (cocos-engine platforms/minigame/platforms/alipay/wrapper/builtin.js `send`)
  // fires a bare `error` on every `my.request` fail, and my.request fails an answer that is not 2xx (error 19, "HTTP
  // 错误", with its status, headers and data): a 429 or 503 became a network error and its Retry-After was never read.
  // So where the XHR given is the global one (the wrapper sets it on `window`), the answer comes from `my.request`
  // itself. Not Taobao's mini-game build (`my.tb`: its wrapper sends with `my.tb.request`, whose answers differ).
  if (typeof my?.request == 'function' && !my.tb && (Xhr === g['XMLHttpRequest'] || Xhr === g['window']?.XMLHttpRequest)) Xhr = myRequestXhr(my);
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const request = typeof input === 'string' ? undefined : input;
      const url = request ? request.url : (input as string);
      const method = (init.method ?? request?.method ?? 'GET').toUpperCase();
      const body = init.body ?? null;
      const signal = (init.signal ?? undefined) as SignalLike | undefined;
      if (body !== null && typeof body !== 'string') return reject(new TypeError('xhr fetch: only string bodies are supported'));
      if (signal?.aborted) return reject(abortReason(signal));

      const xhr = new Xhr();
      let timer: ReturnType<typeof setTimeout> | undefined;
      // Settles once: every handler is detached first, so an `xhr.abort()` after it reports nothing more.
      const settle = (outcome: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener?.('abort', onAbort);
        xhr.onload = xhr.onerror = xhr.ontimeout = xhr.onabort = null;
        outcome();
      };
      const cancel = (error: unknown) => {
        settle(() => reject(error));
        xhr.abort();
      };
      const onAbort = () => cancel(abortReason(signal));
      const timedOut = () => new TimeoutError(`xhr fetch: no answer within ${timeoutMs ? `${timeoutMs} ms` : 'the runtime\'s request time-out'}: ${method} ${url}`);
      xhr.onload = () => settle(() => resolve(xhrResponse(xhr, url)));
      // WeChat's wrapper calls onerror with wx.request's errMsg (XMLHttpRequest.js:146), Baidu's and Taobao's with an object.
      xhr.onerror = (detail) => settle(() => reject(requestError(detail, method, url, BlockedError)));
      xhr.ontimeout = () => settle(() => reject(timedOut()));
      xhr.onabort = () => settle(() => reject(abortReason(signal)));
      xhr.open(method, url, true);
      // The wrapper hands it to wx.request, which then ends the request itself (and frees one of its 10 slots).
      if (timeoutMs) xhr.timeout = timeoutMs;
      const headers = lowercaseHeaders(init.headers ?? request?.headers);
      if (body !== null) headers['content-type'] ??= 'text/plain;charset=UTF-8';
      for (const name in headers) xhr.setRequestHeader(name, headers[name]!);
      signal?.addEventListener?.('abort', onAbort);
      if (timeoutMs) timer = setTimeout(() => cancel(timedOut()), timeoutMs);
      // No argument for no body: the wrapper's `send(data = '')` defaults only `undefined`, and would pass a `null` on.
      // A `send` that throws rejects with its error, leaving no timer or abort listener behind.
      try {
        if (body === null) xhr.send();
        else xhr.send(body);
      } catch (error) {
        settle(() => reject(error));
      }
    });
}

/** Header pairs from any `HeadersInit`, names lowercased (the WeChat wrapper matches names case-sensitively). */
function lowercaseHeaders(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  const add = (value: string, name: string) => (out[name.toLowerCase()] = String(value));
  if (Array.isArray(headers)) for (const [name, value] of headers) add(value!, name!);
  else if (typeof (headers as Headers)?.forEach === 'function') (headers as Headers).forEach(add);
  else for (const name in headers) add((headers as Record<string, string>)[name]!, name);
  return out;
}

/**
 * The rejection of a failed request: a {@link RequestBlockedError} when WeChat or Douyin refused the URL (not an HTTPS
 * host of the mini-game's request domain list: wx.request's errMsg "url not in domain list", Douyin's "url is not valid
 * domain"), else the `TypeError`
 * a `fetch` rejects with on a network error. An IP address or `localhost` cannot go on the list
 * (developers.weixin.qq.com/minigame/dev/guide/base-ability/network.html), so its message says what to do instead.
 */
function requestError(detail: unknown, method: string, url: string, BlockedError: typeof RequestBlockedError): Error {
  // Douyin's tt.request says "url is not valid domain" (its mini-game FAQ, developer.open-douyin.com/forum/mini-game/
  // post/630edb57fe9525047ac7f69a); its list takes HTTPS hosts, no IP address or localhost, as WeChat's (its network guide).
  // Baidu's wrapper passes `{ message: errMsg }` (cocos-engine platforms/minigame/platforms/baidu/wrapper/builtin/
  // XMLHttpRequest.js `onFail`), Taobao's mini-game one `my.tb.request`'s fail result (taobao-mini-game/.../
  // XMLHttpRequest.js `fail`; Alipay-style `errorMessage`), a browser an event with neither.
  // A getter that throws reads as no text (it threw inside the wrapper's callback, and the request never settled);
  // a huge text is cut at 500 characters (it goes into every message and log line).
  let text = '';
  try {
    text = typeof detail == 'string' ? detail : [(detail as any)?.message, (detail as any)?.errorMessage, (detail as any)?.errMsg].find((part) => typeof part == 'string') ?? '';
  } catch {}
  if (text.length > 500) text = `${text.slice(0, 500)}…`;
  const douyin = text.includes('url is not valid domain');
  // Alipay's my.request error 11, "无权跨域" (no right to reach that host): not on its server domain whitelist.
  const alipay = text.startsWith('my.request error 11:');
  if (douyin || alipay || text.includes('url not in domain list')) {
    const where = douyin
      ? 'the server domains in Douyin\'s developer console (developer.open-douyin.com: 开发管理 > 开发设置 > 服务器域名)'
      : alipay
        ? 'the server domain whitelist at open.alipay.com (小程序详情 > 设置 > 开发设置 > 服务器域名白名单), then build and upload again'
        : 'the request domains at mp.weixin.qq.com: Development > Development Management > Development Settings > Server Domain';
    return new BlockedError(
      `${douyin ? 'Douyin' : alipay ? 'Alipay' : 'WeChat'} refused ${method} ${url}: ${hostOf(url)} ${
        // WeChat's network guide: the list takes no IP address (but the mini-game's LAN one) and no localhost.
        /^[^:/?#]+:\/\/([^/?#@]*@)?(\[.*\]|[\d.]+|localhost)(:\d*)?([/?#]|$)/i.test(url)
          ? `is an IP address or localhost, which no request domain list holds: use a domain name over HTTPS, added to ${where} (local tests: the developer tool's ${
                // Alipay's my.request guide: its developer tool's 详情 > 域名信息 > 忽略 http 请求域名合法性检查.
                alipay ? '详情 > 域名信息 > 忽略 http 请求域名合法性检查, "ignore the request domain check"' : 'Details > Local Settings > 不校验合法域名, "do not verify valid domain names"'
              })`
          : `is not on this mini-game's request domain list. Add it (HTTPS only) to ${where}`
      } (${text})`,
    );
  }
  return new TypeError(`Network request failed: ${method} ${url}${text && ` (${text})`}`);
}

/** `https://host` of a URL, for the message (the URL itself when it does not parse). */
function hostOf(url: string): string {
  const match = /^([a-z][a-z0-9+.-]*:\/\/[^/?#]+)/i.exec(url);
  return match ? match[1]! : url;
}

function abortReason(signal: SignalLike | undefined): unknown {
  return signal?.reason !== undefined ? signal.reason : Object.assign(new Error('The request was aborted'), { name: 'AbortError' });
}

/** The answer as the subset of `Response` the SDK reads; response header names lowercased, repeats joined with `, `. */
function xhrResponse(xhr: XhrLike, url: string): Response {
  const headers = new Map<string, string>();
  for (const line of (xhr.getAllResponseHeaders() ?? '').split('\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value);
  }
  const text = xhr.responseText ?? '';
  return {
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
  } as unknown as Response;
}
