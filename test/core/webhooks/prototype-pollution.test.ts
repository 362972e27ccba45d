/**
 * The webhook verifiers and `signWebhook` under a polluted `Object.prototype` (a deep merge of untrusted JSON elsewhere
 * in the game server: `{"__proto__":{"toleranceSeconds":1e9}}`). They destructured their options, which reads an
 * option the game left out through the prototype: the timestamp check, the only replay guard of `verifyWebhook`,
 * took the polluted tolerance. Deliveries are signed by the Standard Webhooks reference library (`standardwebhooks`).
 */
import { Webhook } from 'standardwebhooks';
import { afterEach, describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../../core/webhooks/errors.js';
import { createWebhookReceiver } from '../../../core/webhooks/receiver.js';
import { signWebhook } from '../../../core/webhooks/sign.js';
import { verifyWebhook } from '../../../core/webhooks/verify.js';
import { couponRedeemed, NOW_MS, NOW_SECONDS, SECRET } from './fixtures.js';

const prototype = Object.prototype as Record<string, unknown>;
const KEYS = ['toleranceSeconds', 'scheme', 'secret', 'maxBodyBytes', 'id', 'timestamp', 'type', 'timeoutMs', 'navigator'];
afterEach(() => {
  for (const key of KEYS) delete prototype[key];
});

const now = () => NOW_MS;
const payload = JSON.stringify(couponRedeemed());
/** A delivery the reference library signed `ageSeconds` before now. */
function signedAgo(ageSeconds: number, id = 'msg_1') {
  const signature = new Webhook(SECRET).sign(id, new Date((NOW_SECONDS - ageSeconds) * 1000), payload);
  return { 'webhook-id': id, 'webhook-timestamp': String(NOW_SECONDS - ageSeconds), 'webhook-signature': signature };
}

async function reasonOf(promise: Promise<unknown>): Promise<unknown> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  return error instanceof WebhookVerificationError ? error.reason : error;
}

describe('webhook verification under a polluted Object.prototype', () => {
  it('verifyWebhook keeps its own 300 s tolerance: a captured delivery of an hour ago is not accepted again', async () => {
    prototype['toleranceSeconds'] = 1e9;
    expect(await reasonOf(verifyWebhook({ payload, headers: signedAgo(3600), secret: SECRET, now }))).toBe('timestamp_too_old');
    await expect(verifyWebhook({ payload, headers: signedAgo(300), secret: SECRET, now })).resolves.toMatchObject({ type: 'coupon.redeemed' });
  });

  it('createWebhookReceiver keeps its own tolerance and body cap, and answers a genuine delivery', async () => {
    prototype['toleranceSeconds'] = 1e9;
    prototype['maxBodyBytes'] = 1;
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    expect(await reasonOf(receiver.verify({ payload, headers: signedAgo(3600, 'msg_old') }))).toBe('timestamp_too_old');
    const answer = await receiver.fetch(new Request('https://game.example/webhooks', { method: 'POST', headers: signedAgo(0), body: payload }));
    expect(answer.status).toBe(204);
  });

  it('a polluted scheme is not used in place of Standard Webhooks', async () => {
    prototype['scheme'] = { name: 'polluted' };
    await expect(verifyWebhook({ payload, headers: signedAgo(0), secret: SECRET, now })).resolves.toMatchObject({ type: 'coupon.redeemed' });
    expect(() => createWebhookReceiver({ secret: SECRET, now })).not.toThrow();
  });

  it('a secret the game left out is missing, not the one the prototype holds (a forger\'s)', async () => {
    const forger = 'whsec_' + Buffer.from('the forger knows this key').toString('base64');
    prototype['secret'] = forger;
    const forged = new Webhook(forger).sign('msg_1', new Date(NOW_MS), payload);
    const headers = { ...signedAgo(0), 'webhook-signature': forged };
    await expect(verifyWebhook({ payload, headers, now } as never)).rejects.toThrow(TypeError);
    expect(() => createWebhookReceiver({ now } as never)).toThrow(TypeError);
  });

  it('waitFor matches only the type it was given', async () => {
    prototype['type'] = 'sponsor.created';
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    const body = JSON.stringify({ ...couponRedeemed(), callbackId: 'redeem-42' });
    const signature = new Webhook(SECRET).sign('msg_9', new Date(NOW_MS), body);
    await receiver.verify({ payload: body, headers: { 'webhook-id': 'msg_9', 'webhook-timestamp': String(NOW_SECONDS), 'webhook-signature': signature } });
    await expect(receiver.waitFor({ callbackId: 'redeem-42', timeoutMs: 50 })).resolves.toMatchObject({ type: 'coupon.redeemed' });
  });

  it("waitFor still waits on Node when the prototype holds a navigator saying Cloudflare-Workers", async () => {
    // Taken for a Worker dated before 2024-10-14 (undici keeps a lower-case `patch`), waitFor refused at once.
    prototype['navigator'] = { userAgent: 'Cloudflare-Workers' };
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    const waiting = receiver.waitFor({ callbackId: 'redeem-43' });
    const body = JSON.stringify({ ...couponRedeemed(), callbackId: 'redeem-43' });
    const signature = new Webhook(SECRET).sign('msg_10', new Date(NOW_MS), body);
    await receiver.verify({ payload: body, headers: { 'webhook-id': 'msg_10', 'webhook-timestamp': String(NOW_SECONDS), 'webhook-signature': signature } });
    await expect(waiting).resolves.toMatchObject({ callbackId: 'redeem-43' });
  });

  it('signWebhook gives each delivery its own id and signs now, not what the prototype holds', () => {
    prototype['id'] = 'msg_polluted';
    prototype['timestamp'] = 0;
    const before = Math.floor(Date.now() / 1000);
    const first = signWebhook({ payload, secret: SECRET }).headers;
    const second = signWebhook({ payload, secret: SECRET }).headers;
    const after = Math.floor(Date.now() / 1000);
    expect(first['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(second['webhook-id']).not.toBe(first['webhook-id']);
    expect(Number(first['webhook-timestamp'])).toBeGreaterThanOrEqual(before);
    expect(Number(first['webhook-timestamp'])).toBeLessThanOrEqual(after);
  });
});
