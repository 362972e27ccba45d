/**
 * Deliveries as a sender on the Standard Webhooks reference library (`standardwebhooks`, devDependencies) signs them,
 * and the shapes of a signature it may write: an authentic delivery is accepted, a forged or altered one refused.
 * @see https://github.com/standard-webhooks/standard-webhooks (libraries/javascript/src/index.ts `Webhook.sign`)
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it, vi } from 'vitest';
import { WebhookVerificationError } from '../../../core/webhooks/errors.js';
import { computeSignature } from '../../../core/webhooks/signature.js';
import { verifyWebhook } from '../../../core/webhooks/verify.js';
import { couponRedeemed, NOW_MS, NOW_SECONDS, OTHER_SECRET, SECRET } from './fixtures.js';

const now = () => NOW_MS;
const reference = new Webhook(SECRET);
const signedAt = new Date(NOW_SECONDS * 1000);
const encoder = new TextEncoder();

function headersOf(signature: string, id = 'msg_1') {
  return { 'webhook-id': id, 'webhook-timestamp': String(NOW_SECONDS), 'webhook-signature': signature };
}

async function reasonOf(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof WebhookVerificationError)) throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
  return error.reason;
}

/** A coupon.redeemed body whose couponCode holds `bytes`, which are not UTF-8. */
function bodyWith(bytes: number[], bom = false): Buffer {
  const [head, tail] = JSON.stringify(couponRedeemed()).split('WELCOME');
  return Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(`${head}CAF`), Buffer.from(bytes), Buffer.from(tail!)]);
}

