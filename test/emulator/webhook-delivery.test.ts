// Webhook delivery over real HTTP: signed Standard Webhooks requests, callbackId carried, retries with one log entry
// per attempt and the same webhook-id, the receiver time-out, inactive receivers, and webhooksIdle/close.
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SentWebhookEvent } from '../../core/schema/events.js';
import { computeSignature } from '../../core/webhooks/signature.js';
import type { Emulator } from '../../emulator/index.js';
import { RECEIVER_CONNECTIONS } from '../../emulator/webhook-delivery.js';
import { caller, emulatorAtT0, startReceiver, T0 } from './helpers.js';

describe('emulator webhook delivery', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function setup(receiverOptions: Parameters<typeof startReceiver>[0], hook: Record<string, unknown>) {
    const receiver = await startReceiver(receiverOptions);
    const emulator: Emulator = emulatorAtT0({ webhookRetryDelayMs: (attempt) => attempt * 5 });
    cleanup.push(() => receiver.close(), () => emulator.close());
    const call = caller(emulator);
    const created = await call('POST', '/v1/server/webhooks', { body: { url: receiver.url, eventType: 'coupon.redeemed', ...hook } });
    return { receiver, emulator, call, hook: created.body.data as { id: number; secret: string } };
  }

  it('posts the signed JSON envelope with webhook-id, webhook-timestamp and webhook-signature, and logs SUCCESS', async () => {
    const { receiver, emulator, call, hook } = await setup({ status: 204 }, {});
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'user_1', callbackId: 'cb-42' } });
    await emulator.webhooksIdle();

    expect(receiver.received).toHaveLength(1);
    const { headers, body } = receiver.received[0]!;
    const event = SentWebhookEvent.parse(JSON.parse(body));
    expect(event).toMatchObject({ type: 'coupon.redeemed', callbackId: 'cb-42', createdAt: new Date(T0).toISOString() });
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe(event.id);
    expect(headers['webhook-timestamp']).toBe(String(Math.floor(T0 / 1000)));
    expect(headers['webhook-signature']).toBe(computeSignature(hook.secret, event.id, Math.floor(T0 / 1000), body));
    // The reference implementation accepts the emulator's delivery as it arrived (its clock set to the delivery's).
    vi.useFakeTimers({ now: T0, toFake: ['Date'] });
    try {
      expect(new Webhook(hook.secret).verify(body, headers as Record<string, string>)).toEqual(JSON.parse(body));
    } finally {
      vi.useRealTimers();
    }

    const logs = await call('GET', `/v1/server/webhooks/${hook.id}/logs`);
    expect(logs.body.data).toEqual([
      {
        id: expect.stringMatching(/^dlv_/),
        eventType: 'coupon.redeemed',
        payload: JSON.parse(body),
        responseStatus: 204,
        attempt: 1,
        status: 'SUCCESS',
        callbackId: 'cb-42',
        createdAt: new Date(T0).toISOString(),
        completedAt: new Date(T0).toISOString(),
      },
    ]);
  });

  it('retries a receiver answering 500 retryCount times with the same webhook-id, one FAILED log entry per attempt', async () => {
    const { receiver, emulator, call, hook } = await setup({ status: 500 }, { retryCount: 2 });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1', callbackId: 'cb-retry' } });
    await emulator.webhooksIdle();

    expect(receiver.received).toHaveLength(3);
    const ids = new Set(receiver.received.map((delivery) => delivery.headers['webhook-id']));
    expect(ids.size).toBe(1);
    const logs = (await call('GET', `/v1/server/webhooks/${hook.id}/logs`)).body.data;
    expect(logs.map((log: { attempt: number; status: string; responseStatus: number; callbackId: string }) => [log.attempt, log.status, log.responseStatus, log.callbackId])).toEqual([
      [1, 'FAILED', 500, 'cb-retry'],
      [2, 'FAILED', 500, 'cb-retry'],
      [3, 'FAILED', 500, 'cb-retry'],
    ]);
  });

  it('disables a receiver answering 410 Gone, as Standard Webhooks asks: no retry, no later delivery until made active again', async () => {
    const { receiver, emulator, call, hook } = await setup({ status: 410 }, { retryCount: 3 });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    await emulator.webhooksIdle();
    expect(receiver.received).toHaveLength(1);
    const logs = (await call('GET', `/v1/server/webhooks/${hook.id}/logs`)).body.data;
    expect(logs.map((log: { attempt: number; status: string; responseStatus: number }) => [log.attempt, log.status, log.responseStatus])).toEqual([[1, 'FAILED', 410]]);
    expect(emulator.state().webhooks).toEqual([expect.objectContaining({ id: hook.id, isActive: false })]);

    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    await emulator.webhooksIdle();
    expect(receiver.received).toHaveLength(1);

    await call('PUT', `/v1/server/webhooks/${hook.id}`, { body: { isActive: true } });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    await emulator.webhooksIdle();
    expect(receiver.received).toHaveLength(2);
  });

  it('honours timeoutMs: a receiver that never answers fails each attempt without a response status', async () => {
    const { receiver, emulator, call, hook } = await setup({ hang: true }, { retryCount: 1, timeoutMs: 1000 });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    await emulator.webhooksIdle();

    expect(receiver.received).toHaveLength(2);
    const logs = (await call('GET', `/v1/server/webhooks/${hook.id}/logs`)).body.data;
    expect(logs).toHaveLength(2);
    for (const [index, log] of logs.entries()) {
      expect(log).toMatchObject({ attempt: index + 1, status: 'FAILED' });
      expect(log.responseStatus).toBeUndefined();
      expect(log.completedAt).toEqual(expect.any(String));
    }
  });

  it('logs PENDING while an attempt is in flight', async () => {
    const { emulator, call, hook } = await setup({ hang: true }, { retryCount: 0, timeoutMs: 1000 });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    const logs = (await call('GET', `/v1/server/webhooks/${hook.id}/logs`)).body.data;
    expect(logs).toHaveLength(1);
    expect(logs[0].status).toBe('PENDING');
    expect(logs[0].completedAt).toBeUndefined();
    await emulator.webhooksIdle();
  });

  it('sends nothing to an inactive receiver or one registered for another event type', async () => {
    const { receiver, emulator, call, hook } = await setup({ status: 204 }, {});
    await call('PUT', `/v1/server/webhooks/${hook.id}`, { body: { isActive: false } });
    await call('POST', '/v1/server/webhooks', { body: { url: receiver.url, eventType: 'payment.created' } });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    await emulator.webhooksIdle();
    expect(receiver.received).toEqual([]);
    expect(emulator.state().deliveries).toEqual([]);
  });

  // A receiver that takes connections and never answers held one socket per event until its time-out: 50 events/s to
  // 100 such receivers with timeoutMs 30000 was 150,000 sockets, past the process's file descriptors.
  it(`opens at most ${RECEIVER_CONNECTIONS} requests to one receiver at once; the other deliveries wait their turn`, async () => {
    const { receiver, emulator, call, hook } = await setup({ hang: true }, { retryCount: 0, timeoutMs: 30000 });
    const events = RECEIVER_CONNECTIONS + 2;
    emulator.setFaults({ rateLimitPerSecond: 0 });
    for (let i = 0; i < events; i++) expect((await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: `u${i}` } })).status).toBe(200);
    // Logged as each request is made: the first ones only, while the receiver holds them.
    expect(emulator.state().deliveries.map((d) => d.status)).toEqual(Array(RECEIVER_CONNECTIONS).fill('PENDING'));
    await expect.poll(() => receiver.received.length).toBe(RECEIVER_CONNECTIONS);
    // The receiver goes away: the open requests fail, and the waiting deliveries are tried (and fail) in turn.
    await receiver.close();
    await emulator.webhooksIdle();
    const logs = (await call('GET', `/v1/server/webhooks/${hook.id}/logs`)).body.data as Array<{ status: string; payload: { data: { userId: string } } }>;
    expect(logs.map((log) => log.status)).toEqual(Array(events).fill('FAILED'));
    expect(logs.map((log) => log.payload.data.userId)).toEqual(Array.from({ length: events }, (_, i) => `u${i}`));
    expect(receiver.received).toHaveLength(RECEIVER_CONNECTIONS);
  });

  // Before, a deleted receiver's requests went on for their timeoutMs and were retried, and its waiting deliveries
  // were still sent: deleting and registering receivers again piled up work past any per-receiver bound.
  // Each pending delivery holds about 1 KB besides its event: 100 hanging receivers with 10,000 pending each held
  // about 1 GB. The receivers share limits.deliveries.
  it('gives each receiver an even share of limits.deliveries pending: 40 over 4 receivers is 10 each', async () => {
    const receiver = await startReceiver({ hang: true });
    const emulator = emulatorAtT0({ limits: { deliveries: 40 } });
    cleanup.push(() => receiver.close(), () => emulator.close());
    const call = caller(emulator);
    await call('POST', '/v1/server/webhooks', { body: { url: receiver.url, eventType: 'coupon.redeemed', retryCount: 0, timeoutMs: 30000 } });
    for (const port of [9, 10, 11]) await call('POST', '/v1/server/webhooks', { body: { url: `http://127.0.0.1:${port}/h`, eventType: 'payment.created' } });
    for (let i = 0; i < 12; i++) await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: `u${i}` } });
    const logs = emulator.state().deliveries;
    expect(logs.map((log) => log.status)).toEqual([...Array(RECEIVER_CONNECTIONS).fill('PENDING'), 'FAILED', 'FAILED']);
    expect(logs.slice(RECEIVER_CONNECTIONS).map((log) => (log.payload as { data: { userId: string } }).data.userId)).toEqual(['u10', 'u11']);
  });

  it('ends the work of a deleted receiver: requests in flight aborted, waiting deliveries and retries dropped', async () => {
    const { receiver, emulator, call, hook } = await setup({ hang: true }, { retryCount: 10, timeoutMs: 30000 });
    for (let i = 0; i < RECEIVER_CONNECTIONS + 2; i++) await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: `u${i}` } });
    await expect.poll(() => receiver.received.length).toBe(RECEIVER_CONNECTIONS);
    expect((await call('DELETE', `/v1/server/webhooks/${hook.id}`)).status).toBe(204);
    await emulator.webhooksIdle();
    expect(emulator.state().deliveries.map((d) => d.status)).toEqual(Array(RECEIVER_CONNECTIONS).fill('FAILED'));
    expect(receiver.received).toHaveLength(RECEIVER_CONNECTIONS);
  });

  it('logs a delivery FAILED at once, without a request or retry, when its receiver has limits.deliveries pending', async () => {
    const receiver = await startReceiver({ hang: true });
    const emulator = emulatorAtT0({ limits: { deliveries: 30 } });
    cleanup.push(() => receiver.close(), () => emulator.close());
    const call = caller(emulator);
    const hook = (await call('POST', '/v1/server/webhooks', { body: { url: receiver.url, eventType: 'coupon.redeemed', retryCount: 10, timeoutMs: 30000 } })).body.data;
    for (let i = 0; i < 32; i++) expect((await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: `u${i}` } })).status).toBe(200);
    const logs = emulator.state().deliveries;
    expect(logs.map((log) => log.status)).toEqual([...Array(RECEIVER_CONNECTIONS).fill('PENDING'), 'FAILED', 'FAILED']);
    expect(logs.slice(RECEIVER_CONNECTIONS)).toEqual(
      [30, 31].map((i) => ({
        webhookId: hook.id,
        id: expect.stringMatching(/^dlv_/),
        eventType: 'coupon.redeemed',
        payload: expect.objectContaining({ type: 'coupon.redeemed', data: expect.objectContaining({ userId: `u${i}` }) }),
        attempt: 1,
        status: 'FAILED',
        createdAt: new Date(T0).toISOString(),
        completedAt: new Date(T0).toISOString(),
      })),
    );
    await emulator.close();
  });

  it('cancels pending retries on close', async () => {
    const receiver = await startReceiver({ status: 503 });
    const emulator = emulatorAtT0({ webhookRetryDelayMs: () => 60_000 });
    cleanup.push(() => receiver.close());
    const call = caller(emulator);
    await call('POST', '/v1/server/webhooks', { body: { url: receiver.url, eventType: 'coupon.redeemed', retryCount: 5 } });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } });
    while (emulator.state().deliveries[0]?.status !== 'FAILED') await new Promise((resolve) => setTimeout(resolve, 5));
    await emulator.close();
    await emulator.webhooksIdle();
    expect(receiver.received).toHaveLength(1);
    expect(emulator.state().deliveries).toHaveLength(1);
  });
});
