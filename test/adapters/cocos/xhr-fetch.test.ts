/**
 * The XHR-backed fetch on its own, over the fake WeChat XHR wrapper (test/adapters/fakes/fake-wx.ts):
 * status, headers, body, time-out and abort with no AbortController in the runtime.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createXhrFetch as createLazyXhrFetch, XhrTimeoutError, type XhrConstructor, type XhrFetchOptions } from '../../../adapters/cocos/xhr-fetch.js';
// The request code itself (createXhrFetch imports it on the first request), so fake timers see its timers at once.
import { xhrFetch } from '../../../adapters/cocos/xhr-request.js';
import { AbortControllerStandIn } from '../../../adapters/shared/abort-controller.js';
import { RequestBlockedError } from '../../../adapters/shared/errors.js';
import { createFakeWx } from '../fakes/fake-wx.js';

/** The request code as createXhrFetch calls it (it passes the error classes in). */
const createXhrFetch = (Xhr: XhrConstructor, options: XhrFetchOptions = {}) => xhrFetch(Xhr, options, XhrTimeoutError, RequestBlockedError);

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup(handler: (request: Request) => Promise<Response>, fakeOptions?: Parameters<typeof createFakeWx>[2]) {
  const fake = createFakeWx(new Map(), handler, fakeOptions);
  return { fake, fetch: createXhrFetch(fake.XMLHttpRequest, { timeoutMs: 5_000 }) };
}

