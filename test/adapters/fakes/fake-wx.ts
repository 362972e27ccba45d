/**
 * A fake WeChat mini-game `wx` and the `XMLHttpRequest` Cocos's mini-game adapter builds over `wx.request`.
 * The XHR follows cocos/cocos-engine v3.8.5 `platforms/minigame/platforms/wechat/wrapper/builtin/XMLHttpRequest.js`
 * line by line (cited as `XHR.js:<line>` below; its base class is `.../builtin/EventTarget.js`); `wx` follows
 * wechat-miniprogram/minigame-api-typings and the WeChat mini-game docs
 * (developers.weixin.qq.com/minigame/dev/api/network/request/wx.request.html, .../guide/base-ability/network.html):
 * - storage: `wx.setStorageSync` may throw (1 MB per key here), `wx.getStorageSync` of a missing key is `''`,
 *   `wx.getStorageInfoSync().keys` lists keys; values are stored as given.
 * - network: `wx.getNetworkType({ success })` answers asynchronously; `wx.onNetworkStatusChange(cb)` gets
 *   `{ isConnected, networkType }` (`{ networkType }` only with `networkTypeOnly`: an old Douyin); `wx.offNetworkStatusChange(cb)` removes that listener (base library 2.9.3+).
 * - crypto: `wx.getUserCryptoManager().getRandomValues({ length, success })`, asynchronous, `randomValues`
 *   an ArrayBuffer. No `crypto` global, no `fetch`, no `AbortController`, no `Response`.
 * - `wx.request`: with the wrapper's `dataType: 'other'` and `responseType: 'text'` the answer is the raw text;
 *   `timeout` (else game.json's `networkTimeout.request`, 60 s by default) ends it with errMsg
 *   "request:fail timeout"; a URL that is not HTTPS on a host of the request domain list fails with
 *   "request:fail url not in domain list" (when the fake is given `domains`; assumed: the errMsg as WeChat
 *   reports it in the field); offline it fails with "request:fail ..."; `task.abort()` fails it with
 *   "request:fail abort".
 */
import { randomBytes } from 'node:crypto';
import type { XhrLike } from '../../../adapters/cocos/xhr-fetch.js';

type Listener = (...args: any[]) => void;

/** The wrapper's class: an XHR plus its `addEventListener` (which sets the `on*` property) and EventTarget's remove. */
export type FakeXhrClass = new () => XhrLike & { timeout: number; readyState: number; addEventListener(type: string, listener: Listener): void; removeEventListener(type: string, listener: Listener): void };

/** The options `wx.request` was called with, as given (`data` included when it was `null` or absent). */
export interface WxRequest {
  url: string;
  method: string;
  header: Record<string, string>;
  data: unknown;
  /** Whether the options carried a `data` key at all. */
  hasData: boolean;
  dataType: string | undefined;
  responseType: string | undefined;
  timeout: number | undefined;
}

type NetworkListener = (result: { isConnected: boolean; networkType: string }) => void;

export interface FakeWx {
  wx: {
    getStorageSync(key: string): any;
    setStorageSync(key: string, data: any): void;
    removeStorageSync(key: string): void;
    getStorageInfoSync(): { keys: string[]; currentSize: number; limitSize: number };
    getNetworkType(options: { success?(result: { networkType: string }): void }): void;
    onNetworkStatusChange(listener: NetworkListener): void;
    offNetworkStatusChange(listener?: NetworkListener): void;
    getUserCryptoManager(): { getRandomValues(options: { length: number; success?(result: { randomValues: ArrayBuffer }): void; fail?(error: { errMsg: string }): void }): void };
    request(options: WxRequestOptions): { abort(): void };
  };
  XMLHttpRequest: FakeXhrClass;
  /** Every `wx.request`, as the service side would see it. */
  readonly requests: WxRequest[];
  /** The `wx.onNetworkStatusChange` listeners now attached. */
  readonly networkListeners: NetworkListener[];
  /** Goes on/offline: listeners hear it; offline, `wx.request` fails with `request:fail`. */
  setOnline(online: boolean): void;
}

interface WxRequestOptions {
  url: string;
  method?: string;
  data?: unknown;
  header?: Record<string, string>;
  dataType?: string;
  responseType?: string;
  timeout?: number;
  success?(result: { statusCode: number; data: unknown; header: Record<string, string> }): void;
  fail?(error: { errMsg: string; errno?: number }): void;
}

