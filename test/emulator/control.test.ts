// Control endpoints in-process: the state snapshot (fixtures, records, request counts), the clock, faults, reset;
// the loopback-only rule as @hono/node-server presents a remote address; the CSRF guards (same origin, JSON only).
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { AppEnv } from '../../emulator/app-env.js';
import { DEMO_PROJECT_ID, DEMO_USERS, demoFixtures } from '../../emulator/index.js';
import { isLoopback, isLoopbackHost } from '../../emulator/middleware/access.js';
import { loopbackOnly } from '../../emulator/middleware/access.js';
import { at, caller, DAY_MS, emulatorAtT0, sessionBody, T0 } from './helpers.js';

describe('emulator control endpoints', () => {
  it('GET /_emulator/state returns fixtures, everything recorded and request counts per route, like state()', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    await call('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: [sessionBody('s1')] } });
    await call('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: [sessionBody('s2')] } });
    await call('GET', '/v1/server/payments/tx_none');
    await call('GET', '/v1/server/campaigns', { key: 'wrong:key' });
    await call('POST', '/v1/server/webhooks', { body: { url: 'http://127.0.0.1:9/h', eventType: 'payment.created' } });
    const answer = await call('GET', '/_emulator/state', { key: null });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(emulator.state());
    expect(answer.body.requests).toEqual({
      'POST /v1/server/playtime/sessions/bulk': 2,
      'GET /v1/server/payments/:transactionId': 1,
      'GET /v1/server/campaigns': 1,
      'POST /v1/server/webhooks': 1,
    });
    expect(answer.body.fixtures).toEqual(demoFixtures(T0));
    expect(answer.body.now).toBe(at(0));
    expect(answer.body.sessions.map((s: { sessionId: string }) => s.sessionId)).toEqual(['s1', 's2']);
    expect(answer.body.boosts.map((b: { userId: string }) => b.userId)).toEqual([DEMO_USERS.changeable, DEMO_USERS.inCooldown]);
    expect(answer.body.webhooks[0].secret).toBeUndefined();
    expect(Object.keys(answer.body).sort()).toEqual(
      ['boostHistory', 'boosts', 'couponUsages', 'deliveries', 'faults', 'fixtures', 'now', 'payments', 'requests', 'sessions', 'webhooks', 'webview'].sort(),
    );
  });

  it('state() is a copy: changing it changes nothing inside', () => {
    const emulator = emulatorAtT0();
    const state = emulator.state();
    state.fixtures.projectId = 'changed';
    state.boosts.length = 0;
    expect(emulator.state().fixtures.projectId).toBe(DEMO_PROJECT_ID);
    expect(emulator.state().boosts).toHaveLength(2);
  });

  it('POST /_emulator/clock moves emulator time (cooldowns, timestamps) and checks its body', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    const moved = await call('POST', '/_emulator/clock', { key: null, body: { advanceMs: 20 * DAY_MS } });
    expect(moved.body).toEqual({ data: { now: at(20 * DAY_MS) } });
    const change = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.inCooldown}`, { body: { newCreatorKey: 'NOVA1' } });
    expect(change.status).toBe(200);
    expect(change.body.data.sponsoredAt).toBe(at(20 * DAY_MS));
    const bad = await call('POST', '/_emulator/clock', { key: null, body: { advanceMs: -5 } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'advanceMs', message: 'must be at least 0' }]);
    expect(() => emulator.advanceClock(-1)).toThrow(TypeError);
  });

  it('refuses a move past 9999-12-31T23:59:59.999Z (400), and the emulator keeps answering', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    const past = await call('POST', '/_emulator/clock', { key: null, body: { advanceMs: 9e15 } });
    expect(past.status).toBe(400);
    expect(past.body.details).toEqual([{ path: 'advanceMs', message: 'advanceClock cannot move the clock past 9999-12-31T23:59:59.999Z' }]);
    expect(() => emulator.advanceClock(Number.MAX_SAFE_INTEGER)).toThrow(new TypeError('advanceClock cannot move the clock past 9999-12-31T23:59:59.999Z'));
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(200);
    expect(emulator.state().now).toBe(at(0));
    const toTheEnd = Date.parse('9999-12-31T23:59:59.999Z') - Date.parse(at(0));
    expect((await call('POST', '/_emulator/clock', { key: null, body: { advanceMs: toTheEnd } })).body).toEqual({ data: { now: '9999-12-31T23:59:59.999Z' } });
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(200);
  });

  it('POST /_emulator/faults sets any subset of the faults and answers them all', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    const answer = await call('POST', '/_emulator/faults', { key: null, body: { errorRate: 1, rateLimitPerSecond: 7 } });
    expect(answer.body).toEqual({ data: { errorRate: 1, latencyMs: 0, dropRate: 0, rateLimitPerSecond: 7 } });
    expect((await call('GET', '/v1/server/campaigns')).status).toBe(500);
    const bad = await call('POST', '/_emulator/faults', { key: null, body: { errorRate: 1.5, latencyMs: 'slow' } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([
      { path: 'errorRate', message: 'must be at most 1' },
      { path: 'latencyMs', message: 'must be a number' },
    ]);
  });

  it('refuses a latencyMs no timer can wait (above 2^31 - 1 ms, which setTimeout runs at once) rather than answer without it', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    const bad = await call('POST', '/_emulator/faults', { key: null, body: { latencyMs: 2 ** 31 } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ path: 'latencyMs', message: 'must be at most 2147483647' }]);
    expect(emulator.state().faults.latencyMs).toBe(0);
    expect(() => emulator.setFaults({ latencyMs: 3_000_000_000 })).toThrow(TypeError);
    expect(() => emulatorAtT0({ faults: { latencyMs: 3_000_000_000 } })).toThrow(TypeError);
    expect((await call('POST', '/_emulator/faults', { key: null, body: { latencyMs: 2 ** 31 - 1 } })).status).toBe(200);
  });

  it('POST /_emulator/reset (and reset()) goes back to the fixtures: records, webhooks, clock, faults, counts', async () => {
    const emulator = emulatorAtT0({ faults: { rateLimitPerSecond: 100 } });
    const call = caller(emulator);
    const pristine = emulator.state();
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1') });
    await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'u1' } });
    await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.changeable}`, { body: { newCreatorKey: 'NOVA1' } });
    await call('POST', '/v1/server/webhooks', { body: { url: 'http://127.0.0.1:9/h', eventType: 'payment.created' } });
    emulator.advanceClock(DAY_MS);
    emulator.setFaults({ latencyMs: 5 });
    const answer = await call('POST', '/_emulator/reset', { key: null });
    expect(answer.body).toEqual({ data: { now: at(0) } });
    expect(emulator.state()).toEqual(pristine);
    const created = await call('POST', '/v1/server/webhooks', { body: { url: 'http://127.0.0.1:9/h', eventType: 'payment.created' } });
    expect(created.body.data.id).toBe(1);
  });

  it('refuses control requests with an Origin of another origin (403 FORBIDDEN) and changes nothing', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('kept') });
    for (const origin of ['https://evil.example', 'http://emulator.local:8080', 'null']) {
      const reset = await call('POST', '/_emulator/reset', { key: null, headers: { origin } });
      expect(reset.status).toBe(403);
      expect(reset.body).toEqual({ status: 403, error: 'Forbidden', message: `Emulator controls refuse requests from another origin (${origin})`, code: 'FORBIDDEN' });
      const clock = await call('POST', '/_emulator/clock', { key: null, headers: { origin }, body: { advanceMs: DAY_MS } });
      expect(clock.status).toBe(403);
      expect((await call('GET', '/_emulator/state', { key: null, headers: { origin } })).status).toBe(403);
    }
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['kept']);
    expect(emulator.state().now).toBe(at(0));
    const same = await call('POST', '/_emulator/reset', { key: null, headers: { origin: 'http://emulator.local' } });
    expect(same.status).toBe(200);
    expect(emulator.state().sessions).toEqual([]);
  });

  it('takes a control POST without a body or with JSON, and answers 415 for any other declared type, even empty', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      await call('POST', '/v1/server/playtime/sessions', { body: sessionBody(`s-${contentType.length}`) });
      const answer = await call('POST', '/_emulator/reset', { key: null, raw: '', contentType });
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({ status: 415, error: 'Unsupported Media Type', message: 'Request body must be JSON with Content-Type: application/json', code: 'BAD_REQUEST' });
      expect(emulator.state().sessions).not.toEqual([]);
      expect((await call('POST', '/_emulator/clock', { key: null, raw: '{"advanceMs":1}', contentType })).status).toBe(415);
    }
    expect(emulator.state().now).toBe(at(0));
    expect((await call('POST', '/_emulator/reset', { key: null })).status).toBe(200);
    expect((await call('POST', '/_emulator/reset', { key: null, raw: '', contentType: 'application/json' })).body).toEqual({ data: { now: at(0) } });
    expect(emulator.state().sessions).toEqual([]);
  });

  it('answers control requests only from loopback addresses when a socket is present', async () => {
    expect(['127.0.0.1', '127.9.8.7', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1'].map(isLoopback)).toEqual([false, false, false, false]);
    expect(['localhost', 'LOCALHOST:80', '127.0.0.1:8787', '[::1]:9', '[::1]'].map(isLoopbackHost)).toEqual([true, true, true, true, true]);
    expect(['evil.example', 'localhost.evil.example:80', '10.0.0.5:80', '[fe80::1]:80'].map(isLoopbackHost)).toEqual([false, false, false, false]);
    const app = new Hono<AppEnv>().use('*', loopbackOnly).get('/_emulator/state', (c) => c.json({ ok: true }));
    const remote = { incoming: { socket: { remoteAddress: '10.0.0.5' } } } as unknown as AppEnv['Bindings'];
    const local = { incoming: { socket: { remoteAddress: '127.0.0.1' } } } as unknown as AppEnv['Bindings'];
    const denied = await app.fetch(new Request('http://emulator.local/_emulator/state'), remote);
    expect(denied.status).toBe(403);
    expect(await denied.json()).toEqual({ status: 403, error: 'Forbidden', message: 'Emulator controls answer only loopback addresses', code: 'FORBIDDEN' });
    expect((await app.fetch(new Request('http://emulator.local/_emulator/state'), local)).status).toBe(200);
    expect((await app.fetch(new Request('http://emulator.local/_emulator/state'))).status).toBe(200);
  });
});
