// What a long-running emulator keeps: at most `limits.records` of each kind of record and `limits.deliveries`
// delivery log entries, the oldest dropped first, so a shared dev server's memory stays bounded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_LIMITS } from '../../emulator/index.js';
import { caller, emulatorAtT0, paymentBody, pkcePair, sessionBody, startReceiver, subscribe, T0 } from './helpers.js';

describe('emulator limits', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('keeps 100,000 of each kind of record and 10,000 delivery log entries, and 100 receivers, unless told otherwise', () => {
    expect(DEFAULT_LIMITS).toEqual({ records: 100_000, deliveries: 10_000, webhooks: 100 });
  });

  it('keeps the newest sessions and payments; a dropped sessionId records as new again', async () => {
    const emulator = emulatorAtT0({ limits: { records: 3 } });
    const call = caller(emulator);
    for (const id of ['s1', 's2', 's3', 's4']) expect((await call('POST', '/v1/server/playtime/sessions', { body: sessionBody(id) })).status).toBe(201);
    const bulk = await call('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: [sessionBody('s5'), sessionBody('s6')] } });
    expect(bulk.body.data).toMatchObject({ successful: 2, skipped: 0 });
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['s4', 's5', 's6']);
    expect((await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1') })).body.data.recorded).toBe(true);
    // After a reset the same limit holds from the fixtures again.
    emulator.reset();
    for (const id of ['r1', 'r2', 'r3', 'r4', 'r5']) await call('POST', '/v1/server/playtime/sessions', { body: sessionBody(id) });
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['r3', 'r4', 'r5']);

    await call('POST', '/v1/server/payments/bulk', { body: { payments: ['t1', 't2', 't3'].map((id) => paymentBody(id)) } });
    await call('POST', '/v1/server/payments', { body: paymentBody('t4') });
    expect(emulator.state().payments.map((p) => p.transactionId)).toEqual(['t2', 't3', 't4']);
    expect((await call('GET', '/v1/server/payments/t1')).status).toBe(404);
    await emulator.close();
  });

  it('keeps the newest coupon usages, boosts and boost history entries', async () => {
    const emulator = emulatorAtT0({ limits: { records: 2 } });
    const call = caller(emulator);
    for (const userId of ['a', 'b', 'c']) await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId } });
    expect(emulator.state().couponUsages.map((u) => u.userId)).toEqual(['b', 'c']);
    for (const userId of ['p1', 'p2', 'p3']) expect((await call('POST', '/v1/server/sponsors', { body: { userId, creatorKey: 'LUNA7' } })).status).toBe(200);
    expect(emulator.state().boosts.map((b) => b.userId)).toEqual(['p2', 'p3']);
    expect(emulator.state().boostHistory.map((h) => h.userId)).toEqual(['p2', 'p3']);
    await emulator.close();
  });

  it('drops an eighth of the limit at once from a full list (coupon usages, history, delivery logs)', async () => {
    const emulator = emulatorAtT0({ limits: { records: 16 }, faults: { rateLimitPerSecond: 0 } });
    const call = caller(emulator);
    for (let i = 1; i <= 16; i++) await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: `u${i}` } });
    expect(emulator.state().couponUsages).toHaveLength(16);
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'u17' } });
    expect(emulator.state().couponUsages.map((u) => u.userId)).toEqual(Array.from({ length: 15 }, (_, i) => `u${i + 3}`));
    await emulator.close();
  });

  it('keeps the newest web view tokens and sessions; a dropped token is refused as an unknown one', async () => {
    const emulator = emulatorAtT0({ limits: { records: 2 } });
    const call = caller(emulator);
    const { verifier, challenge } = pkcePair();
    const otts: string[] = [];
    for (const userId of ['w1', 'w2', 'w3']) otts.push((await call('POST', '/v1/server/webview/ott', { body: { userId, codeChallenge: challenge } })).body.data.ott);
    expect(emulator.state().webview.tokens.map((t) => t.userId)).toEqual(['w2', 'w3']);
    // The dropped token is unknown now: the same 401 as an expired one.
    expect((await call('POST', '/v1/webview/sessions', { key: null, body: { ott: otts[0], codeVerifier: verifier } })).status).toBe(401);
    for (const ott of otts.slice(1)) expect((await call('POST', '/v1/webview/sessions', { key: null, body: { ott, codeVerifier: verifier } })).status).toBe(200);
    expect(emulator.state().webview.sessions.map((s) => s.userId)).toEqual(['w2', 'w3']);
    // A new token for w1 works as for any player (nothing of the dropped one is left in the way).
    const again = (await call('POST', '/v1/server/webview/ott', { body: { userId: 'w1', codeChallenge: challenge } })).body.data.ott;
    expect((await call('POST', '/v1/webview/sessions', { key: null, body: { ott: again, codeVerifier: verifier } })).status).toBe(200);
    await emulator.close();
  });

  it('keeps the newest delivery log entries, all receivers together', async () => {
    const emulator = emulatorAtT0({ limits: { deliveries: 2 } });
    const call = caller(emulator);
    await subscribe(emulator, receiver.url, ['coupon.redeemed']);
    for (const userId of ['d1', 'd2', 'd3']) await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId } });
    await emulator.webhooksIdle();
    const logs = (await call('GET', '/v1/server/webhooks/1/logs')).body.data as Array<{ payload: { data: { userId: string } } }>;
    expect(logs.map((log) => log.payload.data.userId)).toEqual(['d2', 'd3']);
    await emulator.close();
  });

  it('takes Infinity (no limit) and refuses a limit that is not a whole number of at least 1', () => {
    expect(() => createEmulator({ clock: { now: () => T0 }, limits: { records: Infinity, deliveries: Infinity } })).not.toThrow();
    for (const limits of [{ records: 0 }, { deliveries: 1.5 }, { records: Number.NaN }, { deliveries: -1 }]) {
      expect(() => createEmulator({ limits })).toThrow(/Invalid limits: (records|deliveries) must be a whole number of at least 1, or Infinity/);
    }
  });
});
