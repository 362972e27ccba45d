/**
 * The XHR fetch on Alipay: Cocos's XMLHttpRequest there (cocos-engine platforms/minigame/platforms/alipay/wrapper/
 * builtin.js, `XMLHttpRequest.send`, ported below with only what it does on an answer) over a fake `my.request` that
 * follows Alipay's documented behaviour (opendocs.alipay.com/mini/api/owycmh, its error table: 11 无权跨域, 12 网络出错,
 * 13 超时, 19 HTTP错误): an answer that is not 2xx goes to `fail` with `error: 19` and its `status`, `headers` and
 * `data` (as Alipay adapters read it: wendux/fly src/adapter/ap.js, an axios Alipay adapter treating error 19 as the answer).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createXhrFetch, XhrTimeoutError } from '../../../adapters/cocos/xhr-fetch.js';
import { RequestBlockedError } from '../../../adapters/shared/errors.js';

type Options = Record<string, any>;
type Answer = { status: number; headers?: Record<string, string>; data?: string } | { error: number; errorMessage: string };

/** `my.request`: the answer `respond` gives, as Alipay hands it to success (2xx) or fail (anything else). */
function fakeMy(respond: (options: Options) => Answer) {
  const requests: Options[] = [];
  const my = {
    requests,
    request(options: Options) {
      requests.push(options);
      const answer = respond(options);
      queueMicrotask(() => {
        if ('error' in answer) return options['fail']?.(answer);
        if (answer.status >= 200 && answer.status < 300) options['success']?.(answer);
        else options['fail']?.({ ...answer, error: 19, errorMessage: 'http status error' });
      });
      return { abort: () => undefined };
    },
  };
  return my;
}

/** Cocos's Alipay XMLHttpRequest (builtin.js `./src/XMLHttpRequest.js`), reduced to its request and answer paths. */
function cocosAlipayXhr(my: { request(options: Options): unknown }) {
  return class {
    onload: ((...args: unknown[]) => void) | null = null;
    onerror: ((...args: unknown[]) => void) | null = null;
    ontimeout: ((...args: unknown[]) => void) | null = null;
    onabort: ((...args: unknown[]) => void) | null = null;
    status = 0;
    responseText: string | null = null;
    timeout = 0;
    dataType = 'string';
    responseType = '';
    private method = '';
    private url = '';
    private header: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    private response: Record<string, string> = {};
    open(method: string, url: string) {
      this.method = method;
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.header[name] = value;
    }
    getAllResponseHeaders() {
      return Object.keys(this.response).map((name) => `${name}: ${this.response[name]}`).join('\n');
    }
    abort() {}
    // `_triggerEvent(type)` calls `this['on' + type].apply(this, event)` with an event object as the argument list:
    // the handler gets no argument.
    send(data = '') {
      my.request({
        data,
        url: this.url,
        method: this.method,
        headers: this.header,
        timeout: this.timeout,
        dataType: this.dataType,
        responseType: this.responseType,
        success: (res: { data: string; status: number; headers: Record<string, string> }) => {
          this.status = res.status;
          this.response = res.headers || {};
          this.responseText = res.data;
          this.onload?.();
        },
        fail: (res: { errorMessage?: string; data?: string }) => {
          if ((res.data || '').includes('超时') || (res.errorMessage ?? '').includes('超时')) this.ontimeout?.();
          this.onerror?.();
        },
      });
    }
  };
}

afterEach(() => vi.unstubAllGlobals());

function alipay(respond: (options: Options) => Answer) {
  const my = fakeMy(respond);
  const Xhr = cocosAlipayXhr(my);
  vi.stubGlobal('my', my);
  vi.stubGlobal('XMLHttpRequest', Xhr);
  return { my, fetch: createXhrFetch(Xhr as never) };
}

