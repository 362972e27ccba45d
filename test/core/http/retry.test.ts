/** Retries on a fake clock: backoff bounds, Retry-After, which methods may be resent, maxRetries, the logger. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectionError, InternalError, RateLimitError } from '../../../core/http/errors.js';
import type { CampaignServer } from '../../../core/server/campaign-server.js';
import { reply, type Reply } from '../../helpers/fake-fetch.js';
import { setup, track, unavailable } from './server-on-fake-fetch.js';
import {
  CHALLENGE,
  boostRecord,
  bulkPaymentResult,
  bulkPlaytimeResult,
  couponRedemption,
  couponValidation,
  createdWebhook,
  oneTimeToken,
  paymentDetail,
  paymentItem,
  paymentRecord,
  playtimeSession,
  sessionRequest,
  webhookConfig,
} from '../schema/samples.js';


beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2024-05-01T00:00:00.000Z'));
});
afterEach(() => {
  vi.useRealTimers();
});


describe('safe requests are retried after transient failures', () => {
  it('retries a GET after 503 and returns the later success', async () => {
    const { fake, server } = setup([unavailable(), reply.ok(paymentDetail)], { random: () => 0.5 });
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(250); // 0.5 * 500
    expect(call.outcome()).toEqual({ state: 'resolved', value: paymentDetail });
    expect(fake.calls).toHaveLength(2);
    const [first, second] = fake.calls.map(({ signal: _, ...sent }) => sent);
    expect(second).toEqual(first);
  });

  it.each([
    ['a connection error', reply.networkError()],
    ['408', reply.text(408, '')],
    ['429', reply.error(429, 'RATE_LIMITED', 'Slow down')],
    ['500', reply.error(500, 'INTERNAL_ERROR', 'Oops')],
    ['502 HTML', reply.text(502, '<html/>')],
  ])('retries after %s', async (_, failure) => {
    const { fake, server } = setup([failure, reply.ok(paymentDetail)], { random: () => 0 });
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(1);
    expect(call.outcome()).toEqual({ state: 'resolved', value: paymentDetail });
    expect(fake.calls).toHaveLength(2);
  });

  it.each([400, 401, 403, 404, 409, 422])('does not retry %i', async (status) => {
    const { fake, server } = setup([reply.text(status, ''), reply.ok(paymentDetail)], { random: () => 0 });
    await expect(server.payments.get('tx-1')).rejects.toMatchObject({ status });
    expect(fake.calls).toHaveLength(1);
  });

  it('retries de-duplicated writes (playtime sessions) after 500 and a connection error', async () => {
    const { fake, server } = setup([reply.error(500, 'INTERNAL_ERROR', 'Oops'), reply.networkError(), reply.created(playtimeSession)], { random: () => 0 });
    const call = track(server.playtime.record(sessionRequest));
    await vi.advanceTimersByTimeAsync(1);
    expect(call.outcome()).toEqual({ state: 'resolved', value: playtimeSession });
    expect(fake.calls.map((c) => c.rawBody)).toEqual(Array(3).fill(JSON.stringify(sessionRequest)));
  });

  const deduplicated: Array<[string, (server: CampaignServer) => Promise<unknown>, Reply]> = [
    ['playtime.recordBulk', (s) => s.playtime.recordBulk({ sessions: [sessionRequest] }), reply.ok(bulkPlaytimeResult)],
    ['payments.registerBulk', (s) => s.payments.registerBulk({ payments: [paymentItem] }), reply.ok(bulkPaymentResult)],
    ['payments.register', (s) => s.payments.register(paymentItem), reply.ok(paymentRecord)],
    ['webhooks.update (a PUT: assumed idempotent)', (s) => s.webhooks.update(5, { isActive: false }), reply.ok(webhookConfig)],
    ['coupons.validate (assumed: changes nothing)', (s) => s.coupons.validate({ couponCode: 'WELCOME' }), reply.ok(couponValidation)],
  ];
  it.each(deduplicated)('retries %s after 503 and a connection error, sending the same body', async (_, call, success) => {
    const { fake, server } = setup([unavailable(), reply.networkError(), success], { random: () => 0 });
    const tracked = track(call(server));
    await vi.advanceTimersByTimeAsync(1);
    expect(tracked.outcome()).toMatchObject({ state: 'resolved' });
    expect(fake.calls).toHaveLength(3);
    expect(new Set(fake.calls.map((c) => c.rawBody)).size).toBe(1);
  });
});

describe('backoff', () => {
  it('waits a full-jitter delay in [0, 500 * 2^n) taken from `random`', async () => {
    const { fake, server, log } = setup([unavailable(), unavailable(), unavailable(), reply.ok(paymentDetail)], { random: () => 0.999, maxRetries: 3 });
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(log.filter((e) => e.type === 'retry').map((e) => e.delayMs)).toEqual([499]);
    await vi.advanceTimersByTimeAsync(498);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(998);
    expect(fake.calls).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1997);
    expect(fake.calls).toHaveLength(3);
    await vi.advanceTimersByTimeAsync(1);
    expect(call.outcome()).toEqual({ state: 'resolved', value: paymentDetail });
    expect(log.filter((e) => e.type === 'retry').map((e) => e.delayMs)).toEqual([499, 999, 1998]);
  });

  it('stays within the bounds for any random value, and caps at 8 s', async () => {
    const randoms = [0, 0.25, 0.5, 0.75, 0.999999];
    for (const r of randoms) {
      const failures = Array.from({ length: 6 }, unavailable);
      const { server, log } = setup([...failures, reply.ok(paymentDetail)], { random: () => r, maxRetries: 6 });
      const call = track(server.payments.get('tx-1'));
      await vi.advanceTimersByTimeAsync(60_000);
      expect(call.outcome().state).toBe('resolved');
      const delays = log.filter((e) => e.type === 'retry').map((e) => e.delayMs!);
      expect(delays).toEqual([500, 1000, 2000, 4000, 8000, 8000].map((ceiling) => Math.floor(r * ceiling)));
      delays.forEach((delay, n) => {
        expect(delay).toBeGreaterThanOrEqual(0);
        expect(delay).toBeLessThan(Math.min(8000, 500 * 2 ** n));
      });
    }
  });
});

describe('Retry-After', () => {
  it('waits exactly the seconds of Retry-After', async () => {
    const { fake, server } = setup([reply.error(429, 'RATE_LIMITED', 'Slow down', { headers: { 'retry-after': '3' } }), reply.ok(paymentDetail)], { random: () => 0 });
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(2999);
    expect(fake.calls).toHaveLength(1);
    expect(call.outcome().state).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.calls).toHaveLength(2);
    expect(call.outcome()).toEqual({ state: 'resolved', value: paymentDetail });
  });

  it('understands an HTTP date', async () => {
    const headers = { 'retry-after': new Date(Date.now() + 4000).toUTCString() };
    const { fake, server } = setup([reply.error(503, 'INTERNAL_ERROR', 'Busy', { headers }), reply.ok(paymentDetail)]);
    track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(3999);
    expect(fake.calls).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fake.calls).toHaveLength(2);
  });

  it('does not wait more than a minute: the error goes to the caller', async () => {
    const { fake, server } = setup([reply.error(429, 'RATE_LIMITED', 'Slow down', { headers: { 'retry-after': '61' } }), reply.ok(paymentDetail)]);
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(0);
    expect(call.outcome()).toMatchObject({ state: 'rejected', error: { code: 'RATE_LIMITED', retryAfterMs: 61_000 } });
    expect(fake.calls).toHaveLength(1);
  });
});

describe('unsafe writes are resent only after 429', () => {
  const writes: Array<[string, (server: CampaignServer) => Promise<unknown>, Reply, unknown]> = [
    ['coupons.redeem', (s) => s.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' }), reply.ok(couponRedemption), couponRedemption],
    ['sponsors.change', (s) => s.sponsors.change('user-1', { newCreatorKey: 'XYZ99' }), reply.ok(boostRecord), boostRecord],
    ['webview.createToken', (s) => s.webview.createToken({ userId: 'user-1', codeChallenge: CHALLENGE }), reply.ok(oneTimeToken), oneTimeToken],
    ['webhooks.create', (s) => s.webhooks.create({ url: 'https://game.example/hooks', eventType: 'coupon.redeemed' }), reply.created(createdWebhook), createdWebhook],
    ['sponsors.create', (s) => s.sponsors.create({ userId: 'user-1', creatorKey: 'XYZ99' }), reply.ok(boostRecord), boostRecord],
    ['webhooks.delete', (s) => s.webhooks.delete(5), reply.noContent(), undefined],
  ];

  it.each(writes)('%s is not retried after 500', async (_, call, success) => {
    const { fake, server } = setup([reply.error(500, 'INTERNAL_ERROR', 'Oops'), success], { random: () => 0 });
    const tracked = track(call(server));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tracked.outcome()).toMatchObject({ state: 'rejected', error: expect.any(InternalError) });
    expect(fake.calls).toHaveLength(1);
  });

  it.each(writes)('%s is not retried after a connection error', async (_, call, success) => {
    const { fake, server } = setup([reply.networkError(), success], { random: () => 0 });
    const tracked = track(call(server));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(tracked.outcome()).toMatchObject({ state: 'rejected', error: expect.any(ConnectionError) });
    expect(fake.calls).toHaveLength(1);
  });

  it.each(writes)('%s is retried after 429', async (_, call, success, data) => {
    const { fake, server } = setup([reply.error(429, 'RATE_LIMITED', 'Slow down', { headers: { 'retry-after': '1' } }), success]);
    const tracked = track(call(server));
    await vi.advanceTimersByTimeAsync(1000);
    expect(tracked.outcome()).toEqual({ state: 'resolved', value: data });
    expect(fake.calls).toHaveLength(2);
    expect(fake.calls[1]!.rawBody).toBe(fake.calls[0]!.rawBody);
  });

  it.each(writes)('%s is retried after a 429 whatever code its body carries (the status says it was not processed)', async (_, call, success, data) => {
    const { fake, server } = setup([reply.text(429, 'Too Many Requests', { 'retry-after': '1' }), success]);
    const tracked = track(call(server));
    await vi.advanceTimersByTimeAsync(1000);
    expect(tracked.outcome()).toEqual({ state: 'resolved', value: data });
    expect(fake.calls).toHaveLength(2);
  });
});

describe('maxRetries', () => {
  it.each([0, 1, 3])('sends at most 1 + %i times', async (maxRetries) => {
    const { fake, server } = setup([], { random: () => 0, maxRetries });
    fake.otherwise(unavailable());
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(call.outcome()).toMatchObject({ state: 'rejected', error: expect.any(InternalError) });
    expect(fake.calls).toHaveLength(1 + maxRetries);
  });

  it('defaults to 2 retries', async () => {
    const { fake, server } = setup([], { random: () => 0 });
    fake.otherwise(reply.error(429, 'RATE_LIMITED', 'Slow down'));
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(call.outcome()).toMatchObject({ state: 'rejected', error: expect.any(RateLimitError) });
    expect(fake.calls).toHaveLength(3);
  });
});

describe('logger', () => {
  it('gets request, response, retry and error entries, in order, and never the API key', async () => {
    const { server, log } = setup([unavailable(), reply.error(404, 'NOT_FOUND', 'No such payment')], { random: () => 0.5 });
    const call = track(server.payments.get('tx-1'));
    await vi.advanceTimersByTimeAsync(250);
    expect(call.outcome().state).toBe('rejected');
    const url = 'https://sandbox-api.game-campaign.com/v1/server/payments/tx-1';
    expect(log).toEqual([
      { type: 'request', method: 'GET', url, attempt: 0 },
      { type: 'response', method: 'GET', url, attempt: 0, status: 503 },
      { type: 'retry', method: 'GET', url, attempt: 0, delayMs: 250, status: 503 },
      { type: 'request', method: 'GET', url, attempt: 1 },
      { type: 'response', method: 'GET', url, attempt: 1, status: 404 },
      { type: 'error', method: 'GET', url, attempt: 1, status: 404, error: expect.objectContaining({ code: 'NOT_FOUND' }) },
    ]);
    const printed = JSON.stringify(log, (_, value: unknown) => (value instanceof Error ? { ...value, message: value.message } : value));
    expect(printed).not.toContain('s3cr3t');
    expect(printed).not.toContain('sk_test_1');
  });

  it('logs a connection error without a status', async () => {
    const { server, log } = setup([reply.networkError()], { maxRetries: 0 });
    await expect(server.payments.get('tx-1')).rejects.toBeInstanceOf(ConnectionError);
    expect(log.map((e) => [e.type, e.status])).toEqual([
      ['request', undefined],
      ['error', undefined],
    ]);
  });

  it('logs a response that fails validation as an error', async () => {
    const { server, log } = setup([reply.ok({ nope: true })], { validateResponses: true });
    await expect(server.payments.get('tx-1')).rejects.toMatchObject({ code: 'INVALID_RESPONSE' });
    expect(log.map((e) => e.type)).toEqual(['request', 'response', 'error']);
  });

  it('a logger that throws changes no outcome: the redeem resolves with its answer, the throw goes to console.error', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      const broken = new Error('log sink is down');
      const { fake, server } = setup([reply.ok(couponRedemption)], {
        logger: () => {
          throw broken;
        },
      });
      await expect(server.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' })).resolves.toEqual(couponRedemption);
      expect(fake.calls).toHaveLength(1);
      expect(errors.mock.calls).toEqual([[broken], [broken]]);
    } finally {
      errors.mockRestore();
    }
  });

  it('never sees the key even when the body carries secrets of its own', async () => {
    const { server, log } = setup([reply.created(createdWebhook)]);
    await server.webhooks.create({ url: 'https://game.example/hooks', eventType: 'coupon.redeemed' });
    expect(JSON.stringify(log)).not.toContain('s3cr3t');
  });
});
