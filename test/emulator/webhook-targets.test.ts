// Webhook receivers: where the emulator delivers (loopback and `webhookHosts` only: a holder of the sandbox Server key
// on a shared dev box must not make it post to other machines of its network) and how many it keeps registered
// (`limits.webhooks`). Both were unbounded: any http(s) address, any number of receivers.
import { describe, expect, it } from 'vitest';
import { createEmulator, DEFAULT_LIMITS } from '../../emulator/index.js';
import { MAX_WEBHOOK_URL_LENGTH } from '../../emulator/webhook-targets.js';
import { caller, emulatorAtT0, startReceiver } from './helpers.js';

const HOST_MESSAGE = "must name a loopback host (localhost, 127.0.0.1, [::1]) or one of the emulator's webhookHosts";
const create = (url: string, extra: Record<string, unknown> = {}) => ({ body: { url, eventType: 'coupon.redeemed', retryCount: 0, ...extra } });

describe('emulator webhook receiver addresses', () => {
  it('takes loopback receivers by default, in the forms a URL writes them', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    for (const url of ['http://localhost:8788/hooks', 'http://127.0.0.1:9/h', 'https://127.0.0.1/h', 'http://127.1.2.3/h', 'http://[::1]:3000/h', 'http://LOCALHOST/h']) {
      expect((await call('POST', '/v1/server/webhooks', create(url))).status, url).toBe(201);
    }
    await emulator.close();
  });

  it.each([
    'https://game.example/hooks',
    'http://10.0.0.7/hooks',
    'http://169.254.169.254/latest/meta-data/',
    'http://192.168.1.20:8080/h',
    'http://0.0.0.0:8788/h',
    'http://[fd00::7]/h',
    'http://[::ffff:127.0.0.1]/h',
    'http://localhost./h',
    'http://127.0.0.1.nip.io/h',
    'http://sub.localhost/h',
  ])('refuses a receiver at %s (400 VALIDATION_ERROR on url), in test mode too, and stores nothing', async (url) => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    for (const isTest of [false, true]) {
      const answer = await call('POST', '/v1/server/webhooks', create(url, { isTest }));
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        status: 400,
        error: 'Bad Request',
        code: 'VALIDATION_ERROR',
        message: `Request validation failed: url: ${HOST_MESSAGE}`,
        details: [{ path: 'url', message: HOST_MESSAGE }],
      });
    }
    // Nor can a receiver be moved there.
    const id = (await call('POST', '/v1/server/webhooks', create('http://127.0.0.1:9/h'))).body.data.id;
    const moved = await call('PUT', `/v1/server/webhooks/${id}`, { body: { url } });
    expect(moved.status).toBe(400);
    expect(moved.body.details).toEqual([{ path: 'url', message: HOST_MESSAGE }]);
    expect(emulator.state().webhooks.map((hook) => hook.url)).toEqual(['http://127.0.0.1:9/h']);
    await emulator.close();
  });

  it('takes the hosts of webhookHosts besides loopback, as a URL writes them', async () => {
    const emulator = emulatorAtT0({ webhookHosts: ['Game-Server.internal', '10.0.0.7', 'fd00::7', '[fd00::8]'] });
    const call = caller(emulator);
    for (const url of ['https://game-server.internal/h', 'http://GAME-SERVER.internal:8080/h', 'http://10.0.0.7/h', 'http://[fd00::7]/h', 'http://[fd00::8]:1/h', 'http://127.0.0.1/h']) {
      expect((await call('POST', '/v1/server/webhooks', create(url))).status, url).toBe(201);
    }
    for (const url of ['http://other.internal/h', 'http://10.0.0.8/h', 'http://game-server.internal.evil.example/h']) {
      expect((await call('POST', '/v1/server/webhooks', create(url))).body.details, url).toEqual([{ path: 'url', message: HOST_MESSAGE }]);
    }
    await emulator.close();
  });

  it("takes receivers at the emulator's own host too, unless that is a wildcard", async () => {
    for (const [host, url, status] of [
      ['devbox.internal', 'http://devbox.internal:8788/h', 201],
      ['10.0.0.9', 'http://10.0.0.9/h', 201],
      ['0.0.0.0', 'http://0.0.0.0/h', 400],
      ['::', 'http://[::]/h', 400],
    ] as const) {
      const emulator = emulatorAtT0({ host });
      expect((await caller(emulator)('POST', '/v1/server/webhooks', create(url))).status, host).toBe(status);
      await emulator.close();
    }
  });

  it.each(['http://game.example', 'game.example:8080', 'game.example/hooks', '', 'user@game.example', 'a b'])('refuses webhookHosts entry %j at creation', (host) => {
    expect(() => createEmulator({ webhookHosts: [host] })).toThrow(new TypeError(`Invalid webhookHosts: ${JSON.stringify(host)} is not a host name or IP address (no scheme, port or path)`));
  });

  it('refuses webhookHosts given as a lone string (it would read as one host per character)', () => {
    expect(() => createEmulator({ webhookHosts: 'game.example' as unknown as string[] })).toThrow(
      new TypeError('Invalid webhookHosts: must be an array of host names, got "game.example"'),
    );
  });

  it('refuses an address longer than 2048 characters, or one with a user name or password (fetch refuses those)', async () => {
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    const base = 'http://127.0.0.1:9/';
    expect((await call('POST', '/v1/server/webhooks', create(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length)))).status).toBe(201);
    const long = await call('POST', '/v1/server/webhooks', create(base + 'a'.repeat(MAX_WEBHOOK_URL_LENGTH - base.length + 1)));
    expect(long.status).toBe(400);
    expect(long.body.details).toEqual([{ path: 'url', message: 'must be at most 2048 characters' }]);
    for (const url of ['http://user:secret@127.0.0.1:9/h', 'http://user@localhost/h']) {
      const answer = await call('POST', '/v1/server/webhooks', create(url));
      expect(answer.status).toBe(400);
      expect(answer.body.details).toEqual([{ path: 'url', message: 'must not carry a user name or password' }]);
    }
    expect(emulator.state().webhooks).toHaveLength(1);
    await emulator.close();
  });

  it('delivers to a loopback receiver as before', async () => {
    const receiver = await startReceiver();
    const emulator = emulatorAtT0();
    const call = caller(emulator);
    expect((await call('POST', '/v1/server/webhooks', create(receiver.url.replace('127.0.0.1', 'localhost')))).status).toBe(201);
    expect((await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'u1' } })).status).toBe(200);
    await emulator.webhooksIdle();
    expect(receiver.events().map((event) => event.type)).toEqual(['coupon.redeemed']);
    await emulator.close();
    await receiver.close();
  });
});

