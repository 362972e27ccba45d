/**
 * A genuine delivery is never refused over its shape (issue 15): every case of shape-cases.ts through
 * verifyWebhook and createWebhookReceiver, accepted with the expected typed view and `raw`, and refused as
 * invalid_signature with one byte changed. Then the edges of the lenient reading and the types.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { SentWebhookEvent, WEBHOOK_EVENT_FIELDS, type ReceivedWebhookEvent, type UnknownWebhookEvent, type WebhookEventOf } from '../../../core/schema/events.js';
import { WEBHOOK_EVENT_TYPES } from '../../../core/schema/webhooks.js';
import { isWebhookVerificationError } from '../../../core/webhooks/errors.js';
import { isKnownWebhookEvent } from '../../../core/webhooks/read-event.js';
import { createWebhookReceiver } from '../../../core/webhooks/receiver.js';
import type { WebhookScheme } from '../../../core/webhooks/scheme.js';
import { verifyWebhook } from '../../../core/webhooks/verify.js';
import { delivery, FULL_DATA, NOW_MS, SECRET, sent } from './fixtures.js';
import { oneByteChanged, SHAPE_CASES } from './shape-cases.js';

const now = () => NOW_MS;

function post(d: { payload: string; headers: Record<string, string> }): Request {
  return new Request('http://game.test/webhooks', { method: 'POST', headers: d.headers, body: d.payload });
}

describe('the cases', () => {
  it('cover the seven types, (a) carrying every assumed field as the emulator would send it', () => {
    expect(SHAPE_CASES).toHaveLength(35);
    for (const type of WEBHOOK_EVENT_TYPES) {
      expect(Object.keys(FULL_DATA[type]).sort()).toEqual(Object.keys(WEBHOOK_EVENT_FIELDS[type]).sort());
      expect(SentWebhookEvent.parse(sent(type))).toEqual(sent(type));
    }
  });
});

describe('verifyWebhook accepts every genuine delivery, whatever its shape', () => {
  it.each(SHAPE_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const { payload, headers } = delivery(c.body, { id: c.deliveryId });

    const event = await verifyWebhook({ payload, headers, secret: SECRET, now });

    expect(event).toEqual({ ...c.expected, raw: c.body });
    expect(isKnownWebhookEvent(event)).toBe(c.known);
  });

  it.each(SHAPE_CASES.map((c) => [c.name, c] as const))('%s, one byte changed: invalid_signature', async (_, c) => {
    const { payload, headers } = delivery(c.body, { id: c.deliveryId });
    const tampered = oneByteChanged(payload);
    expect(tampered).not.toBe(payload);

    const error = await verifyWebhook({ payload: tampered, headers, secret: SECRET, now }).catch((e: unknown) => e);
    expect(isWebhookVerificationError(error) && error.reason).toBe('invalid_signature');
  });
});

describe('interop with the standardwebhooks package', () => {
  it('every case signed by standardwebhooks Webhook.sign is accepted; one byte changed, refused', async () => {
    for (const c of SHAPE_CASES) {
      const payload = JSON.stringify(c.body);
      const date = new Date(NOW_MS);
      const headers = { 'webhook-id': c.deliveryId, 'webhook-timestamp': String(date.getTime() / 1000), 'webhook-signature': new Webhook(SECRET).sign(c.deliveryId, date, payload) };
      await expect(verifyWebhook({ payload, headers, secret: SECRET, now })).resolves.toEqual({ ...c.expected, raw: c.body });
      await expect(verifyWebhook({ payload: oneByteChanged(payload), headers, secret: SECRET, now })).rejects.toMatchObject({ reason: 'invalid_signature' });
    }
  });
});

describe('createWebhookReceiver accepts every genuine delivery and emits it', () => {
  it.each(SHAPE_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    const byType: unknown[] = [];
    const unknown: unknown[] = [];
    const all: unknown[] = [];
    const errors: unknown[] = [];
    for (const type of WEBHOOK_EVENT_TYPES) receiver.on(type, (event) => void byType.push(event));
    receiver.on('unknown', (event) => void unknown.push(event));
    receiver.on('event', (event) => void all.push(event));
    receiver.on('error', (error) => void errors.push(error));

    const response = await receiver.fetch(post(delivery(c.body, { id: c.deliveryId })));

    expect(response.status).toBe(204);
    const expected = { ...c.expected, raw: c.body };
    expect(all).toEqual([expected]);
    expect(c.known ? byType : unknown).toEqual([expected]);
    expect(c.known ? unknown : byType).toEqual([]);
    expect(errors).toEqual([]);
    const { callbackId } = c.expected;
    if (typeof callbackId === 'string') await expect(receiver.waitFor({ callbackId, timeoutMs: 1 })).resolves.toEqual(expected);
  });

  it.each(SHAPE_CASES.map((c) => [c.name, c] as const))('%s, one byte changed: 401 invalid_signature, nothing emitted', async (_, c) => {
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    const all: unknown[] = [];
    receiver.on('event', (event) => void all.push(event));
    const { payload, headers } = delivery(c.body, { id: c.deliveryId });

    const response = await receiver.fetch(post({ payload: oneByteChanged(payload), headers }));

    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: 'invalid_signature' });
    expect(all).toEqual([]);
  });

  it('never emits an unknown type under its own name, even one named like a receiver event', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    const errors: unknown[] = [];
    const unknown: string[] = [];
    receiver.on('error', (error) => void errors.push(error));
    receiver.on('unknown', (event) => void unknown.push(event.type));

    for (const [i, type] of ['error', 'event', 'unknown', '__proto__'].entries()) {
      expect((await receiver.fetch(post(delivery({ type, data: {} }, { id: `msg_${i}` })))).status).toBe(204);
    }
    expect(unknown).toEqual(['error', 'event', 'unknown', '__proto__']);
    expect(errors).toEqual([]);
  });

  it('waitFor with an unknown type finds it', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    await receiver.fetch(post(delivery({ type: 'coupon.expired', callbackId: 'cb-x', data: { couponCode: 'OLD' } })));
    const event = await receiver.waitFor({ callbackId: 'cb-x', type: 'coupon.expired' });
    expect(event).toMatchObject({ id: 'msg_1', type: 'coupon.expired', data: { couponCode: 'OLD' } });
  });
});

describe('the lenient reading, at its edges', () => {
  it('id falls back to the webhook-id header when the body has none, or not a string', async () => {
    for (const body of [{ type: 'sponsor.ended', data: {} }, { id: 42, type: 'sponsor.ended', data: {} }]) {
      const { payload, headers } = delivery(body, { id: 'msg_fallback' });
      const event = await verifyWebhook({ payload, headers, secret: SECRET, now });
      expect(event.id).toBe('msg_fallback');
      expect(event.raw).toEqual(body);
    }
  });

  it('a missing data, or one that is not an object, reads as {} (raw keeps it)', async () => {
    for (const body of [{ type: 'sponsor.ended' }, { type: 'sponsor.ended', data: 'ended' }, { type: 'sponsor.ended', data: [1] }, { type: 'sponsor.ended', data: null }]) {
      const { payload, headers } = delivery(body);
      const event = await verifyWebhook({ payload, headers, secret: SECRET, now });
      expect(event.data).toEqual({});
      expect(event.raw).toEqual(body);
    }
  });

  it('wrong-typed envelope fields are left out: createdAt not a date-time, callbackId not a string', async () => {
    const body = { id: 'evt_1', type: 'sponsor.ended', createdAt: 12, callbackId: { id: 1 }, data: {} };
    const { payload, headers } = delivery(body);
    expect(await verifyWebhook({ payload, headers, secret: SECRET, now })).toEqual({ id: 'evt_1', type: 'sponsor.ended', data: {}, raw: body });
  });

  it("keeps the fields it does not know inside a reward item too (b3f633f dropped them from data's items)", async () => {
    const reward = [{ itemName: { en: 'Gold' }, itemId: 'item_gold', itemQuantity: 100, rarity: 'epic', bonus: { percent: 5 } }];
    const body = { id: 'evt_r', type: 'coupon.redeemed', data: { userId: 'u', reward } };
    const { payload, headers } = delivery(body);
    const event = await verifyWebhook({ payload, headers, secret: SECRET, now });
    expect(event.data).toEqual({ userId: 'u', reward });
  });

  it('a payload field named __proto__ stays a plain field, never a prototype', async () => {
    const payload = '{"type":"sponsor.ended","data":{"__proto__":{"polluted":true},"userId":"u"}}';
    const { headers } = delivery({});
    const signed = delivery(JSON.parse(payload) as object);
    const event = await verifyWebhook({ payload, headers: { ...headers, ...signed.headers }, secret: SECRET, now }).catch(() => undefined);
    // JSON.stringify(JSON.parse(...)) keeps an own __proto__ key, so the signed text is the same payload.
    expect(signed.payload).toBe(payload);
    expect(event?.data).toHaveProperty('userId', 'u');
    expect(Object.getPrototypeOf(event!.data)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(event!.data, '__proto__')?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('without a delivery id from the scheme or a webhook-id header, id is a hash of the body, so a replay is recognised', async () => {
    const scheme: WebhookScheme = { sign: () => ({}), verify: () => undefined };
    const payload = JSON.stringify({ type: 'sponsor.ended', data: {} });
    const first = await verifyWebhook({ payload, headers: {}, secret: 'x', now, scheme });
    expect(first.id).toMatch(/^sha256:[0-9a-f]{64}$/);

    const receiver = createWebhookReceiver({ secret: 'x', now, scheme });
    await expect(receiver.verify({ payload, headers: {} })).resolves.toMatchObject({ id: first.id });
    await expect(receiver.verify({ payload, headers: {} })).rejects.toMatchObject({ reason: 'replayed' });
  });
});

describe('the types', () => {
  it('known types narrow data by type; an unknown one narrows with isKnownWebhookEvent', () => {
    const handle = (event: ReceivedWebhookEvent) => {
      if (!isKnownWebhookEvent(event)) {
        expectTypeOf(event).toEqualTypeOf<UnknownWebhookEvent>();
        expectTypeOf(event.data).toEqualTypeOf<Record<string, unknown>>();
        return;
      }
      if (event.type === 'sponsor.changed') {
        expectTypeOf(event).toEqualTypeOf<WebhookEventOf<'sponsor.changed'>>();
        expectTypeOf(event.data.newCreatorKey).toEqualTypeOf<string | undefined>();
      }
      expectTypeOf(event.raw).toEqualTypeOf<Record<string, unknown>>();
    };
    expect(handle).toBeTypeOf('function');
  });
});
