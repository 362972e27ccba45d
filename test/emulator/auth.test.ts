// Authentication: 401 without a valid key, 403 for a Client key on the Server API, the Server key on both surfaces,
// and the keyless web view routes.
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_KEYS, DEMO_ACTIVE_CAMPAIGN_ID } from '../../emulator/index.js';
import { caller, emulatorAtT0 } from './helpers.js';

describe('emulator authentication', () => {
  const emulator = emulatorAtT0();
  const call = caller(emulator);

  it('uses the fixed sandbox keys of the form <key_id>:<secret> by default', () => {
    expect(emulator.clientKey).toBe(DEFAULT_KEYS.clientKey);
    expect(emulator.serverKey).toBe(DEFAULT_KEYS.serverKey);
    expect(emulator.clientKey).toMatch(/^[^:\s]+:[^\s]+$/);
    expect(emulator.serverKey).toMatch(/^[^:\s]+:[^\s]+$/);
  });

  it('answers 401 UNAUTHORIZED without an Authorization header', async () => {
    const answer = await call('GET', '/v1/server/campaigns', { key: null });
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual({
      status: 401,
      error: 'Unauthorized',
      message: 'Missing API key: send Authorization: Bearer <key_id>:<secret>',
      code: 'UNAUTHORIZED',
    });
  });

  it('answers 401 UNAUTHORIZED for an unknown key, on both surfaces', async () => {
    for (const path of ['/v1/server/campaigns', `/v1/client/campaigns/${DEMO_ACTIVE_CAMPAIGN_ID}`]) {
      const answer = await call('GET', path, { key: 'sk_other:wrong' });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ status: 401, error: 'Unauthorized', message: 'Invalid API key', code: 'UNAUTHORIZED' });
    }
  });

  it('answers 401 for a key sent with another scheme than Bearer', async () => {
    const answer = await call('GET', '/v1/server/campaigns', { key: null, headers: { authorization: `Basic ${emulator.serverKey}` } });
    expect(answer.status).toBe(401);
    expect(answer.body.code).toBe('UNAUTHORIZED');
    // The header is there: the answer says what is wrong with it, not that it is missing.
    expect(answer.body.message).toBe('The Authorization header must be Bearer <key_id>:<secret> (one key, the Bearer scheme)');
    const twoKeys = await call('GET', '/v1/server/campaigns', { key: null, headers: { authorization: `Bearer ${emulator.serverKey}, Bearer ${emulator.serverKey}` } });
    expect(twoKeys.status).toBe(401);
    expect(twoKeys.body.message).toBe(answer.body.message);
  });

  it('answers 403 FORBIDDEN for a Client key on a Server API endpoint', async () => {
    const answer = await call('POST', '/v1/server/coupons/redeem', { key: emulator.clientKey, body: { couponCode: 'WELCOME', userId: 'u1' } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      status: 403,
      error: 'Forbidden',
      message: 'A Client key cannot call the Server API; use the Server key',
      code: 'FORBIDDEN',
    });
    expect(emulator.state().couponUsages).toEqual([]);
  });

  it('lets the Client key call the Client API', async () => {
    const answer = await call('GET', `/v1/client/campaigns/${DEMO_ACTIVE_CAMPAIGN_ID}`, { key: emulator.clientKey });
    expect(answer.status).toBe(200);
    expect(answer.body.data.campaignId).toBe(DEMO_ACTIVE_CAMPAIGN_ID);
  });

  it.each([
    ['GET', `/v1/client/campaigns/${DEMO_ACTIVE_CAMPAIGN_ID}`],
    ['GET', `/v1/client/campaigns/${DEMO_ACTIVE_CAMPAIGN_ID}/creators`],
    ['GET', '/v1/client/creators/LUNA7'],
    ['GET', '/v1/client/creators/search?q=lu'],
    ['GET', '/v1/client/sponsors/user/user_boost_40d'],
  ])('refuses the Server key on the Client API (%s %s) with 403 FORBIDDEN: a Server key never belongs in a game', async (method, path) => {
    const answer = await call(method, path, { key: emulator.serverKey });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      status: 403,
      error: 'Forbidden',
      message: 'The Server key cannot call the Client API; game clients use the Client key (a Server key must never ship in a game)',
      code: 'FORBIDDEN',
    });
  });

  it('needs no key for the web view exchange and the web view page', async () => {
    const exchange = await call('POST', '/v1/webview/sessions', { key: null, body: {} });
    expect(exchange.status).toBe(400);
    expect(exchange.body.code).toBe('VALIDATION_ERROR');
    const page = await emulator.fetch(new Request('http://emulator.local/webview'));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  });

  it('accepts the keys given in the options and only those', async () => {
    const custom = createEmulator({ keys: { clientKey: 'ck_1:one', serverKey: 'sk_1:two' } });
    const callCustom = caller(custom);
    expect((await callCustom('GET', '/v1/server/campaigns', { key: 'sk_1:two' })).status).toBe(200);
    expect((await callCustom('GET', '/v1/server/campaigns', { key: 'ck_1:one' })).status).toBe(403);
    expect((await callCustom('GET', '/v1/server/campaigns', { key: DEFAULT_KEYS.serverKey })).status).toBe(401);
    await custom.close();
  });

  it('refuses keys that cannot work as the spec has them: missing, not <key_id>:<secret>, or the same key twice', () => {
    const refused: Array<[unknown, RegExp]> = [
      [{ clientKey: 'ck_1:one' }, /serverKey must be a string <key_id>:<secret>.*got undefined/],
      [{ clientKey: 'ck_1:one', serverKey: 'ck_1:one' }, /clientKey and serverKey must differ/],
      [{ clientKey: 'ck 1:one', serverKey: 'sk_1:two' }, /clientKey must be .*"ck 1:one"/],
      [{ clientKey: '', serverKey: 'sk_1:two' }, /clientKey must be/],
      [{ clientKey: 'ck_1:one', serverKey: 'sk_1' }, /serverKey must be .*"sk_1"/],
      [{ clientKey: 'ck_1:one', serverKey: 42 }, /serverKey must be .*got 42/],
    ];
    for (const [keys, message] of refused) {
      expect(() => createEmulator({ keys: keys as never }), JSON.stringify(keys)).toThrow(message);
    }
    expect(() => createEmulator({ keys: { clientKey: 'ck_1:one', serverKey: 'sk_1:two:with-colon' } })).not.toThrow();
  });
});