describe('emulator webhook receiver count', () => {
  it('registers at most 100 receivers by default', () => {
    expect(DEFAULT_LIMITS.webhooks).toBe(100);
  });

  it('refuses a receiver beyond limits.webhooks (400 BAD_REQUEST, test mode too) until one is deleted or the emulator reset', async () => {
    const emulator = emulatorAtT0({ limits: { webhooks: 3 } });
    const call = caller(emulator);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await call('POST', '/v1/server/webhooks', create(`http://127.0.0.1:9/${i}`))).body.data.id);
    for (const isTest of [false, true]) {
      const over = await call('POST', '/v1/server/webhooks', create('http://127.0.0.1:9/over', { isTest }));
      expect(over.status).toBe(400);
      expect(over.body).toEqual({
        status: 400,
        error: 'Bad Request',
        code: 'BAD_REQUEST',
        message: 'At most 3 webhook receivers can be registered at once: delete one (DELETE /v1/server/webhooks/{id}) or reset the emulator',
      });
    }
    expect(emulator.state().webhooks.map((hook) => hook.id)).toEqual(ids);
    // Updating one at the cap is no registration.
    expect((await call('PUT', `/v1/server/webhooks/${ids[0]}`, { body: { isActive: false } })).status).toBe(200);
    expect((await call('DELETE', `/v1/server/webhooks/${ids[1]}`)).status).toBe(204);
    expect((await call('POST', '/v1/server/webhooks', create('http://127.0.0.1:9/next'))).status).toBe(201);
    expect((await call('POST', '/v1/server/webhooks', create('http://127.0.0.1:9/more'))).status).toBe(400);
    emulator.reset();
    expect((await call('POST', '/v1/server/webhooks', create('http://127.0.0.1:9/after-reset'))).status).toBe(201);
    await emulator.close();
  });

  it('takes Infinity for no cap, and refuses a cap that is not a whole number of at least 1', () => {
    expect(() => createEmulator({ limits: { webhooks: Infinity } })).not.toThrow();
    expect(() => createEmulator({ limits: { webhooks: 0 } })).toThrow(new TypeError('Invalid limits: webhooks must be a whole number of at least 1, or Infinity'));
  });
});
