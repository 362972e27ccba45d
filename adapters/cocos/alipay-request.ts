/**
 * Alipay's request for the XHR fetch (./xhr-request.ts), in the same lazily imported chunk: Cocos's Alipay
 * XMLHttpRequest (cocos-engine platforms/minigame/platforms/alipay/wrapper/builtin.js `send`) reports every failed
 * `my.request` as a bare error, and `my.request` fails every answer that is not 2xx, so the SDK calls it itself.
 */
import type { XhrConstructor, XhrLike } from './xhr-fetch.js';

/**
 * An {@link XhrLike} over Alipay's `my.request` (opendocs.alipay.com/mini/api/owycmh): `dataType: 'text'` for the raw
 * body; its fail with `error` 19 (an answer that is not 2xx) is that answer, 13 a time-out, any other a network error
 * (its detail `my.request error N: message`, which xhr-request.ts `requestError` reads: 11 is a host not on the server domain
 * whitelist, "无权跨域").
 */
export function myRequestXhr(my: { request(options: Record<string, unknown>): { abort?(): void } | undefined }): XhrConstructor {
  return class {
    status = 0;
    responseText = '';
    timeout?: number;
    onload: XhrLike['onload'] = null;
    onerror: XhrLike['onerror'] = null;
    ontimeout: XhrLike['ontimeout'] = null;
    onabort: XhrLike['onabort'] = null;
    declare m: string;
    declare u: string;
    h: Record<string, string> = {};
    r: Record<string, unknown> = {};
    t?: { abort?(): void };
    open(method: string, url: string) {
      this.m = method;
      this.u = url;
    }
    setRequestHeader(name: string, value: string) {
      this.h[name] = value;
    }
    getAllResponseHeaders() {
      return Object.keys(this.r).map((name) => `${name}: ${this.r[name]}`).join('\n');
    }
    abort() {
      this.t?.abort?.();
    }
    send(data?: string) {
      type Answer = { status?: number; headers?: Record<string, unknown>; data?: unknown; error?: number; errorMessage?: string };
      const answer = (res: Answer) => {
        this.status = res.status ?? 0;
        this.r = res.headers ?? {};
        this.responseText = typeof res.data == 'string' ? res.data : res.data == null ? '' : JSON.stringify(res.data);
        this.onload?.();
      };
      this.t = my.request({
        url: this.u,
        method: this.m,
        headers: this.h,
        data,
        timeout: this.timeout,
        dataType: 'text',
        success: answer,
        fail: (res: Answer = {}) =>
          res.error == 19 && res.status ? answer(res) : res.error == 13 ? this.ontimeout?.() : this.onerror?.(`my.request error ${res.error}: ${res.errorMessage ?? ''}`),
      });
    }
  };
}
