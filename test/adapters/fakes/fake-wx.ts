/**
 * A fake WeChat mini-game `wx` and the `XMLHttpRequest` Cocos's mini-game adapter builds over `wx.request`,
 * following wechat-miniprogram/minigame-api-typings and the weapp-adapter `XMLHttpRequest.js` Cocos ships:
 * - storage: `wx.setStorageSync` may throw (1 MB per key here), `wx.getStorageSync` of a missing key is `''`,
 *   `wx.getStorageInfoSync().keys` lists keys; values are stored as given.
 * - network: `wx.getNetworkType({ success })` answers asynchronously; `wx.onNetworkStatusChange(cb)` gets
 *   `{ isConnected, networkType }`.
 * - crypto: `wx.getUserCryptoManager().getRandomValues({ length, success })`, asynchronous, `randomValues`
 *   an ArrayBuffer. No `crypto` global, no `fetch`, no `AbortController`, no `Response`.
 * - XHR wrapper: request headers start as `{ 'content-type': 'application/x-www-form-urlencoded' }` and
 *   `setRequestHeader` stores names as given (case-sensitive: `Content-Type` would be a second header);
 *   `wx.request` parses a JSON answer, which the wrapper stringifies back into `responseText`; one listener
 *   per event type (`addEventListener` replaces); `timeout` is ignored; `abort()` aborts the request task.
 */
import { randomBytes } from 'node:crypto';
import type { XhrLike } from '../../../adapters/cocos/xhr-fetch.js';

/** The wrapper's class: an XHR plus its one-listener-per-type `addEventListener`. */
export type FakeXhrClass = new () => XhrLike & { addEventListener(type: string, listener: (event?: unknown) => void): void; removeEventListener(type: string, listener: (event?: unknown) => void): void };

/** What the in-process server sees of a `wx.request`. */
export interface WxRequest {
  url: string;
  method: string;
  header: Record<string, string>;
  data: string;
}

export interface FakeWx {
  wx: {
    getStorageSync(key: string): any;
    setStorageSync(key: string, data: any): void;
    removeStorageSync(key: string): void;
    getStorageInfoSync(): { keys: string[]; currentSize: number; limitSize: number };
    getNetworkType(options: { success?(result: { networkType: string }): void }): void;
    onNetworkStatusChange(listener: (result: { isConnected: boolean; networkType: string }) => void): void;
    getUserCryptoManager(): { getRandomValues(options: { length: number; success?(result: { randomValues: ArrayBuffer }): void; fail?(error: { errMsg: string }): void }): void };
  };
  XMLHttpRequest: FakeXhrClass;
  /** Every `wx.request`, as the service side would see it. */
  readonly requests: WxRequest[];
  /** Goes on/offline: listeners hear it; offline, `wx.request` fails with `request:fail`. */
  setOnline(online: boolean): void;
}

const MAX_KEY_BYTES = 1024 * 1024;