export interface FakeWxOptions {
  /** The game's request domain list (hosts); when given, any other host, or any non-HTTPS URL, is refused. */
  domains?: string[];
  /**
   * The errMsg of a refused URL. @defaultValue WeChat's `'request:fail url not in domain list'`; Douyin's `tt.request`
   * says "url is not valid domain" (its mini-game FAQ, developer.open-douyin.com/forum/mini-game/post/630edb57fe9525047ac7f69a).
   */
  blockedErrMsg?: string;
  /** game.json `networkTimeout.request`: a request's time-out when it passes none. @defaultValue 60_000 */
  requestTimeoutMs?: number;
  /**
   * An old Douyin runtime: `onNetworkStatusChange` listeners get `{ networkType }` only, no `isConnected` (Douyin's
   * mini-game docs as copied on 2020-02-14, www.w3cschool.cn/microgame/microgame-vu1e36lm.html: the callback's
   * `res` is `{ networkType: "none" | "wifi" | "2g" | "3g" | "4g" | "unknown" }`; today's
   * developer.open-douyin.com/docs/resource/zh-CN/mini-game/develop/api/device/network/tt-on-network-status-change
   * lists `isConnected` too, "since 1.0.0").
   */
  networkTypeOnly?: boolean;
  /**
   * Fail results carry `errno` beside `errMsg`, as newer base libraries give every fail callback of an API that has
   * one (developers.weixin.qq.com/minigame/dev/guide/runtime/debug/PublicErrno.html): 600002 for a URL off the request
   * domain list (`{ errno: 600002, errMsg: 'request:fail url not in domain list' }` as developers report it);
   * assumed: 600001 for any other failure (the SDK reads neither: Cocos's wrapper hands `onerror` the errMsg only).
   */
  errno?: boolean;
}

const MAX_KEY_BYTES = 1024 * 1024;