describe('a body that is not UTF-8, signed by the Standard Webhooks JavaScript library', () => {
  // The library signs a Buffer as `Buffer#toString()` (each byte that is not UTF-8 as U+FFFD) and the sender sends the
  // bytes. Before, such a delivery was invalid_signature (401), resent byte for byte until the service gave up.
  it.each([
    ['a Latin-1 byte', [0xc9]],
    ['a lone 0xff', [0xff]],
    ['a sequence cut short', [0xe2, 0x82]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['an overlong form', [0xc0, 0xaf]],
  ])('accepts %s, the event read as the library read it', async (_, bytes) => {
    for (const bom of [false, true]) {
      const payload = bodyWith(bytes, bom);
      const headers = headersOf(reference.sign('msg_1', signedAt, payload));
      const event = await verifyWebhook({ payload: new Uint8Array(payload), headers, secret: SECRET, now });
      expect(event).toMatchObject({ id: 'evt_coupon_1', type: 'coupon.redeemed', data: { couponCode: expect.stringMatching(/^CAF\uFFFD+$/) } });
    }
  });

  it('still accepts the same bytes signed as bytes (every other Standard Webhooks library)', async () => {
    const payload = new Uint8Array(bodyWith([0xc9]));
    await expect(verifyWebhook({ payload, headers: headersOf(computeSignature(SECRET, 'msg_1', NOW_SECONDS, payload)), secret: SECRET, now })).resolves.toMatchObject({ type: 'coupon.redeemed' });
  });

  it('refuses such a body altered anywhere the text changes, and a signature of another secret', async () => {
    const payload = bodyWith([0xc9]);
    const headers = headersOf(reference.sign('msg_1', signedAt, payload));
    const altered = Buffer.from(payload.toString('latin1').replace('user-1', 'user-2'), 'latin1');
    expect(await reasonOf(verifyWebhook({ payload: new Uint8Array(altered), headers, secret: SECRET, now }))).toBe('invalid_signature');
    const other = headersOf(new Webhook(OTHER_SECRET).sign('msg_1', signedAt, payload));
    expect(await reasonOf(verifyWebhook({ payload: new Uint8Array(payload), headers: other, secret: SECRET, now }))).toBe('invalid_signature');
    // The text the library signed, sent as valid UTF-8 (U+FFFD written out), is that same event: accepted.
    const text = payload.toString();
    await expect(verifyWebhook({ payload: text, headers, secret: SECRET, now })).resolves.toMatchObject({ type: 'coupon.redeemed' });
  });
});

describe('how the signature is written', () => {
  const payload = JSON.stringify(couponRedeemed());
  // A delivery id whose signature holds both '+' and '/', so URL-safe base64 is written differently.
  const id = Array.from({ length: 500 }, (_, n) => `msg_${n}`).find((candidate) => /\+.*\/|\/.*\+/.test(reference.sign(candidate, signedAt, payload)))!;
  const standard = reference.sign(id, signedAt, payload).slice(3);
  const bytes = Buffer.from(standard, 'base64');
  expect(bytes.toString('base64url')).not.toBe(standard.replace(/=+$/, ''));

  it.each([
    ['standard base64, padded (as the libraries write it)', standard],
    ['without padding', standard.replace(/=+$/, '')],
    ['URL-safe', bytes.toString('base64url') + '='],
    ['URL-safe without padding', bytes.toString('base64url')],
  ])('accepts %s', async (_, written) => {
    await expect(verifyWebhook({ payload, headers: headersOf(`v1,${written}`, id), secret: SECRET, now })).resolves.toMatchObject({ id: 'evt_coupon_1' });
  });

  it.each([
    ['the MAC cut by one byte', `v1,${bytes.subarray(0, 31).toString('base64')}`],
    ['the MAC with one more byte', `v1,${Buffer.concat([bytes, Buffer.from([0])]).toString('base64')}`],
    ['one bit flipped', `v1,${Buffer.from(bytes.map((b, i) => (i === 5 ? b ^ 1 : b))).toString('base64url')}`],
    ['not base64', `v1,${standard.replace(/^./, '*')}`],
    ['another version', `v1a,${standard}`],
    ['no version', standard],
    ['an empty signature', 'v1,'],
  ])('refuses %s', async (_, written) => {
    expect(await reasonOf(verifyWebhook({ payload, headers: headersOf(written, id), secret: SECRET, now }))).toBe('invalid_signature');
  });
});

describe('how the timestamp is written', () => {
  // The reference library reads the header with `parseInt(header, 10)` (standardwebhooks `Webhook.verifyTimestamp`)
  // and signs `id.<those whole seconds>.body` (`Webhook.sign`: `Math.floor(timestamp.getTime() / 1000)`), so a
  // sender writing `+N` or `N.0` has its deliveries accepted there. Before, they were invalid_timestamp (400), resent
  // until the service gave up.
  const payload = JSON.stringify(couponRedeemed());
  const signature = reference.sign('msg_1', signedAt, payload);
  const at = (timestamp: string) => ({ ...headersOf(signature), 'webhook-timestamp': timestamp });
  /** Whole seconds written other ways than digits alone; both verifiers take each. */
  const WRITTEN: [string, string][] = [
    ['with a plus sign', `+${NOW_SECONDS}`],
    ['with a zero fraction', `${NOW_SECONDS}.0`],
    ['with a fraction of a second', `${NOW_SECONDS}.999`],
    ['with a bare point', `${NOW_SECONDS}.`],
    ['with both', `+${NOW_SECONDS}.000`],
  ];

  it.each([...WRITTEN, ['with leading zeros', `000${NOW_SECONDS}`]])('accepts one written %s, signed over its whole seconds (as the reference library reads both)', async (_, timestamp) => {
    vi.useFakeTimers({ now: NOW_MS, toFake: ['Date'] });
    try {
      expect(reference.verify(payload, at(timestamp))).toMatchObject({ id: 'evt_coupon_1' });
    } finally {
      vi.useRealTimers();
    }
  });

  it.each(WRITTEN)('verifyWebhook accepts one written %s', async (_, timestamp) => {
    await expect(verifyWebhook({ payload, headers: at(timestamp), secret: SECRET, now })).resolves.toMatchObject({ id: 'evt_coupon_1' });
  });

  it('accepts a signature over the header as written, too (a sender signing its own header text)', async () => {
    const timestamp = `+${NOW_SECONDS}`;
    const literal = `v1,${Buffer.from(await hmacOf(`msg_1.${timestamp}.${payload}`)).toString('base64')}`;
    await expect(verifyWebhook({ payload, headers: { ...at(timestamp), 'webhook-signature': literal }, secret: SECRET, now })).resolves.toMatchObject({ id: 'evt_coupon_1' });
  });

  it('still checks the tolerance on the seconds read, and refuses what is not a number of seconds', async () => {
    expect(await reasonOf(verifyWebhook({ payload, headers: at(`+${NOW_SECONDS - 301}.0`), secret: SECRET, now }))).toBe('timestamp_too_old');
    expect(await reasonOf(verifyWebhook({ payload, headers: at(`-${NOW_SECONDS}`), secret: SECRET, now }))).toBe('timestamp_too_old');
    for (const timestamp of ['1.7e9', `0x${NOW_SECONDS.toString(16)}`, `${NOW_SECONDS}abc`, `.${NOW_SECONDS}`, `++${NOW_SECONDS}`, '+', `${NOW_SECONDS},0`, `${NOW_SECONDS} 1`]) {
      expect(await reasonOf(verifyWebhook({ payload, headers: at(timestamp), secret: SECRET, now }))).toBe('invalid_timestamp');
    }
  });

  it('a signature over other seconds than the header says is refused', async () => {
    const other = reference.sign('msg_1', new Date((NOW_SECONDS + 1) * 1000), payload);
    expect(await reasonOf(verifyWebhook({ payload, headers: { ...at(`${NOW_SECONDS}.0`), 'webhook-signature': other }, secret: SECRET, now }))).toBe('invalid_signature');
  });
});

async function hmacOf(text: string): Promise<ArrayBuffer> {
  const raw = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
  const key = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return crypto.subtle.sign('HMAC', key, encoder.encode(text));
}

describe('the Standard Webhooks edge cases, signed by the reference library (guards: each passed before p32)', () => {
  const payload = JSON.stringify(couponRedeemed());
  const secretBytes = SECRET.slice('whsec_'.length);
  const at = (seconds: number, signature: string, id = 'msg_1') => ({ 'webhook-id': id, 'webhook-timestamp': String(seconds), 'webhook-signature': signature });

  it('a secret with or without whsec_, on either side, is the same key', async () => {
    const bare = new Webhook(secretBytes).sign('msg_1', signedAt, payload);
    expect(bare).toBe(reference.sign('msg_1', signedAt, payload));
    await expect(verifyWebhook({ payload, headers: at(NOW_SECONDS, bare), secret: SECRET, now })).resolves.toMatchObject({ type: 'coupon.redeemed' });
    await expect(verifyWebhook({ payload, headers: at(NOW_SECONDS, bare), secret: secretBytes, now })).resolves.toMatchObject({ type: 'coupon.redeemed' });
  });

  it('several entries in one header, v1a (asymmetric) ones among them: the v1 entry that matches passes, v1a ones are skipped', async () => {
    const good = reference.sign('msg_1', signedAt, payload);
    const v1a = `v1a,${Buffer.alloc(64, 7).toString('base64')}`;
    const wrong = new Webhook(OTHER_SECRET).sign('msg_1', signedAt, payload);
    for (const header of [`${v1a} ${good}`, `${wrong} ${v1a} ${good}`, `${good} ${v1a}`]) {
      await expect(verifyWebhook({ payload, headers: at(NOW_SECONDS, header), secret: SECRET, now }), header).resolves.toMatchObject({ type: 'coupon.redeemed' });
    }
    // A v1a entry carrying the v1 signature's bytes is not a v1 signature.
    expect(await reasonOf(verifyWebhook({ payload, headers: at(NOW_SECONDS, `${v1a} v1a,${good.slice(3)}`), secret: SECRET, now }))).toBe('invalid_signature');
  });

  it('a timestamp exactly at the tolerance is accepted, one second beyond refused, as the reference library decides', async () => {
    vi.useFakeTimers({ now: NOW_MS, toFake: ['Date'] });
    try {
      for (const [offset, accepted] of [[-300, true], [300, true], [-301, false], [301, false]] as const) {
        const headers = at(NOW_SECONDS + offset, reference.sign('msg_1', new Date((NOW_SECONDS + offset) * 1000), payload));
        const ours = await verifyWebhook({ payload, headers, secret: SECRET, now }).then(() => true, () => false);
        const theirs = (() => {
          try {
            reference.verify(payload, headers);
            return true;
          } catch {
            return false;
          }
        })();
        expect([offset, ours, theirs]).toEqual([offset, accepted, accepted]);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  it('a Buffer and a string body of one delivery are the same delivery', async () => {
    const headers = at(NOW_SECONDS, reference.sign('msg_1', signedAt, Buffer.from(payload)));
    const fromString = await verifyWebhook({ payload, headers, secret: SECRET, now });
    await expect(verifyWebhook({ payload: Buffer.from(payload), headers, secret: SECRET, now })).resolves.toEqual(fromString);
  });

  it('a delivery replayed to a receiver is answered 200 and not emitted again; altered, it is refused', async () => {
    const { createWebhookReceiver } = await import('../../../core/webhooks/receiver.js');
    const receiver = createWebhookReceiver({ secret: SECRET, now });
    const seen: unknown[] = [];
    receiver.on('event', (event) => seen.push(event));
    const headers = at(NOW_SECONDS, reference.sign('msg_1', signedAt, payload));
    const post = (body: string, h: Record<string, string>) => receiver.fetch(new Request('https://game.example/webhooks', { method: 'POST', headers: h, body }));
    expect((await post(payload, headers)).status).toBe(204);
    expect((await post(payload, headers)).status).toBe(200);
    expect((await post(payload.replace('user-1', 'user-2'), headers)).status).toBe(401);
    expect((await post(payload, { ...headers, 'webhook-id': 'msg_2' })).status).toBe(401);
    expect(seen).toHaveLength(1);
  });
});
