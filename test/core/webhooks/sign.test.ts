import vm from 'node:vm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../core/webhooks/verify.js';
import { signWebhook } from '../../../core/webhooks/sign.js';
import { couponRedeemed, received, SECRET } from './fixtures.js';

describe('signWebhook', () => {
  it('signs the Standard Webhooks test vector exactly', () => {
    const { headers } = signWebhook({
      payload: '{"test": 2432232314}',
      secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      timestamp: 1614265330,
    });
    expect(headers).toEqual({
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    });
  });

  it('signs bytes and the same text identically', () => {
    const text = JSON.stringify(couponRedeemed());
    const fromText = signWebhook({ payload: text, secret: SECRET, id: 'msg_1', timestamp: 1_700_000_000 });
    const fromBytes = signWebhook({ payload: new TextEncoder().encode(text), secret: SECRET, id: 'msg_1', timestamp: 1_700_000_000 });
    expect(fromBytes.headers).toEqual(fromText.headers);
  });

  it('signs bytes and a Date from another realm (node:vm; a Buffer in a Jest test) as its own', () => {
    // Jest gives each test file its own globals but node's own Buffer (jestjs/jest#4422): `instanceof Uint8Array` is
    // false there, and a receiver's test signing `Buffer.from(body)` got "needs the exact body ..., got object".
    const text = JSON.stringify(couponRedeemed());
    const fromText = signWebhook({ payload: text, secret: SECRET, id: 'msg_1', timestamp: 1_714_564_800 });
    const foreign = vm.runInNewContext('(codes) => ({ bytes: Uint8Array.from(codes), date: new Date(1714564800999) })')([...new TextEncoder().encode(text)]) as { bytes: Uint8Array; date: Date };
    expect(foreign.bytes instanceof Uint8Array || foreign.date instanceof Date).toBe(false);
    expect(signWebhook({ payload: foreign.bytes, secret: SECRET, id: 'msg_1', timestamp: foreign.date }).headers).toEqual(fromText.headers);
  });

  it('takes a Date as its timestamp, in whole seconds', () => {
    const { headers } = signWebhook({ payload: '{}', secret: SECRET, id: 'msg_1', timestamp: new Date('2024-05-01T12:00:00.999Z') });
    expect(headers['webhook-timestamp']).toBe('1714564800');
  });

  it('defaults the id to msg_ and 32 random hex digits, different each time', () => {
    const first = signWebhook({ payload: '{}', secret: SECRET }).headers['webhook-id'];
    const second = signWebhook({ payload: '{}', secret: SECRET }).headers['webhook-id'];
    expect(first).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(second).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(first).not.toBe(second);
  });

  it('refuses a timestamp in milliseconds', () => {
    expect(() => signWebhook({ payload: '{}', secret: SECRET, timestamp: 1_714_564_800_000 })).toThrow(
      new TypeError('timestamp must be a Date or whole unix seconds, got 1714564800000'),
    );
  });
});

describe('signWebhook: what it is given, said plainly', () => {
  // An event passed as it is failed deep in the HMAC with "RangeError: offset is out of bounds".
  it.each([
    ['an object (the event, not its JSON)', couponRedeemed(), 'object'],
    ['null', null, 'null'],
    ['a number', 42, 'number'],
  ])('refuses %s as the payload with a TypeError', (_, payload, got) => {
    expect(() => signWebhook({ payload: payload as never, secret: SECRET })).toThrow(
      new TypeError(`signWebhook needs the exact body to send (a string or Uint8Array), got ${got}: sign JSON.stringify(event) and send that same text`),
    );
  });

  it('refuses a secret that is not whsec_<base64> as verifyWebhook does', () => {
    expect(() => signWebhook({ payload: '{}', secret: undefined as never })).toThrow(
      new TypeError('secret must be the webhook secret string (whsec_...) returned when the webhook was created'),
    );
    expect(() => signWebhook({ payload: '{}', secret: 'whsec_not base64!' })).toThrow(
      new TypeError('secret must be whsec_ followed by base64, as returned when the webhook was created'),
    );
  });
});

describe('interop with the standardwebhooks package', () => {
  it('verifies a delivery signed by standardwebhooks Webhook.sign', async () => {
    const event = couponRedeemed();
    const payload = JSON.stringify(event);
    const date = new Date();
    const signature = new Webhook(SECRET).sign('msg_interop_1', date, payload);
    const headers = { 'webhook-id': 'msg_interop_1', 'webhook-timestamp': String(Math.floor(date.getTime() / 1000)), 'webhook-signature': signature };

    await expect(verifyWebhook({ payload, headers, secret: SECRET })).resolves.toEqual(received(event));
  });

  it('produces deliveries that standardwebhooks Webhook.verify accepts', () => {
    const event = couponRedeemed();
    const payload = JSON.stringify(event);
    const { headers } = signWebhook({ payload, secret: SECRET });

    expect(new Webhook(SECRET).verify(payload, { ...headers })).toEqual(event);
  });

  it('produces deliveries that standardwebhooks Webhook.verify refuses with another secret', () => {
    const payload = JSON.stringify(couponRedeemed());
    const { headers } = signWebhook({ payload, secret: SECRET });

    expect(() => new Webhook('whsec_' + Buffer.from('x'.repeat(24)).toString('base64')).verify(payload, { ...headers })).toThrow('No matching signature found');
  });
});
