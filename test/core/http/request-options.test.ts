/**
 * Per-call request options `{ signal, timeout, maxRetries, headers }`: abort during a request and during a
 * backoff wait, a per-call time-out, `maxRetries` both ways, headers added without replacing the key, and
 * every page of a paged list; then every CampaignServer and CampaignClient method passing them on.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CampaignClient } from '../../../core/client/campaign-client.js';
import { AbortError, InternalError, TimeoutError, isCampaignError } from '../../../core/http/errors.js';
import type { RequestOptions } from '../../../core/http/transport.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply, type FakeFetch } from '../../helpers/fake-fetch.js';
import { SERVER_KEY, setup, track, unavailable } from './server-on-fake-fetch.js';
import { campaign, paymentDetail, paymentItem, sessionRequest, CHALLENGE } from '../schema/samples.js';

const CLIENT_KEY = 'ck_test_1:s3cr3t';

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2024-05-01T00:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});


describe('signal', () => {
  it('aborts a request in flight: AbortError (code ABORTED, the reason as cause), the fetch signalled, no retry', async () => {
    const { fake, server } = setup([reply.hang()]);
    const controller = new AbortController();
    const call = track(server.payments.get('tx-1', { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls).toHaveLength(1);
    expect(call.outcome().state).toBe('pending');

    const reason = new Error('user left the page');
    controller.abort(reason);
    await vi.advanceTimersByTimeAsync(0);

    const outcome = call.outcome();
    expect(outcome.state).toBe('rejected');
    const error = (outcome as { error: unknown }).error;
    expect(error).toBeInstanceOf(AbortError);
    expect(error).toMatchObject({ name: 'AbortError', code: 'ABORTED', status: undefined, cause: reason });
    expect(isCampaignError(error, 'ABORTED')).toBe(true);
    expect(fake.last().signal?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fake.calls).toHaveLength(1); // a GET is retried after a connection error, never after an abort
  });

  it('aborts the wait before a retry at once, clears its timer, and sends nothing more', async () => {
    const { fake, server, log } = setup([unavailable(), reply.ok(paymentDetail)], { random: () => 0.5 });
    const controller = new AbortController();
    const call = track(server.payments.get('tx-1', { signal: controller.signal }));
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls).toHaveLength(1);
    expect(log.at(-1)).toMatchObject({ type: 'retry', delayMs: 250 });
    expect(vi.getTimerCount()).toBe(1); // the backoff wait

    controller.abort();
    await vi.advanceTimersByTimeAsync(0);

    expect(call.outcome()).toMatchObject({ state: 'rejected', error: { name: 'AbortError', code: 'ABORTED' } });
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(fake.calls).toHaveLength(1);
  });

  it('sends nothing when the signal is already aborted', async () => {
    const { fake, server } = setup([reply.ok(paymentDetail)]);
    const error = await server.payments.get('tx-1', { signal: AbortSignal.abort('stop') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AbortError);
    expect((error as AbortError).cause).toBe('stop');
    expect(fake.calls).toHaveLength(0);
  });

  it('a signal that never aborts changes nothing', async () => {
    const { server } = setup([unavailable(), reply.ok(paymentDetail)], { random: () => 0 });
    const call = track(server.payments.get('tx-1', { signal: new AbortController().signal }));
    await vi.advanceTimersByTimeAsync(10);
    expect(call.outcome()).toEqual({ state: 'resolved', value: paymentDetail });
  });
});

describe('timeout', () => {
  it("replaces the client's timeoutMs for this call, per attempt", async () => {
    const { fake, server } = setup([reply.hang(), reply.hang()], { timeoutMs: 30_000, maxRetries: 0 });
    const short = track(server.payments.get('tx-1', { timeout: 1_000 }));
    await vi.advanceTimersByTimeAsync(999);
    expect(short.outcome().state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(short.outcome()).toMatchObject({ state: 'rejected', error: { code: 'TIMEOUT' } });
    expect((short.outcome() as { error: unknown }).error).toBeInstanceOf(TimeoutError);

    // The next call, without the option, has the client's 30 s again.
    const normal = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(normal.outcome().state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(normal.outcome()).toMatchObject({ state: 'rejected', error: { code: 'TIMEOUT' } });
    expect(fake.calls).toHaveLength(2);
  });
});

describe('timeout: none, or not a time-out', () => {
  it.each([Infinity, 2 ** 31, 3e9])('%s sets no time-out (a timer that long would fire at once)', async (timeout) => {
    const { fake, server } = setup([reply.hang()], { maxRetries: 0 });
    const call = track(server.payments.get('tx-1', { timeout }));
    await vi.advanceTimersByTimeAsync(60 * 86_400_000);
    expect(call.outcome().state).toBe('pending');
    expect(fake.calls).toHaveLength(1);
  });

  it("takes the client's timeoutMs: Infinity the same way", async () => {
    const { server } = setup([reply.hang()], { timeoutMs: Infinity, maxRetries: 0 });
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(60 * 86_400_000);
    expect(call.outcome().state).toBe('pending');
  });

  it.each([0, -1, NaN])('%s is a RangeError that says what a time-out must be, and nothing is sent', async (timeout) => {
    const { fake, server } = setup([reply.ok(paymentDetail)]);
    const error = await server.payments.get('tx-1', { timeout }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RangeError);
    expect((error as Error).message).toBe(`timeout must be above 0 ms (Infinity: none), not ${timeout}`);
    expect(fake.calls).toHaveLength(0);
    // As the client's timeoutMs, refused when the server is made (test/core/server/options.test.ts).
    expect(() => new CampaignServer({ serverKey: SERVER_KEY, environment: { baseUrl: 'https://api.test' }, fetch: fake.fetch, timeoutMs: timeout })).toThrow(RangeError);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('headers no request can carry', () => {
  it.each<Record<string, string>>([{ 'x y': '1' }, { 'x-trace': 'a\nb' }, { 'x-trace': 'caf\u00e9\u2615' }])('%j is a TypeError before anything is sent, not a retried ConnectionError', async (headers) => {
    const { fake, server } = setup([reply.ok(paymentDetail)]);
    const error = await server.payments.get('tx-1', { headers }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(isCampaignError(error)).toBe(false);
    expect(fake.calls).toHaveLength(0);
  });
});

describe('maxRetries', () => {
  it('0 sends once and throws the first failure, where the client would retry twice', async () => {
    const { fake, server } = setup([unavailable(), unavailable(), unavailable()]);
    const error = await server.payments.get('tx-1', { maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect(fake.calls).toHaveLength(1);
  });

  it("raises the client's maxRetries for this call", async () => {
    const { fake, server } = setup([unavailable(), unavailable(), reply.ok(paymentDetail)], { maxRetries: 0, random: () => 0 });
    const call = track(server.payments.get('tx-1', { maxRetries: 2 }));
    await vi.advanceTimersByTimeAsync(10);
    expect(call.outcome()).toEqual({ state: 'resolved', value: paymentDetail });
    expect(fake.calls).toHaveLength(3);
  });

  it('does not make a write retryable that its policy forbids', async () => {
    const { fake, server } = setup([unavailable(), reply.ok({})]);
    const error = await server.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' }, { maxRetries: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect(fake.calls).toHaveLength(1);
  });
});

describe('headers', () => {
  it('are added to the request; authorization, accept and content-type stay the SDK’s whatever their case', async () => {
    const { fake, server } = setup([reply.ok(paymentDetail)]);
    const headers = { 'X-Request-Id': 'req-1', Authorization: 'Bearer stolen:key', authorization: 'Basic eA==', ACCEPT: 'text/html', 'Content-Type': 'text/plain' };
    await server.payments.register(paymentItem, { headers }).catch(() => undefined);
    expect(fake.last().headers).toEqual({
      'x-request-id': 'req-1',
      authorization: `Bearer ${SERVER_KEY}`,
      accept: 'application/json',
      'content-type': 'application/json',
    });
  });

  // Before: a Headers' methods (undici's are enumerable) and an array's indexes were read as header names, and a
  // Headers failed with a TypeError about a function value; fetch itself takes both shapes (its HeadersInit).
  it.each<[string, () => RequestOptions['headers']]>([
    ['a Headers', () => new Headers({ 'X-Request-Id': 'req-1', Authorization: 'Bearer stolen:key' })],
    ['an array of pairs', () => [['X-Request-Id', 'req-1'], ['Authorization', 'Bearer stolen:key']]],
    ['a Map', () => new Map([['X-Request-Id', 'req-1'], ['Authorization', 'Bearer stolen:key']])],
  ])('may be %s, as fetch takes them (the key still the SDK’s)', async (_, headers) => {
    const { fake, server } = setup([reply.ok(paymentDetail)]);
    await expect(server.payments.get('tx-1', { headers: headers() })).resolves.toEqual(paymentDetail);
    expect(fake.last().headers).toEqual({ 'x-request-id': 'req-1', authorization: `Bearer ${SERVER_KEY}`, accept: 'application/json' });
    const client = createFakeFetch(reply.ok(campaign(1)));
    await new CampaignClient({ clientKey: CLIENT_KEY, environment: { baseUrl: 'https://api.test' }, fetch: client.fetch }).campaigns.get('camp-1', { headers: headers() });
    expect(client.last().headers).toEqual({ 'x-request-id': 'req-1', authorization: `Bearer ${CLIENT_KEY}`, accept: 'application/json' });
  });

  it('are sent again with every retry', async () => {
    const { fake, server } = setup([unavailable(), reply.ok(paymentDetail)], { random: () => 0 });
    const call = track(server.payments.get('tx-1', { headers: { 'x-trace': 't1' } }));
    await vi.advanceTimersByTimeAsync(10);
    expect(call.outcome().state).toBe('resolved');
    expect(fake.calls.map((c) => c.headers['x-trace'])).toEqual(['t1', 't1']);
  });
});

describe('paged lists', () => {
  const pageOf = (n: number) => reply.page([campaign(n)], { page: n, limit: 1, total: 3, totalPages: 3 });

  it('apply the options to every page request', async () => {
    const { fake, server } = setup([pageOf(1), pageOf(2), pageOf(3)]);
    const controller = new AbortController();
    const ids: string[] = [];
    for await (const item of server.campaigns.list({ limit: 1 }, { signal: controller.signal, headers: { 'x-trace': 'walk' } })) ids.push(item.campaignId);
    expect(ids).toEqual(['camp-1', 'camp-2', 'camp-3']);
    expect(fake.calls.map((c) => [c.query['page'], c.headers['x-trace'], c.signal !== undefined])).toEqual([
      ['1', 'walk', true],
      ['2', 'walk', true],
      ['3', 'walk', true],
    ]);
  });

  it('an abort between pages stops the walk with AbortError before the next request', async () => {
    const { fake, server } = setup([pageOf(1), pageOf(2), pageOf(3)]);
    const controller = new AbortController();
    const seen: unknown[] = [];
    const walk = async () => {
      for await (const item of server.coupons.listUsage('user-1', { limit: 1 }, { signal: controller.signal })) {
        seen.push(item);
        controller.abort();
      }
    };
    await expect(walk()).rejects.toBeInstanceOf(AbortError);
    expect(seen).toHaveLength(1);
    expect(fake.calls).toHaveLength(1);
  });

  it('nextPage() and the maxRetries option: a failing second page is not retried', async () => {
    const { fake, server } = setup([pageOf(1), unavailable(), pageOf(2)]);
    const first = await server.campaigns.list({ limit: 1 }, { maxRetries: 0 });
    await expect(first.nextPage()).rejects.toBeInstanceOf(InternalError);
    expect(fake.calls).toHaveLength(2);
  });
});

/** Every method, called with options; the table must name every method of every resource. */
const SERVER_CALLS: Record<string, (s: CampaignServer, o: RequestOptions) => PromiseLike<unknown>> = {
  'playtime.record': (s, o) => s.playtime.record(sessionRequest, o),
  'playtime.recordBulk': (s, o) => s.playtime.recordBulk({ sessions: [sessionRequest] }, o),
  'payments.registerBulk': (s, o) => s.payments.registerBulk({ payments: [paymentItem] }, o),
  'payments.register': (s, o) => s.payments.register(paymentItem, o),
  'payments.get': (s, o) => s.payments.get('tx-1', o),
  'coupons.redeem': (s, o) => s.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' }, o),
  'coupons.listUsage': (s, o) => s.coupons.listUsage('user-1', {}, o),
  'coupons.validate': (s, o) => s.coupons.validate({ couponCode: 'WELCOME' }, o),
  'sponsors.change': (s, o) => s.sponsors.change('user-1', { newCreatorKey: 'XYZ99' }, o),
  'sponsors.create': (s, o) => s.sponsors.create({ userId: 'user-1', creatorKey: 'XYZ99' }, o),
  'sponsors.history': (s, o) => s.sponsors.history('user-1', o),
  'webview.createToken': (s, o) => s.webview.createToken({ userId: 'user-1', codeChallenge: CHALLENGE }, o),
  'webhooks.create': (s, o) => s.webhooks.create({ url: 'https://game.example/hooks', eventType: 'sponsor.changed' }, o),
  'webhooks.update': (s, o) => s.webhooks.update(5, { isActive: false }, o),
  'webhooks.delete': (s, o) => s.webhooks.delete(5, o),
  'webhooks.logs': (s, o) => s.webhooks.logs(5, o),
  'campaigns.list': (s, o) => s.campaigns.list({}, o),
  'campaigns.listCreators': (s, o) => s.campaigns.listCreators('camp-1', o),
};

