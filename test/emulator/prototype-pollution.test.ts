// The emulator in a test process where a library polluted Object.prototype with an enumerable key (a deep merge of
// untrusted JSON does: `Object.prototype.isTest = true`), and bodies naming `__proto__`, `constructor`, `prototype`.
// Every endpoint must answer exactly as in a clean process, and store exactly what it stores there.
import { afterEach, describe, expect, it } from 'vitest';
import { startEmulator } from '../../emulator/index.js';
import { caller, emulatorAtT0, paymentBody, pkcePair, sessionBody, startReceiver, subscribe } from './helpers.js';

/** Random tokens (web view session ids, one-time tokens, webhook secrets) differ from run to run. */
function normalized(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value).replace(/(wvs_|ott_|whsec_)[A-Za-z0-9_+/=-]+/g, '$1…'));
}

/** One request to every endpoint of the spec (and the controls), in an order that uses what earlier ones made. */
async function scenario(): Promise<{ answers: unknown[]; state: unknown }> {
  const emulator = emulatorAtT0();
  const call = caller(emulator);
  const client = { key: emulator.clientKey };
  const answers: unknown[] = [];
  const record = async (method: string, path: string, options: Parameters<typeof call>[2] = {}) => {
    const answer = await call(method, path, options);
    answers.push([method, path, answer.status, answer.headers.get('content-type'), answer.body]);
    return answer;
  };
  await record('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1') });
  await record('POST', '/v1/server/playtime/sessions', { body: sessionBody('s2', { metadata: { level: 3, nested: { a: [1, { b: 2 }] } } }) });
  await record('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1') });
  await record('POST', '/v1/server/playtime/sessions', { body: { userId: 'user_1' } });
  await record('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: [sessionBody('b1'), sessionBody('b1'), { sessionId: 'b3' }] } });
  await record('POST', '/v1/server/payments/bulk', { body: { payments: [paymentBody('t1'), paymentBody('t1'), { transactionId: 't3' }] } });
  await record('POST', '/v1/server/payments', { body: paymentBody('t2', { currency: 'EUR' }) });
  await record('GET', '/v1/server/payments/t2');
  await record('GET', '/v1/server/payments/missing');
  await record('POST', '/v1/server/coupons/validate', { body: { couponCode: 'WELCOME', userId: 'user_1' } });
  await record('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'user_1' } });
  await record('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'user_1' } });
  await record('GET', '/v1/server/coupons/user/user_1');
  await record('POST', '/v1/server/sponsors', { body: { userId: 'user_2', creatorKey: 'LUNA7' } });
  await record('PUT', '/v1/server/sponsors/user/user_2', { body: { newCreatorKey: 'PIXEL' } });
  await record('GET', '/v1/server/sponsors/user/user_2/history');
  await record('GET', '/v1/client/sponsors/user/user_2', client);
  await record('GET', '/v1/server/campaigns');
  await record('GET', '/v1/server/campaigns?page=1&limit=1');
  await record('GET', '/v1/server/campaigns/cmp_spring_festival/creators');
  await record('GET', '/v1/client/campaigns/cmp_spring_festival', client);
  await record('GET', '/v1/client/creators/search?q=a', client);
  await record('GET', '/v1/client/creators/LUNA7', client);
  await record('POST', '/v1/server/webhooks', { body: { url: 'http://127.0.0.1:9/hook', eventType: 'payment.refunded' } });
  await record('PUT', '/v1/server/webhooks/1', { body: { timeoutMs: 5000 } });
  await record('GET', '/v1/server/webhooks/1/logs');
  await record('DELETE', '/v1/server/webhooks/1');
  const pkce = pkcePair();
  await record('POST', '/v1/server/webview/ott', { body: { userId: 'user_3', codeChallenge: pkce.challenge } });
  const ott = emulator.state().webview.tokens[0]!.ott;
  const exchange = await record('POST', '/v1/webview/sessions', { key: null, body: { ott, codeVerifier: pkce.verifier } });
  const sessionId = exchange.body?.data?.sessionId;
  await record('GET', `/v1/webview/sessions/${sessionId}`, { key: null });
  await record('PUT', `/v1/webview/sessions/${sessionId}/boost`, { key: null, body: { creatorKey: 'NOVA1' } });
  const page = await emulator.fetch(new Request('http://emulator.local/webview'));
  answers.push(['GET', '/webview', page.status, page.headers.get('content-type')]);
  await record('OPTIONS', '/v1/server/campaigns', { key: null, headers: { origin: 'https://game.example', 'access-control-request-method': 'GET' } });
  await record('GET', '/v1/nowhere');
  await record('POST', '/v1/server/playtime/sessions', { raw: '{"sessionId":', key: undefined });
  await record('POST', '/_emulator/clock', { body: { advanceMs: 1000 } });
  await record('POST', '/_emulator/faults', { body: { latencyMs: 0 } });
  return { answers: normalized(answers) as unknown[], state: normalized(emulator.state()) };
}

/** Runs `work` with `key` enumerable on Object.prototype, as a polluting merge leaves it. */
async function polluted<T>(key: string, value: unknown, work: () => Promise<T>): Promise<T> {
  Object.defineProperty(Object.prototype, key, { value, enumerable: true, writable: true, configurable: true });
  try {
    return await work();
  } finally {
    delete (Object.prototype as Record<string, unknown>)[key];
  }
}

describe('a polluted Object.prototype', () => {
  afterEach(() => {
    expect(Object.keys({})).toEqual([]);
  });

  // Each key one the emulator or hono reads from an object that may lack it: a merge's own key (`x`), the body
  // fields of the spec's writes, query names, the web view's records, hono's body cache (`then` on a cached promise).
  const keys: Array<[string, unknown]> = [
    ['x', {}],
    ['polluted', 'yes'],
    ['isTest', true],
    ['metadata', { injected: true }],
    ['campaignId', 'cmp_injected'],
    ['creatorKey', 'NOVA1'],
    ['callbackId', 'cb_injected'],
    ['productName', 'injected'],
    ['netAmount', 1],
    ['retryCount', 0],
    ['limit', '1'],
    ['page', '9'],
    ['isActive', false],
    ['token', { state: 'ISSUED' }],
    ['session', { valid: true }],
    ['json', {}],
    ['text', {}],
    ['errorRate', 1],
    ['rateLimitPerSecond', 1],
    // createEmulator's own options, which the scenario leaves out.
    ['clock', { now: () => 0 }],
    ['fixtures', {}],
    ['keys', {}],
    ['x', () => 1],
  ];

  it.each(keys)('Object.prototype.%s: every endpoint answers and stores as in a clean process', async (key, value) => {
    const clean = await scenario();
    const withPollution = await polluted(key, value, scenario);
    expect(withPollution.answers).toEqual(clean.answers);
    expect(withPollution.state).toEqual(clean.state);
  });
});

describe('a polluted Object.prototype and webhook deliveries', () => {
  it('an event of a request without callbackId carries none, in the envelope or the delivery log', async () => {
    const receiver = await startReceiver();
    const emulator = emulatorAtT0();
    try {
      await subscribe(emulator, receiver.url, ['coupon.redeemed']);
      await polluted('callbackId', 'cb_injected', async () => {
        const answer = await caller(emulator)('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'user_1' } });
        expect(answer.status).toBe(200);
        await emulator.webhooksIdle();
      });
      expect(receiver.events().map((event) => Object.hasOwn(event, 'callbackId'))).toEqual([false]);
      expect(emulator.state().deliveries.map((delivery) => [delivery.status, Object.hasOwn(delivery, 'callbackId')])).toEqual([['SUCCESS', false]]);
    } finally {
      await emulator.close();
      await receiver.close();
    }
  });
});

describe('a polluted Object.prototype over HTTP', () => {
  it('startEmulator serves the spec body, the web view page and a preflight', async () => {
    const emulator = await polluted('x', {}, () => startEmulator({ port: 0 }));
    try {
      const answers = await polluted('x', {}, async () => {
        const post = await fetch(`${emulator.url}/v1/server/playtime/sessions`, {
          method: 'POST',
          headers: { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json' },
          body: JSON.stringify(sessionBody('s1')),
        });
        const page = await fetch(`${emulator.url}/webview`);
        const preflight = await fetch(`${emulator.url}/v1/client/campaigns/x`, { method: 'OPTIONS', headers: { origin: 'https://game.example', 'access-control-request-method': 'GET' } });
        return [post.status, (await post.json()).data.recorded, page.status, page.headers.get('content-type'), preflight.status, preflight.headers.get('access-control-allow-origin')];
      });
      expect(answers).toEqual([201, true, 200, 'text/html; charset=UTF-8', 204, '*']);
    } finally {
      await emulator.close();
    }
  });
});

describe('bodies naming __proto__, constructor and prototype', () => {
  it('a top-level __proto__ is no field: the write is checked and stored by its own fields only', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    const body = JSON.stringify(sessionBody('s1'));
    const answer = await call('POST', '/v1/server/playtime/sessions', { raw: `{"__proto__":{"isTest":true,"metadata":{"x":1}},${body.slice(1)}` });
    expect(answer.status).toBe(201);
    const stored = emulator.state().sessions;
    expect(stored.map((s) => s.sessionId)).toEqual(['s1']);
    expect(stored[0]!.metadata).toBeUndefined();
    const missing = await call('POST', '/v1/server/coupons/redeem', { raw: '{"__proto__":{"couponCode":"WELCOME","userId":"u"}}' });
    expect(missing.status).toBe(400);
    expect(missing.body.details.map((d: { path: string }) => d.path)).toEqual(['couponCode', 'userId']);
  });

  it('metadata keeps __proto__ and constructor as its own keys, and nothing else changes', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    const body = JSON.stringify(sessionBody('s1'));
    const raw = `{"metadata":{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}},${body.slice(1)}`;
    expect((await call('POST', '/v1/server/playtime/sessions', { raw })).status).toBe(201);
    const [session] = emulator.state().sessions;
    expect(JSON.stringify(session!.metadata)).toBe('{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":2}}}');
    expect(Object.keys({})).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