/** A fake `wx` over `table` (one device), answering `wx.request` with `handler`. */
export function createFakeWx(table: Map<string, unknown>, handler: (request: Request) => Promise<Response>): FakeWx {
  let online = true;
  const networkListeners: Array<(result: { isConnected: boolean; networkType: string }) => void> = [];
  const requests: WxRequest[] = [];

  function request(options: { url: string; method?: string; data?: string; header?: Record<string, string>; success?(r: { statusCode: number; data: unknown; header: Record<string, string> }): void; fail?(e: { errMsg: string }): void }) {
    let aborted = false;
    const method = (options.method ?? 'GET').toUpperCase();
    const header = { ...options.header };
    requests.push({ url: options.url, method, header, data: options.data ?? '' });
    void (async () => {
      await Promise.resolve();
      if (aborted) return;
      if (!online) return options.fail?.({ errMsg: 'request:fail net::ERR_INTERNET_DISCONNECTED' });
      // wx.request joins duplicate header names into one request: two content types make the value ambiguous.
      const contentTypes = Object.keys(header).filter((name) => name.toLowerCase() === 'content-type');
      const headers = new Headers(Object.entries(header).filter(([name]) => !contentTypes.includes(name) || name === contentTypes[0]));
      if (contentTypes.length > 1) headers.set('content-type', contentTypes.map((name) => header[name]).join(', '));
      try {
        const response = await handler(new Request(options.url, { method, headers, ...(method === 'GET' || method === 'HEAD' ? {} : { body: options.data ?? '' }) }));
        const text = await response.text();
        if (aborted) return;
        let data: unknown = text;
        try {
          data = JSON.parse(text); // dataType 'json' is the default
        } catch {
          // not JSON: the text itself
        }
        options.success?.({ statusCode: response.status, data, header: Object.fromEntries(response.headers) });
      } catch (error) {
        if (!aborted) options.fail?.({ errMsg: `request:fail ${String(error)}` });
      }
    })();
    return {
      abort() {
        aborted = true;
        options.fail?.({ errMsg: 'request:fail abort' });
      },
    };
  }

  class WxXMLHttpRequest {
    static UNSENT = 0;
    static DONE = 4;
    readyState = 0;
    status = 0;
    statusText = '';
    responseText = '';
    timeout = 0; // ignored by the wrapper
    onload: ((event?: unknown) => void) | null = null;
    onerror: ((event?: unknown) => void) | null = null;
    ontimeout: ((event?: unknown) => void) | null = null;
    onabort: ((event?: unknown) => void) | null = null;
    private url = '';
    private method = 'GET';
    private requestHeader: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    private responseHeader: Record<string, string> = {};
    private listeners: Record<string, (event?: unknown) => void> = {};
    private task: { abort(): void } | undefined;

    addEventListener(type: string, listener: (event?: unknown) => void) {
      this.listeners[type] = listener; // one per type: a second replaces the first
    }
    removeEventListener(type: string, listener: (event?: unknown) => void) {
      if (this.listeners[type] === listener) delete this.listeners[type];
    }
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
      this.readyState = 1;
    }
    setRequestHeader(name: string, value: string) {
      this.requestHeader[name] = value; // case-sensitive, as given
    }
    getAllResponseHeaders() {
      return Object.keys(this.responseHeader).map((name) => `${name}: ${this.responseHeader[name]}`).join('\n');
    }
    getResponseHeader(name: string) {
      return this.responseHeader[name] ?? null;
    }
    send(data = '') {
      this.task = request({
        url: this.url,
        method: this.method,
        data,
        header: this.requestHeader,
        success: ({ statusCode, data: body, header }) => {
          this.status = statusCode;
          this.responseHeader = header;
          this.responseText = typeof body === 'string' ? body : JSON.stringify(body);
          this.readyState = 4;
          this.trigger('load');
        },
        fail: ({ errMsg }) => {
          this.readyState = 4;
          this.trigger(errMsg.includes('abort') ? 'abort' : 'error', errMsg);
        },
      });
    }
    abort() {
      this.task?.abort();
    }
    private trigger(type: string, detail?: unknown) {
      const own = (this as unknown as Record<string, unknown>)[`on${type}`];
      if (typeof own === 'function') own.call(this, { type, detail });
      this.listeners[type]?.call(this, { type, detail });
    }
  }

  return {
    requests,
    XMLHttpRequest: WxXMLHttpRequest,
    setOnline(next) {
      if (next === online) return;
      online = next;
      for (const listener of [...networkListeners]) listener({ isConnected: next, networkType: next ? 'wifi' : 'none' });
    },
    wx: {
      getStorageSync: (key) => (table.has(key) ? table.get(key) : ''),
      setStorageSync(key, data) {
        if (JSON.stringify(data).length > MAX_KEY_BYTES) throw new Error('setStorageSync:fail exceed max size 1MB');
        table.set(key, data);
      },
      removeStorageSync: (key) => void table.delete(key),
      getStorageInfoSync: () => ({ keys: [...table.keys()], currentSize: 0, limitSize: 10240 }),
      getNetworkType({ success }) {
        void Promise.resolve().then(() => success?.({ networkType: online ? 'wifi' : 'none' }));
      },
      onNetworkStatusChange: (listener) => void networkListeners.push(listener),
      getUserCryptoManager: () => ({
        getRandomValues({ length, success }) {
          void Promise.resolve().then(() => success?.({ randomValues: new Uint8Array(randomBytes(length)).buffer }));
        },
      }),
    },
  };
}