const CLIENT_CALLS: Record<string, (c: CampaignClient, o: RequestOptions) => PromiseLike<unknown>> = {
  'campaigns.get': (c, o) => c.campaigns.get('camp-1', o),
  'campaigns.listCreators': (c, o) => c.campaigns.listCreators('camp-1', o),
  'creators.get': (c, o) => c.creators.get('ABC12', o),
  'creators.search': (c, o) => c.creators.search({ query: 'star' }, o),
  'sponsors.get': (c, o) => c.sponsors.get('user-1', o),
};

function methodsOf(api: object, resources: string[]): string[] {
  return resources.flatMap((resource) => {
    const instance = (api as Record<string, object>)[resource]!;
    return Object.getOwnPropertyNames(Object.getPrototypeOf(instance))
      .filter((name) => name !== 'constructor')
      .map((name) => `${resource}.${name}`);
  });
}

describe('every method takes the options as its last argument', () => {
  /** Each call answers 503 once: with the options it must send the header, not retry, and stop there. */
  async function check(send: (fetch: FakeFetch['fetch'], options: RequestOptions) => PromiseLike<unknown>) {
    const fake = createFakeFetch(unavailable(), unavailable());
    const error = await Promise.resolve(send(fake.fetch, { headers: { 'x-trace': 'per-call' }, maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InternalError);
    expect(fake.calls).toHaveLength(1);
    expect(fake.last().headers['x-trace']).toBe('per-call');
    expect(fake.last().headers['authorization']).toMatch(/^Bearer (sk|ck)_test_1:s3cr3t$/);
  }

  it.each(Object.entries(SERVER_CALLS))('CampaignServer %s', async (_, call) => {
    await check((fetch, options) => call(new CampaignServer({ serverKey: SERVER_KEY, fetch }), options));
  });

  it.each(Object.entries(CLIENT_CALLS))('CampaignClient %s', async (_, call) => {
    await check((fetch, options) => call(new CampaignClient({ clientKey: CLIENT_KEY, fetch }), options));
  });

  it('the tables name every method', () => {
    const server = new CampaignServer({ serverKey: SERVER_KEY });
    expect(methodsOf(server, ['playtime', 'payments', 'coupons', 'sponsors', 'webview', 'webhooks', 'campaigns']).sort()).toEqual(Object.keys(SERVER_CALLS).sort());
    const client = new CampaignClient({ clientKey: CLIENT_KEY });
    expect(methodsOf(client, ['campaigns', 'creators', 'sponsors']).sort()).toEqual(Object.keys(CLIENT_CALLS).sort());
  });
});
