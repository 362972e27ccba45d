// Webhook receivers: create (201, secret only there), update any subset (no secret), delete (204, 404 after),
// logs (404 for unknown), validation.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { dataOf } from '../../core/schema/primitives.js';
import { CreatedWebhook, CreateWebhookRequest, UpdateWebhookRequest, WebhookConfig, WebhookDeliveryLog } from '../../core/schema/webhooks.js';
import { at, caller, emulatorAtT0, problemsOf } from './helpers.js';

describe('emulator webhook API', () => {
  const emulator = emulatorAtT0();
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
      ['GET', '/v1/server/webhooks/abc/logs'],
    ] as const) {
      const answer = await call(method, path, method === 'PUT' ? { body: { isActive: true } } : {});
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('NOT_FOUND');
    }
    expect((await call('DELETE', '/v1/server/webhooks/999')).body).toEqual({ status: 404, error: 'Not Found', message: 'Webhook 999 not found', code: 'NOT_FOUND' });
  });
});
