/**
 * Rotating a webhook's secret. The spec returns a secret only when a webhook is created ("Webhook secrets are returned
 * once, at webhook creation"), so a new secret is a new webhook: while the old and the new one both deliver, the
 * receiver gets deliveries signed with either secret. With one secret it refused the other's (401), which the
 * service resends until it gives up; given both, it accepts each.
 */
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError } from '../../../core/webhooks/errors.js';
import { createWebhookReceiver } from '../../../core/webhooks/receiver.js';
import { verifyWebhook } from '../../../core/webhooks/verify.js';
import { couponRedeemed, delivery, NOW_MS, NOW_SECONDS, OTHER_SECRET, SECRET } from './fixtures.js';

const now = () => NOW_MS;
const THIRD_SECRET = 'whsec_' + Buffer.from('a third secret, not given').toString('base64');

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof WebhookVerificationError)) throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
  return error.reason;
}

describe('verifyWebhook with several secrets', () => {
  it('accepts a delivery signed with any of them', async () => {
    for (const secret of [SECRET, OTHER_SECRET]) {
      const { payload, headers } = delivery(couponRedeemed(), { secret });
      await expect(verifyWebhook({ payload, headers, secret: [SECRET, OTHER_SECRET], now })).resolves.toMatchObject({ id: 'evt_coupon_1' });
    }
  });

  it('refuses one signed with none of them, and still checks the timestamp first', async () => {
    const forged = delivery(couponRedeemed(), { secret: THIRD_SECRET });
    expect(await reasonOf(verifyWebhook({ ...forged, secret: [SECRET, OTHER_SECRET], now }))).toBe('invalid_signature');
    const old = delivery(couponRedeemed(), { secret: OTHER_SECRET, timestamp: NOW_SECONDS - 301 });
    expect(await reasonOf(verifyWebhook({ ...old, secret: [SECRET, OTHER_SECRET], now }))).toBe('timestamp_too_old');
  });

  it('refuses an empty list and a list holding something that is not a secret, before any delivery', async () => {
    const { payload, headers } = delivery(couponRedeemed());
    await expect(verifyWebhook({ payload, headers, secret: [], now })).rejects.toThrow(TypeError);
    await expect(verifyWebhook({ payload, headers, secret: [SECRET, 'whsec_'], now })).rejects.toThrow(TypeError);
    expect(() => createWebhookReceiver({ secret: [] })).toThrow(TypeError);
    expect(() => createWebhookReceiver({ secret: [SECRET, 42 as unknown as string] })).toThrow(TypeError);
  });
});

describe('createWebhookReceiver with several secrets', () => {
  it('answers 204 to the deliveries of both webhooks and 401 to a forged one', async () => {
    const receiver = createWebhookReceiver({ secret: [SECRET, OTHER_SECRET], now });
    const events: string[] = [];
    receiver.on('event', (event) => void events.push(event.id));
    const post = (d: { payload: string; headers: Record<string, string> }) => receiver.fetch(new Request('http://game.test/webhooks', { method: 'POST', headers: d.headers, body: d.payload }));

    const fromOld = await post(delivery(couponRedeemed(), { secret: OTHER_SECRET, id: 'msg_old' }));
    const fromNew = await post(delivery(couponRedeemed(), { secret: SECRET, id: 'msg_new' }));
    const forged = await post(delivery(couponRedeemed(), { secret: THIRD_SECRET, id: 'msg_forged' }));
    expect([fromOld.status, fromNew.status, forged.status]).toEqual([204, 204, 401]);
    expect(events).toEqual(['evt_coupon_1', 'evt_coupon_1']);
  });
});