describe('the XHR fetch on Alipay (Cocos\'s XMLHttpRequest over my.request)', () => {
  it('answers a 429 or 503 with its status, Retry-After and body (was: a network TypeError, Retry-After never read)', async () => {
    const { fetch } = alipay((options): Answer =>
      options['url'].endsWith('/busy')
        ? { status: 429, headers: { 'Retry-After': '30', 'Content-Type': 'application/json' }, data: '{"error":{"code":"RATE_LIMITED","message":"slow down"}}' }
        : { status: 503, headers: {}, data: '' },
    );
    const busy = await fetch('https://relay.example/campaign/busy', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
    expect([busy.status, busy.ok, busy.headers.get('retry-after'), await busy.json()]).toEqual([429, false, '30', { error: { code: 'RATE_LIMITED', message: 'slow down' } }]);
    const down = await fetch('https://relay.example/campaign/down');
    expect([down.status, down.ok, await down.text()]).toEqual([503, false, '']);
  });

  it('sends the method, lowercase headers, body and time-out to my.request, asking for the raw text', async () => {
    const { my, fetch } = alipay(() => ({ status: 201, headers: { 'content-type': 'application/json' }, data: '{"accepted":1}' }));
    const response = await createXhrFetch(globalThis.XMLHttpRequest as never, { timeoutMs: 9_000 })('https://relay.example/campaign/playtime/sessions', {
      method: 'post',
      headers: { Authorization: 'Bearer t', 'Content-Type': 'application/json' },
      body: '{"sessions":[]}',
    });
    expect([response.status, await response.json()]).toEqual([201, { accepted: 1 }]);
    expect(my.requests[0]).toMatchObject({
      url: 'https://relay.example/campaign/playtime/sessions',
      method: 'POST',
      headers: { authorization: 'Bearer t', 'content-type': 'application/json' },
      data: '{"sessions":[]}',
      timeout: 9_000,
      dataType: 'text',
    });
    await fetch('https://relay.example/campaign/x');
    expect(my.requests[1]!['data']).toBeUndefined();
  });

  it('a host off the whitelist (error 11, 无权跨域) is a RequestBlockedError naming Alipay\'s console; 12 a network TypeError; 13 a time-out', async () => {
    const { fetch } = alipay((options) =>
      options['url'].includes('other') ? { error: 11, errorMessage: '无权跨域' } : options['url'].endsWith('/slow') ? { error: 13, errorMessage: '超时' } : { error: 12, errorMessage: '网络出错' },
    );
    const blocked = (await fetch('https://other.example/campaign/x', { method: 'POST', body: '{}' }).catch((error: unknown) => error)) as Error;
    expect(blocked).toBeInstanceOf(RequestBlockedError);
    expect(blocked.message).toContain('Alipay refused POST https://other.example/campaign/x: https://other.example is not on this mini-game\'s request domain list');
    expect(blocked.message).toContain('服务器域名白名单');
    const local = (await fetch('https://other.127.0.0.1.example/x').catch((error: unknown) => error)) as Error;
    expect(local.message).toContain('Add it (HTTPS only)');
    const ip = (await fetch('https://192.168.1.20/other').catch((error: unknown) => error)) as Error;
    expect(ip.message).toContain('忽略 http 请求域名合法性检查');
    expect(ip.message).not.toContain('不校验合法域名');
    await expect(fetch('https://relay.example/campaign/x')).rejects.toThrow(TypeError);
    await expect(fetch('https://relay.example/campaign/slow')).rejects.toBeInstanceOf(XhrTimeoutError);
  });

  it('the wrapper read from `window` (the object Cocos\'s Alipay adapter sets it on) is bypassed too', async () => {
    const { my } = alipay(() => ({ status: 503, data: '' }));
    const Wrapper = cocosAlipayXhr(my);
    vi.stubGlobal('XMLHttpRequest', undefined);
    vi.stubGlobal('window', { XMLHttpRequest: Wrapper });
    await expect(createXhrFetch(Wrapper as never)('https://relay.example/campaign/x')).resolves.toMatchObject({ status: 503 });
  });

  it('an XHR of the game\'s own (not the global one) is used as given', async () => {
    const { my } = alipay(() => ({ status: 200, data: 'ok' }));
    const Own = cocosAlipayXhr(my);
    await expect(createXhrFetch(Own as never)('https://relay.example/campaign/x')).resolves.toMatchObject({ status: 200 });
    expect(my.requests[0]!['dataType']).toBe('string');
  });
});