/** A fake `wx` over `table` (one device), answering `wx.request` with `handler`. */
export function createFakeWx(table: Map<string, unknown>, handler: (request: Request) => Promise<Response>, fakeOptions: FakeWxOptions = {}): FakeWx {
  let online = true;
  const networkListeners: NetworkListener[] = [];
  const requests: WxRequest[] = [];

  function request(options: WxRequestOptions) {
    let settled = false;
    const method = (options.method ?? 'GET').toUpperCase();
    const header = { ...options.header };
    requests.push({ url: options.url, method, header, data: options.data, hasData: 'data' in options, dataType: options.dataType, responseType: options.responseType, timeout: options.timeout });
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      outcome();
    };
    const fail = (errMsg: string) => finish(() => options.fail?.(fakeOptions.errno ? { errMsg, errno: errMsg.includes('domain list') ? 600002 : 600001 } : { errMsg }));
    const timer = setTimeout(() => fail('request:fail timeout'), options.timeout ?? fakeOptions.requestTimeoutMs ?? 60_000);
    void (async () => {
      await Promise.resolve();
      if (settled) return;
      const url = new URL(options.url);
      if (fakeOptions.domains && (url.protocol !== 'https:' || !fakeOptions.domains.includes(url.host))) return fail(fakeOptions.blockedErrMsg ?? 'request:fail url not in domain list');
      if (!online) return fail('request:fail net::ERR_INTERNET_DISCONNECTED');
      // wx.request joins duplicate header names into one request: two content types make the value ambiguous.
      const contentTypes = Object.keys(header).filter((name) => name.toLowerCase() === 'content-type');
      const headers = new Headers(Object.entries(header).filter(([name]) => !contentTypes.includes(name) || name === contentTypes[0]));
      if (contentTypes.length > 1) headers.set('content-type', contentTypes.map((name) => header[name]).join(', '));
      try {
        const body = method === 'GET' || method === 'HEAD' ? {} : { body: options.data == null ? '' : String(options.data) };
        const response = await handler(new Request(options.url, { method, headers, ...body }));
        const text = await response.text();
        // dataType 'other' + responseType 'text' (XHR.js:98-99): the raw text, never parsed.
        finish(() => options.success?.({ statusCode: response.status, data: text, header: Object.fromEntries(response.headers) }));
      } catch (error) {
        fail(`request:fail ${String(error)}`);
      }
    })();
    return { abort: () => fail('request:fail abort') };
  }

  // `_triggerEvent` (XHR.js:9-13): calls the `on<type>` property with the arguments given, nothing else.
  function trigger(xhr: object, type: string, ...args: unknown[]) {
    const own = (xhr as Record<string, unknown>)[`on${type}`];
    if (typeof own === 'function') own.apply(xhr, args);
  }

  class WxXMLHttpRequest {
    static UNSEND = 0; // sic (XHR.js:22)
    static OPENED = 1;
    static HEADERS_RECEIVED = 2;
    static LOADING = 3;
    static DONE = 4;
    timeout = 0;
    onabort: Listener | null = null;
    onerror: Listener | null = null;
    onload: Listener | null = null;
    onloadstart: Listener | null = null;
    onprogress: Listener | null = null;
    ontimeout: Listener | null = null;
    onloadend: Listener | null = null;
    onreadystatechange: Listener | null = null;
    readyState = 0;
    response: unknown = null;
    responseText = null as unknown as string; // XHR.js:43: null until an answer
    responseType = '';
    status = 0;
    statusText = ''; // XHR.js:47, never set afterwards
    // XHR.js:54-56: the default content type, in a per-instance header object.
    private requestHeader: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    private responseHeader: Record<string, string> = {};
    private url = '';
    private method = '';
    private task: { abort(): void } | undefined;
    /** EventTarget.js's listener lists: filled by nobody here, since the XHR's own addEventListener replaces it. */
    private events: Record<string, Listener[]> = {};

    abort() {
      this.task?.abort(); // XHR.js:60-66
    }
    getAllResponseHeaders() {
      return Object.keys(this.responseHeader).map((header) => `${header}: ${this.responseHeader[header]}`).join('\n'); // XHR.js:68-74
    }
    getResponseHeader(header: string) {
      return this.responseHeader[header]; // XHR.js:76-78: case-sensitive, undefined when missing
    }
    open(method: string, url: string) {
      this.method = method; // XHR.js:80-84: async, user and password are not supported
      this.url = url;
      this.changeReadyState(WxXMLHttpRequest.OPENED);
    }
    send(data: unknown = '') {
      // XHR.js:89-154: only `undefined` takes the default ''; a `null` goes to wx.request as it is.
      if (this.readyState !== WxXMLHttpRequest.OPENED) throw new Error("Failed to execute 'send' on 'XMLHttpRequest': The object's state must be OPENED.");
      this.task = request({
        data,
        url: this.url,
        method: this.method,
        header: this.requestHeader,
        dataType: 'other',
        responseType: this.responseType === 'arraybuffer' ? 'arraybuffer' : 'text',
        timeout: this.timeout || undefined,
        success: ({ data: body, statusCode, header }) => {
          this.status = statusCode;
          this.responseHeader = header;
          trigger(this, 'loadstart');
          this.changeReadyState(WxXMLHttpRequest.HEADERS_RECEIVED);
          this.changeReadyState(WxXMLHttpRequest.LOADING);
          // XHR.js:108-134, for the '' / 'text' / 'json' response types this fake's text answers serve.
          if (this.responseType === 'json') {
            this.responseText = body as string;
            try {
              this.response = JSON.parse(body as string);
            } catch {
              this.response = null;
            }
          } else if (this.responseType === '' || this.responseType === 'text') {
            this.responseText = this.response = body as string;
          } else {
            this.response = null;
          }
          this.changeReadyState(WxXMLHttpRequest.DONE);
          trigger(this, 'load');
          trigger(this, 'loadend');
        },
        fail: ({ errMsg }) => {
          // XHR.js:139-149: abort, then timeout, else error with the errMsg as its argument; readyState unchanged.
          if (errMsg.indexOf('abort') !== -1) trigger(this, 'abort');
          else if (errMsg.indexOf('timeout') !== -1) trigger(this, 'timeout');
          else trigger(this, 'error', errMsg);
          trigger(this, 'loadend');
        },
      });
    }
    setRequestHeader(header: string, value: string) {
      this.requestHeader[header] = value; // XHR.js:156-161: case-sensitive, as given
    }
    addEventListener(type: string, listener: Listener) {
      // XHR.js:163-171: replaces the on<type> property, so one listener per type.
      if (typeof listener === 'function') this[`on${type}` as 'onload'] = (event: unknown) => listener.call(this, event);
    }
    removeEventListener(type: string, listener: Listener) {
      // EventTarget.js:31-46: only its own lists, never the on<type> property the XHR's addEventListener set.
      const listeners = this.events[type];
      const index = listeners ? listeners.indexOf(listener) : -1;
      if (index !== -1) listeners!.splice(index, 1);
    }
    private changeReadyState(readyState: number) {
      this.readyState = readyState; // XHR.js:15-18
      trigger(this, 'readystatechange');
    }
  }

  return {
    requests,
    networkListeners,
    XMLHttpRequest: WxXMLHttpRequest as unknown as FakeXhrClass,
    setOnline(next) {
      if (next === online) return;
      online = next;
      const networkType = next ? 'wifi' : 'none';
      for (const listener of [...networkListeners]) listener(fakeOptions.networkTypeOnly ? ({ networkType } as Parameters<NetworkListener>[0]) : { isConnected: next, networkType });
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
      offNetworkStatusChange(listener) {
        // The typings make the listener optional; assumed: without one every listener goes.
        if (!listener) networkListeners.length = 0;
        else if (networkListeners.includes(listener)) networkListeners.splice(networkListeners.indexOf(listener), 1);
      },
      getUserCryptoManager: () => ({
        getRandomValues({ length, success }) {
          void Promise.resolve().then(() => success?.({ randomValues: new Uint8Array(randomBytes(length)).buffer }));
        },
      }),
      request,
    },
  };
}