describe('createXhrFetch', () => {
  it('loads its request code on the first request, then sends as the request code does', async () => {
    const fake = createFakeWx(new Map(), async () => new Response('{"data":1}', { status: 201 }));
    const fetch = createLazyXhrFetch(fake.XMLHttpRequest);
    const [first, second] = await Promise.all([fetch('https://x.example/a', { method: 'POST', body: '{}' }), fetch('https://x.example/b')]);
    expect([first.status, await first.json(), second.status]).toEqual([201, { data: 1 }, 201]);
    expect(fake.requests.map((r) => [r.method, r.url, r.header['content-type']])).toEqual([
      ['POST', 'https://x.example/a', 'text/plain;charset=UTF-8'],
      ['GET', 'https://x.example/b', 'application/x-www-form-urlencoded'],
    ]);
  });

  it('sends the method, body and lowercase headers, with the JSON content type the wrapper would otherwise replace', async () => {
    const { fake, fetch } = setup(async () => new Response('{"data":1}', { status: 201, headers: { 'content-type': 'application/json', 'Retry-After': '7' } }));
    const response = await fetch('https://relay.example/campaign/playtime/sessions', { method: 'post', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer t' }, body: '{"sessions":[]}' });
    expect(fake.requests).toEqual([
      {
        url: 'https://relay.example/campaign/playtime/sessions',
        method: 'POST',
        header: { 'content-type': 'application/json', authorization: 'Bearer t' },
        data: '{"sessions":[]}',
        hasData: true,
        // The wrapper's own (XMLHttpRequest.js:98-100), with our time-out handed on.
        dataType: 'other',
        responseType: 'text',
        timeout: 5_000,
      },
    ]);
    expect([response.status, response.ok, response.headers.get('Retry-After'), response.headers.has('content-type')]).toEqual([201, true, '7', true]);
    expect(await response.json()).toEqual({ data: 1 });
  });

  it('gives a string body without a content type text/plain, never the wrapper\'s form-urlencoded default', async () => {
    const { fake, fetch } = setup(async () => new Response('ok'));
    await fetch('https://x.example/a', { method: 'PUT', body: 'hello' });
    expect(fake.requests[0]!.header).toEqual({ 'content-type': 'text/plain;charset=UTF-8' });
  });

  it('takes a Headers object and [name, value] pairs; refuses a non-string body', async () => {
    const { fake, fetch } = setup(async () => new Response('ok'));
    await fetch('https://x.example/a', { headers: new Headers({ 'X-One': '1' }) });
    await fetch('https://x.example/b', { headers: [['X-Two', '2']] });
    expect(fake.requests.map((r) => r.header)).toEqual([
      { 'content-type': 'application/x-www-form-urlencoded', 'x-one': '1' },
      { 'content-type': 'application/x-www-form-urlencoded', 'x-two': '2' },
    ]);
    await expect(fetch('https://x.example/c', { method: 'POST', body: new Uint8Array(1) })).rejects.toThrow(TypeError);
  });

  it('resolves error statuses with their body and rejects a network failure with a TypeError', async () => {
    const { fake, fetch } = setup(async () => new Response('{"code":"NOT_FOUND"}', { status: 404 }));
    const missing = await fetch('https://x.example/missing');
    expect([missing.status, missing.ok, await missing.text()]).toEqual([404, false, '{"code":"NOT_FOUND"}']);
    fake.setOnline(false);
    await expect(fetch('https://x.example/missing')).rejects.toThrow(TypeError);
  });

  it('answers the raw text the wrapper gets (dataType \'other\'), JSON or not, with an empty statusText', async () => {
    const { fetch } = setup(async () => new Response('{ "a" : [1, 2] }', { status: 200, statusText: 'Fine' }));
    const response = await fetch('https://x.example/json');
    expect([await response.text(), response.statusText]).toEqual(['{ "a" : [1, 2] }', '']);
  });

  it('sends a GET with no data: send() without an argument, so the wrapper passes its default \'\', never null', async () => {
    const { fake, fetch } = setup(async () => new Response('ok'));
    await fetch('https://x.example/a');
    await fetch('https://x.example/b', { method: 'DELETE', body: null });
    expect(fake.requests.map((r) => [r.method, r.data])).toEqual([
      ['GET', ''],
      ['DELETE', ''],
    ]);
  });

  it('rejects a URL WeChat refuses ("url not in domain list") with a RequestBlockedError naming the host to add', async () => {
    const { fake, fetch } = setup(async () => new Response('ok'), { domains: ['relay.example'] });
    expect((await fetch('https://relay.example/campaign/x')).status).toBe(200);
    const blocked = fetch('https://other.example/campaign/x', { method: 'POST', body: '{}' });
    await expect(blocked).rejects.toBeInstanceOf(RequestBlockedError);
    await expect(blocked).rejects.toMatchObject({ name: 'RequestBlockedError', code: 'REQUEST_BLOCKED', message: expect.stringContaining('https://other.example is not on this mini-game\'s request domain list') });
    await expect(fetch('http://relay.example/campaign/x')).rejects.toMatchObject({ code: 'REQUEST_BLOCKED' }); // HTTPS only
    fake.setOnline(false);
    await expect(fetch('https://relay.example/campaign/x')).rejects.toBeInstanceOf(TypeError); // offline is no block
  });

  it('rejects a URL Douyin refuses ("url is not valid domain", its tt.request errMsg) with a RequestBlockedError naming the host and Douyin\'s console', async () => {
    const { fetch } = setup(async () => new Response('ok'), { domains: ['relay.example'], blockedErrMsg: 'request:fail url is not valid domain' });
    const error = (await fetch('https://other.example/campaign/x', { method: 'POST', body: '{}' }).catch((e: unknown) => e)) as Error;
    // Before: a TypeError "Network request failed", retried with backoff as if the network were down, never named.
    expect(error).toBeInstanceOf(RequestBlockedError);
    expect(error.message).toContain('Douyin refused POST https://other.example/campaign/x: https://other.example is not on this mini-game\'s request domain list');
    expect(error.message).toContain('developer.open-douyin.com');
    expect(error.message).not.toContain('mp.weixin.qq.com');
  });

  /**
   * WeChat's network guide (developers.weixin.qq.com/minigame/dev/guide/base-ability/network.html, "配置流程"):
   * "域名不能使用 IP 地址（小程序的局域网 IP 除外）或 localhost", so adding such a host is no way out.
   */
  it.each(['https://127.0.0.1:8787', 'http://localhost:8787', 'https://LOCALHOST', 'https://192.168.1.20', 'https://[::1]:8787', 'https://user@10.0.0.2'])(
    'for a relay at %s (an IP address or localhost, which the list cannot hold) says to use a domain name, or the developer tool\'s setting for local tests',
    async (origin) => {
      const { fetch } = setup(async () => new Response('ok'), { domains: ['relay.example'] });
      const error = (await fetch(`${origin}/campaign/playtime/sessions`, { method: 'POST', body: '{}' }).catch((e: unknown) => e)) as Error;
      expect(error).toBeInstanceOf(RequestBlockedError);
      // Before: "... is not on this mini-game's request domain list. Add it (HTTPS only) ...", which WeChat refuses.
      expect(error.message).toContain('an IP address or localhost');
      expect(error.message).toContain('a domain name over HTTPS');
      expect(error.message).toContain('不校验合法域名');
      expect(error.message).not.toContain('Add it');
    },
  );

  it.each(['https://localhost.example', 'https://127.0.0.1.nip.io', 'https://10.example'])('for a relay at %s (a domain name) still says to add it', async (origin) => {
    const { fetch } = setup(async () => new Response('ok'), { domains: ['relay.example'] });
    const error = (await fetch(`${origin}/campaign/x`).catch((e: unknown) => e)) as Error;
    expect(error.message).toContain(`${origin} is not on this mini-game's request domain list. Add it (HTTPS only)`);
  });

  /**
   * The failure of a request as Cocos 3.8's Baidu and Taobao mini-game wrappers report it: Baidu's `onFail({ errMsg })`
   * calls `onerror` with `{ message: errMsg, target }` (cocos-engine platforms/minigame/platforms/baidu/wrapper/builtin/
   * XMLHttpRequest.js `_triggerEvent.call(this, 'error', { message: errMsg })`), Taobao's mini-game wrapper with
   * `my.tb.request`'s fail result itself (taobao-mini-game/wrapper/builtin/XMLHttpRequest.js `_triggerEvent.call(this,
   * 'error', res)`; assumed: Alipay's shape, `{ error, errorMessage }`).
   */
  const failingXhr = (detail: unknown) =>
    class {
      status = 0;
      responseText = '';
      onload: (() => void) | null = null;
      onerror: ((event?: unknown) => void) | null = null;
      ontimeout: (() => void) | null = null;
      onabort: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      getAllResponseHeaders() {
        return '';
      }
      abort() {}
      send() {
        queueMicrotask(() => this.onerror?.(detail));
      }
    } as unknown as XhrConstructor;

  it.each([
    ['Baidu', { message: 'request:fail net::ERR_NAME_NOT_RESOLVED' }, 'request:fail net::ERR_NAME_NOT_RESOLVED'],
    ['Taobao', { error: 12, errorMessage: '网络出错' }, '网络出错'],
    ['an errMsg object', { errMsg: 'request:fail ssl hand shake error' }, 'request:fail ssl hand shake error'],
  ])('a request failing on %s keeps the wrapper\'s error text in the TypeError', async (_name, detail, text) => {
    const fetch = createXhrFetch(failingXhr({ ...detail, target: {} }));
    const error = (await fetch('https://relay.example/campaign/x', { method: 'POST', body: '{}' }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TypeError);
    // Before: "Network request failed: POST https://relay.example/campaign/x", the wrapper's reason dropped.
    expect(error.message).toBe(`Network request failed: POST https://relay.example/campaign/x (${text})`);
  });

  it('a browser-style error event (no text) still gives the bare TypeError; an object\'s "url not in domain list" is a block', async () => {
    const bare = (await createXhrFetch(failingXhr({ type: 'error' }))('https://relay.example/x').catch((e: unknown) => e)) as Error;
    expect(bare.message).toBe('Network request failed: GET https://relay.example/x');
    const blocked = createXhrFetch(failingXhr({ message: 'request:fail url not in domain list' }))('https://relay.example/x');
    await expect(blocked).rejects.toBeInstanceOf(RequestBlockedError);
  });

  it('a wrapper error whose text getter throws still rejects the request (before: the promise never settled)', async () => {
    const hostile = { get message(): string { throw new Error('getter'); }, errMsg: 'request:fail timeout' };
    const error = (await createXhrFetch(failingXhr(hostile))('https://relay.example/x').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toBe('Network request failed: GET https://relay.example/x');
  });

  it('a huge or non-string wrapper error text is cut to 500 characters or skipped', async () => {
    const huge = (await createXhrFetch(failingXhr({ message: 'x'.repeat(1_000_000) }))('https://relay.example/x').catch((e: unknown) => e)) as Error;
    expect(huge.message).toBe(`Network request failed: GET https://relay.example/x (${'x'.repeat(500)}…)`);
    const odd = (await createXhrFetch(failingXhr({ message: 42, errorMessage: { a: 1 }, errMsg: 'request:fail' }))('https://relay.example/x').catch((e: unknown) => e)) as Error;
    expect(odd.message).toBe('Network request failed: GET https://relay.example/x (request:fail)');
  });

  it('rejects with XhrTimeoutError when wx.request itself times out (errMsg "timeout" fires ontimeout)', async () => {
    vi.useFakeTimers();
    const { fake } = setup(() => new Promise(() => undefined), { requestTimeoutMs: 60_000 });
    const pending = createXhrFetch(fake.XMLHttpRequest)('https://x.example/slow'); // no time-out of ours
    const outcome = expect(pending).rejects.toBeInstanceOf(XhrTimeoutError);
    await vi.advanceTimersByTimeAsync(60_000);
    await outcome;
    expect(fake.requests[0]!.timeout).toBeUndefined(); // game.json's networkTimeout applied
  });

  it('times out on its own timer too and aborts the request task', async () => {
    vi.useFakeTimers();
    const { fake } = setup(() => new Promise(() => undefined));
    let aborts = 0;
    class Counting extends fake.XMLHttpRequest {
      override abort() {
        aborts++;
        super.abort();
      }
    }
    const pending = createXhrFetch(Counting, { timeoutMs: 5_000 })('https://x.example/slow');
    const outcome = expect(pending).rejects.toBeInstanceOf(XhrTimeoutError);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(aborts).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    await outcome;
    expect(aborts).toBe(1);
  });

  it('a send that throws rejects with its error and leaves no timer or abort listener behind', async () => {
    vi.useFakeTimers();
    const { fake } = setup(() => new Promise(() => undefined));
    let aborts = 0;
    class Refusing extends fake.XMLHttpRequest {
      override send(): void {
        throw new Error('send refused');
      }
      override abort() {
        aborts++;
        super.abort();
      }
    }
    const listeners: string[] = [];
    const signal = { aborted: false, addEventListener: () => listeners.push('abort'), removeEventListener: () => listeners.pop() } as unknown as AbortSignal;
    await expect(createXhrFetch(Refusing, { timeoutMs: 5_000 })('https://x.example/a', { method: 'POST', body: '{}', signal })).rejects.toThrow('send refused');
    expect(vi.getTimerCount()).toBe(0);
    expect(listeners).toEqual([]);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(aborts).toBe(0);
  });

  it('aborts with a signal from a stand-in AbortController, with no global AbortController', async () => {
    vi.stubGlobal('AbortController', undefined);
    const StandIn = AbortControllerStandIn as unknown as typeof AbortController;
    const { fetch } = setup(() => new Promise(() => undefined));
    const early = new StandIn();
    early.abort(new Error('already'));
    await expect(fetch('https://x.example/a', { signal: early.signal })).rejects.toThrow('already');
    const late = new StandIn();
    const pending = fetch('https://x.example/b', { signal: late.signal });
    late.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('uses only the on* handlers, one each (the wrapper keeps one listener per event)', async () => {
    const assigned: string[] = [];
    const { fake } = setup(async () => new Response('ok'));
    class Spy extends fake.XMLHttpRequest {
      override addEventListener(type: string) {
        assigned.push(`addEventListener:${type}`);
      }
    }
    const fetch = createXhrFetch(Spy);
    await fetch('https://x.example/a');
    expect(assigned).toEqual([]);
  });
});
