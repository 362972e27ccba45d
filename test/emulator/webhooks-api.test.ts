// Webhook receivers: create (201, secret only there), update any subset (no secret), delete (204, 404 after),
// logs (404 for unknown), validation; create and update in test mode (answered, nothing recorded or changed).
// The emulators here take receivers at game.example (`webhookHosts`): nothing is delivered in these tests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { dataOf } from '../../core/schema/primitives.js';
import { CreatedWebhook, CreateWebhookRequest, DeleteWebhookRequest, UpdateWebhookRequest, WebhookConfig, WebhookDeliveryLog } from '../../core/schema/webhooks.js';
import { at, caller, emulatorAtT0, problemsOf, startReceiver } from './helpers.js';

describe('emulator webhook API', () => {
  const emulator = emulatorAtT0({ webhookHosts: ['game.example'] });
  const call = caller(emulator);

  it('creates a receiver: 201 with defaults and a whsec_ secret shown only in this answer', async () => {
    const answer = await call('POST', '/v1/server/webhooks', { body: { url: 'https://game.example/hooks', eventType: 'coupon.redeemed' } });
    expect(answer.status).toBe(201);
    const { data } = dataOf(CreatedWebhook).parse(answer.body);
    expect(data).toEqual({
      id: 1,
      eventType: 'coupon.redeemed',
      url: 'https://game.example/hooks',
      isActive: true,
      retryCount: 3,
      timeoutMs: 5000,
      createdAt: at(0),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    expect(Buffer.from(data.secret.slice(6), 'base64')).toHaveLength(24);
    expect(JSON.stringify(emulator.state().webhooks)).not.toContain(data.secret);
    expect(emulator.state().webhooks).toEqual([{ id: 1, eventType: 'coupon.redeemed', url: 'https://game.example/hooks', isActive: true, retryCount: 3, timeoutMs: 5000, createdAt: at(0) }]);
  });

  it('requires eventType and checks retryCount and timeoutMs ranges', async () => {
    const body = { url: 'https://game.example/h', retryCount: -1, timeoutMs: 999 };
    const answer = await call('POST', '/v1/server/webhooks', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(CreateWebhookRequest, body));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['eventType', 'retryCount', 'timeoutMs']);
  });

  it('updates any subset of fields and answers without the secret', async () => {
    const created = await call('POST', '/v1/server/webhooks', { body: { url: 'https://game.example/a', eventType: 'sponsor.changed', retryCount: 1 } });
    const id = created.body.data.id;
    const updated = await call('PUT', `/v1/server/webhooks/${id}`, { body: { isActive: false, timeoutMs: 30000 } });
    expect(updated.status).toBe(200);
    expect(dataOf(WebhookConfig).parse(updated.body)).toEqual({
      data: { id, eventType: 'sponsor.changed', url: 'https://game.example/a', isActive: false, retryCount: 1, timeoutMs: 30000, createdAt: at(0) },
    });
    expect(updated.body.data.secret).toBeUndefined();
    const moved = await call('PUT', `/v1/server/webhooks/${id}`, { body: { url: 'http://127.0.0.1:9/b' } });
    expect(moved.body.data).toMatchObject({ url: 'http://127.0.0.1:9/b', isActive: false, timeoutMs: 30000 });
    const nothing = await call('PUT', `/v1/server/webhooks/${id}`, { body: {} });
    expect(nothing.body).toEqual(moved.body);
    const bad = await call('PUT', `/v1/server/webhooks/${id}`, { body: { retryCount: 11 } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(problemsOf(UpdateWebhookRequest, { retryCount: 11 }));
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['retryCount']);
  });

  it('deletes a receiver with 204 and no body; unknown ids answer 404 for update, delete and logs', async () => {
    const created = await call('POST', '/v1/server/webhooks', { body: { url: 'https://game.example/d', eventType: 'payment.created' } });
    const id = created.body.data.id;
    const logs = await call('GET', `/v1/server/webhooks/${id}/logs`);
    expect(dataOf(z.array(WebhookDeliveryLog)).parse(logs.body)).toEqual({ data: [] });
    const response = await emulator.fetch(
      new Request(`http://emulator.local/v1/server/webhooks/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${emulator.serverKey}` } }),
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe('');
    for (const [method, path] of [
      ['DELETE', `/v1/server/webhooks/${id}`],
      ['PUT', `/v1/server/webhooks/${id}`],
      ['GET', `/v1/server/webhooks/${id}/logs`],
      ['GET', '/v1/server/webhooks/0/logs'],
      ['GET', '/v1/server/webhooks/-1/logs'],
    ] as const) {
      const answer = await call(method, path, method === 'PUT' ? { body: { isActive: true } } : {});
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
    expect((await call('DELETE', '/v1/server/webhooks/999')).body).toEqual({ status: 404, error: 'Not Found', message: 'Webhook 999 not found', code: 'NOT_FOUND' });
  });
});

describe('emulator webhook API: a path id that is not an integer', () => {
  const emulator = emulatorAtT0({ webhookHosts: ['game.example'] });
  const call = caller(emulator);
  afterAll(async () => {
    await emulator.close();
  });

  // Spec: the path `id` is an integer, and a request parameter that fails validation is 400 VALIDATION_ERROR with
  // `details`. `01` (not how an integer is written, and so not the id the service gave) no longer reaches receiver 1.
  it('answers 400 VALIDATION_ERROR naming id for abc, 1.0, 01, 1e0 and +1, and leaves receiver 1 as it is', async () => {
    const created = await call('POST', '/v1/server/webhooks', { body: { url: 'https://game.example/v', eventType: 'payment.created' } });
    expect(created.body.data.id).toBe(1);
    for (const raw of ['abc', '1.0', '01', '1e0', '+1', '%201']) {
      for (const [method, path] of [
        ['PUT', `/v1/server/webhooks/${raw}`],
        ['DELETE', `/v1/server/webhooks/${raw}`],
        ['GET', `/v1/server/webhooks/${raw}/logs`],
      ] as const) {
        const answer = await call(method, path, method === 'PUT' ? { body: { isActive: false } } : {});
        expect([raw, method, answer.status, answer.body.code]).toEqual([raw, method, 400, 'VALIDATION_ERROR']);
        expect(answer.body.details).toEqual([{ path: 'id', message: 'must be an integer written in decimal digits (no plus sign, leading zero, fraction or exponent)' }]);
      }
    }
    const logs = await call('GET', '/v1/server/webhooks/1/logs');
    expect(logs.status).toBe(200);
    const updated = await call('PUT', '/v1/server/webhooks/1', { body: {} });
    expect(updated.body.data.isActive).toBe(true);
  });
});

describe('emulator webhook API in test mode (isTest: true)', () => {
  const emulator = emulatorAtT0({ webhookHosts: ['game.example'] });
  const call = caller(emulator);
  const state = async () => (await call('GET', '/_emulator/state', { key: null })).body;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('answers a creation with 201 and a mock config (id 0, a whsec_ secret), stores nothing and registers no receiver', async () => {
    const before = await state();
    const body = { url: receiver.url, eventType: 'coupon.redeemed', retryCount: 0, callbackId: 'cb-hook', isTest: true };
    const answer = await call('POST', '/v1/server/webhooks', { body });
    expect(answer.status).toBe(201);
    expect(dataOf(CreatedWebhook).parse(answer.body)).toEqual({
      data: {
        id: 0,
        eventType: 'coupon.redeemed',
        url: receiver.url,
        isActive: true,
        retryCount: 0,
        timeoutMs: 5000,
        createdAt: at(0),
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      },
    });
    const after = await state();
    expect(after.webhooks).toEqual([]);
    expect({ ...after, requests: undefined }).toEqual({ ...before, requests: undefined });
    // Nothing is delivered to the test receiver, and the next real receiver still gets id 1.
    expect((await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'DAILY', userId: 'user_1' } })).status).toBe(200);
    await emulator.webhooksIdle();
    expect(receiver.received).toEqual([]);
    expect((await state()).deliveries).toEqual([]);
    const real = await call('POST', '/v1/server/webhooks', { body: { url: 'https://game.example/real', eventType: 'payment.created' } });
    expect(real.body.data.id).toBe(1);
  });

  it('validates a test-mode creation exactly as a real one', async () => {
    const body = { url: 'ftp://game.example/h', eventType: 'coupon.redeemed', timeoutMs: 999, isTest: true };
    const answer = await call('POST', '/v1/server/webhooks', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(CreateWebhookRequest, body));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['url', 'timeoutMs']);
  });

  it('answers a test-mode update with the would-be config and changes nothing; 404 and validation as usual', async () => {
    const created = await call('POST', '/v1/server/webhooks', { body: { url: 'https://game.example/u', eventType: 'sponsor.changed' } });
    const id = created.body.data.id;
    const before = (await state()).webhooks;
    const update = { url: 'https://game.example/v', isActive: false, retryCount: 9, timeoutMs: 1000, callbackId: 'cb-up', isTest: true };
    const answer = await call('PUT', `/v1/server/webhooks/${id}`, { body: update });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { id, eventType: 'sponsor.changed', url: 'https://game.example/v', isActive: false, retryCount: 9, timeoutMs: 1000, createdAt: at(0) },
    });
    expect((await state()).webhooks).toEqual(before);
    expect(before.find((hook: { id: number }) => hook.id === id)).toEqual({
      id, eventType: 'sponsor.changed', url: 'https://game.example/u', isActive: true, retryCount: 3, timeoutMs: 5000, createdAt: at(0),
    });
    const missing = await call('PUT', '/v1/server/webhooks/999', { body: update });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, error: 'Not Found', message: 'Webhook 999 not found', code: 'NOT_FOUND' });
    const bad = await call('PUT', `/v1/server/webhooks/${id}`, { body: { retryCount: 11, isTest: true } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(problemsOf(UpdateWebhookRequest, { retryCount: 11, isTest: true }));
    expect((await state()).webhooks).toEqual(before);
  });

  // Spec "Test mode": every write operation shown accepts `isTest`, DELETE /v1/server/webhooks/{id} included; with it
  // the service records nothing. Before, the emulator never read a DELETE's body and removed the receiver.
  it('answers a test-mode delete (isTest in its JSON body) with 204 and keeps the receiver; 404, validation and JSON as usual', async () => {
    const created = await call('POST', '/v1/server/webhooks', { body: { url: 'https://game.example/t', eventType: 'payment.created' } });
    const id = created.body.data.id;
    const before = (await state()).webhooks;
    const answer = await call('DELETE', `/v1/server/webhooks/${id}`, { body: { isTest: true, callbackId: 'cb-del' } });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    expect((await state()).webhooks).toEqual(before);
    expect((await call('GET', `/v1/server/webhooks/${id}/logs`)).status).toBe(200);
    const missing = await call('DELETE', '/v1/server/webhooks/999', { body: { isTest: true } });
    expect(missing.body).toEqual({ status: 404, error: 'Not Found', message: 'Webhook 999 not found', code: 'NOT_FOUND' });
    const bad = await call('DELETE', `/v1/server/webhooks/${id}`, { body: { isTest: 'yes', callbackId: 7 } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(problemsOf(DeleteWebhookRequest, { isTest: 'yes', callbackId: 7 }));
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['callbackId', 'isTest']);
    const notJson = await call('DELETE', `/v1/server/webhooks/${id}`, { raw: 'isTest=true', contentType: 'application/x-www-form-urlencoded' });
    expect(notJson.status).toBe(415);
    expect((await state()).webhooks).toEqual(before);
    // isTest false (or no body at all, as before) deletes.
    expect((await call('DELETE', `/v1/server/webhooks/${id}`, { body: { isTest: false } })).status).toBe(204);
    expect((await state()).webhooks.some((hook: { id: number }) => hook.id === id)).toBe(false);
  });
});
