import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { isWebhookVerificationError, WebhookVerificationError } from '../../../core/webhooks/errors.js';
import type { WebhookScheme } from '../../../core/webhooks/scheme.js';
import { computeSignature } from '../../../core/webhooks/signature.js';
import { verifyWebhook } from '../../../core/webhooks/verify.js';
import { createWebhookReceiver } from '../../../core/webhooks/receiver.js';
import { isKnownWebhookEvent } from '../../../core/webhooks/read-event.js';
import { couponRedeemed, delivery, NOW_MS, NOW_SECONDS, OTHER_SECRET, received, SECRET, sponsorChanged } from './fixtures.js';

const now = () => NOW_MS;

/** The rejection of a verification, for exact assertions on `reason` and `message`. */
async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof WebhookVerificationError)) throw new Error(`expected a WebhookVerificationError, got ${String(error)}`);
  return error;
}

describe('verifyWebhook: accepted deliveries', () => {
  it('returns the typed event of a valid delivery', async () => {
    const event = couponRedeemed();
    const { payload, headers } = delivery(event);

    const verified = await verifyWebhook({ payload, headers, secret: SECRET, now });

    expect(verified).toEqual(received(event));
    expect(verified.type === 'coupon.redeemed' && verified.data.couponCode).toBe('WELCOME');
  });

  it('reads the assumed payload leniently: date-times without milliseconds or with an offset, unknown fields kept', async () => {
    const base = couponRedeemed();
    const event = { ...base, createdAt: '2024-05-01T12:00:00Z', data: { ...base.data, redeemedAt: '2024-05-01T14:00:00+02:00', tier: 'gold' } };
    const { payload, headers } = delivery(event);

    expect(await verifyWebhook({ payload, headers, secret: SECRET, now })).toEqual(received(event));
  });

  it('keeps a delivery whose date-time is not ISO 8601: left out of the typed view, kept in raw', async () => {
    const event = { ...couponRedeemed(), createdAt: 'May 1st' };
    const { payload, headers } = delivery(event);
    const verified = await verifyWebhook({ payload, headers, secret: SECRET, now });
    expect(verified).not.toHaveProperty('createdAt');
    expect(verified.raw).toEqual(event);
    expect(verified.data).toEqual(event.data);
  });

  it("reads RFC 3339's lower-case t and z (section 5.6) into the typed view", async () => {
    const base = couponRedeemed();
    const event = { ...base, createdAt: '2024-05-01t12:00:00z', data: { ...base.data, redeemedAt: '2024-05-01t14:00:00.5+02:00' } };
    const { payload, headers } = delivery(event);
    expect(await verifyWebhook({ payload, headers, secret: SECRET, now })).toEqual(received(event));
  });

  it('reads date-times by one exact rule, not the runtime\'s Date.parse: a date or time that does not exist is left out, kept in raw', async () => {
    // V8 (Node, Deno, workerd) and JavaScriptCore (Bun) alike read 2024-02-30 as March 1 and 24:00 as the next midnight.
    for (const createdAt of ['2024-02-30T12:00:00Z', '2023-02-29T00:00:00Z', '2024-05-01T24:00:00Z', '2024-05-01T12:00:60Z', '2024-05-01T12:00:00+24:00']) {
      const event = { ...couponRedeemed(), createdAt };
      const { payload, headers } = delivery(event);
      const verified = await verifyWebhook({ payload, headers, secret: SECRET, now });
      expect(verified, createdAt).not.toHaveProperty('createdAt');
      expect(verified.raw).toEqual(event);
    }
  });

  it('keeps a leap second (RFC 3339 5.6/5.7: 23:59:60 UTC at the end of a month) in the typed view', async () => {
    // 2016-12-31T23:59:60Z was a real leap second; with an offset it is the same instant written locally (RFC 3339
    // section 5.8 gives 1990-12-31T15:59:60-08:00). Any month's end is taken: leap seconds are announced months ahead.
    for (const createdAt of ['2016-12-31T23:59:60Z', '2016-12-31t23:59:60.5z', '1990-12-31T15:59:60-08:00', '2015-07-01T05:29:60+05:30', '2024-02-29T23:59:60Z']) {
      const event = { ...couponRedeemed(), createdAt };
      const { payload, headers } = delivery(event);
      expect(await verifyWebhook({ payload, headers, secret: SECRET, now }), createdAt).toEqual(received(event));
    }
  });

  it('leaves out a :60 second that is no leap second (not 23:59:60 UTC at the end of a month), kept in raw', async () => {
    for (const createdAt of ['2016-12-30T23:59:60Z', '2016-12-31T23:58:60Z', '2016-12-31T23:59:60+01:00', '2016-12-31T15:59:60-07:00', '2023-02-29T23:59:60Z', '2016-12-31T23:59:61Z']) {
      const event = { ...couponRedeemed(), createdAt };
      const { payload, headers } = delivery(event);
      const verified = await verifyWebhook({ payload, headers, secret: SECRET, now });
      expect(verified, createdAt).not.toHaveProperty('createdAt');
      expect(verified.raw).toEqual(event);
    }
  });

  it('does not ask Date.parse, so a runtime that reads a date-time otherwise types the same fields', async () => {
    const parse = Date.parse;
    Date.parse = () => Number.NaN;
    try {
      const event = { ...couponRedeemed(), createdAt: '2024-05-01T12:00:00.123456+05:30' };
      const { payload, headers } = delivery(event);
      expect(await verifyWebhook({ payload, headers, secret: SECRET, now })).toEqual(received(event));
    } finally {
      Date.parse = parse;
    }
  });

  it('accepts the raw body as bytes, a node Buffer and an ArrayBuffer', async () => {
    const event = sponsorChanged();
    const { payload, headers } = delivery(event);
    const bytes = new TextEncoder().encode(payload);

    await expect(verifyWebhook({ payload: bytes, headers, secret: SECRET, now })).resolves.toEqual(received(event));
    await expect(verifyWebhook({ payload: Buffer.from(payload), headers, secret: SECRET, now })).resolves.toEqual(received(event));
    await expect(verifyWebhook({ payload: bytes.slice().buffer, headers, secret: SECRET, now })).resolves.toEqual(received(event));
  });

  // On 16d1558 a Buffer whose realm is not the SDK's (a node Buffer in a Jest test: jestjs/jest#4422; bytes made in a
  // node:vm context) failed `instanceof Uint8Array` and the genuine delivery was refused as "an object a JSON parser made".
  it('accepts bytes and an ArrayBuffer from another realm (node:vm, a Buffer in a Jest test), and any view as its bytes', async () => {
    const event = sponsorChanged();
    const { payload, headers } = delivery(event);
    const inOtherRealm = vm.runInNewContext('(bytes) => { const copy = new Uint8Array(bytes.length); copy.set(bytes); return copy; }') as (b: Uint8Array) => Uint8Array;
    const foreign = inOtherRealm(new TextEncoder().encode(payload));
    expect(foreign instanceof Uint8Array).toBe(false);
    expect(foreign.buffer instanceof ArrayBuffer).toBe(false);

    await expect(verifyWebhook({ payload: foreign, headers, secret: SECRET, now })).resolves.toEqual(received(event));
    await expect(verifyWebhook({ payload: foreign.buffer as ArrayBuffer, headers, secret: SECRET, now })).resolves.toEqual(received(event));
    // A view over part of a larger buffer (a pooled Buffer): only the bytes it covers.
    const pooled = new TextEncoder().encode(`xx${payload}yy`);
    const view = new DataView(pooled.buffer, 2, pooled.length - 4);
    await expect(verifyWebhook({ payload: view as unknown as Uint8Array, headers, secret: SECRET, now })).resolves.toEqual(received(event));
  });

  it('a stream or request handed over unread: the TypeError names it', async () => {
    const { payload, headers } = delivery(couponRedeemed());
    const request = new Request('https://game.test/webhooks', { method: 'POST', body: payload });
    await expect(verifyWebhook({ payload: request.body as unknown as string, headers, secret: SECRET, now })).rejects.toThrow(
      /^verifyWebhook needs the raw request body \(a string, Uint8Array\/Buffer or ArrayBuffer\), got a ReadableStream \(read its bytes first\)\./,
    );
    await expect(verifyWebhook({ payload: request as unknown as string, headers, secret: SECRET, now })).rejects.toThrow(/, got a Request \(read its bytes first\)\./);
  });

  it('reads headers from a Headers object, upper-case plain keys and node string[] values', async () => {
    const event = couponRedeemed();
    const { payload, headers } = delivery(event);

    await expect(verifyWebhook({ payload, headers: new Headers(headers), secret: SECRET, now })).resolves.toEqual(received(event));
    const upper = { 'Webhook-Id': headers['webhook-id'], 'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'], 'Webhook-Signature': headers['webhook-signature'] };
    await expect(verifyWebhook({ payload, headers: upper, secret: SECRET, now })).resolves.toEqual(received(event));
    const node = { ...headers, 'webhook-signature': ['v1,AAAA', headers['webhook-signature']], 'content-length': undefined };
    await expect(verifyWebhook({ payload, headers: node, secret: SECRET, now })).resolves.toEqual(received(event));
  });

  it("reads headers given as [name, value] pairs (Fetch's HeadersInit sequence, [...request.headers])", async () => {
    // Read as a plain object, the pairs' keys were '0', '1', '2': a genuine delivery was refused as missing_headers.
    const event = couponRedeemed();
    const { payload, headers } = delivery(event);
    const pairs = [...new Headers(headers)];
    await expect(verifyWebhook({ payload, headers: pairs, secret: SECRET, now })).resolves.toEqual(received(event));
    const repeated = [...pairs.filter(([name]) => name !== 'webhook-signature'), ['Webhook-Signature', 'v1,AAAA'], ['webhook-signature', headers['webhook-signature']]] as [string, string][];
    await expect(verifyWebhook({ payload, headers: repeated, secret: SECRET, now })).resolves.toEqual(received(event));
    // node's flat req.rawHeaders is no such list: said plainly, not missing_headers.
    const raw = pairs.flat();
    await expect(verifyWebhook({ payload, headers: raw as never, secret: SECRET, now })).rejects.toThrow(TypeError);
  });

  it('reads headers given as a Map case-insensitively (HTTP header names are case-insensitive)', async () => {
    // A Map has a get(), so it was used as a Headers: its get() is case-sensitive and 'Webhook-Id' was missing_headers.
    const event = couponRedeemed();
    const { payload, headers } = delivery(event);
    const map = new Map(Object.entries(headers).map(([name, value]) => [name.replace(/(^|-)w/g, (m) => m.toUpperCase()), value]));
    await expect(verifyWebhook({ payload, headers: map, secret: SECRET, now })).resolves.toEqual(received(event));
    const foreign = vm.runInNewContext('(entries) => new Map(entries)')([...map]);
    await expect(verifyWebhook({ payload, headers: foreign, secret: SECRET, now })).resolves.toEqual(received(event));
  });

  it('passes when only the second of several signatures matches (key rotation)', async () => {
    const event = couponRedeemed();
    const { payload, headers } = delivery(event);
    const stale = computeSignature(OTHER_SECRET, 'msg_1', NOW_SECONDS, payload);
    const rotated = { ...headers, 'webhook-signature': `${stale} ${headers['webhook-signature']}` };

    await expect(verifyWebhook({ payload, headers: rotated, secret: SECRET, now })).resolves.toEqual(received(event));
  });

  it('passes when repeated signature headers were joined with ", " (Fetch Headers)', async () => {
    const event = couponRedeemed();
    const { payload, headers } = delivery(event);
    const joined = new Headers({ 'webhook-id': headers['webhook-id'], 'webhook-timestamp': headers['webhook-timestamp'] });
    joined.append('webhook-signature', computeSignature(OTHER_SECRET, 'msg_1', NOW_SECONDS, payload));
    joined.append('webhook-signature', headers['webhook-signature']);

    await expect(verifyWebhook({ payload, headers: joined, secret: SECRET, now })).resolves.toEqual(received(event));
  });

  it('accepts timestamps exactly at the tolerance either way', async () => {
    const old = delivery(couponRedeemed(), { timestamp: NOW_SECONDS - 300 });
    const future = delivery(couponRedeemed(), { timestamp: NOW_SECONDS + 300 });

    await expect(verifyWebhook({ ...old, secret: SECRET, now })).resolves.toMatchObject({ id: 'evt_coupon_1' });
    await expect(verifyWebhook({ ...future, secret: SECRET, now })).resolves.toMatchObject({ id: 'evt_coupon_1' });
  });

  // A genuine delivery is never refused over its shape: a sender that wrote one name in Latin-1 would otherwise get
  // 400 for every retry of the same bytes, and the reward would never be granted.
  it('accepts a signed body with bytes that are not UTF-8 inside a string: each read as U+FFFD; a BOM is skipped', async () => {
    const encoder = new TextEncoder();
    const [head, tail] = JSON.stringify(couponRedeemed()).split('WELCOME');
    const payload = new Uint8Array([0xef, 0xbb, 0xbf, ...encoder.encode(`${head}CAF`), 0xc9, ...encoder.encode(tail)]);
    const headers = { 'webhook-id': 'msg_1', 'webhook-timestamp': String(NOW_SECONDS), 'webhook-signature': computeSignature(SECRET, 'msg_1', NOW_SECONDS, payload) };

    const verified = await verifyWebhook({ payload, headers, secret: SECRET, now });

    expect(verified).toMatchObject({ id: 'evt_coupon_1', type: 'coupon.redeemed', data: { userId: 'user-1', couponCode: 'CAF\uFFFD' } });
  });
});

describe('verifyWebhook: rejections, one reason each', () => {
  it('tampered body: invalid_signature', async () => {
    const { payload, headers } = delivery(couponRedeemed());
    const tampered = payload.replace('"itemQuantity":100', '"itemQuantity":100000');
    expect(tampered).not.toBe(payload);

    const error = await rejection(verifyWebhook({ payload: tampered, headers, secret: SECRET, now }));
    expect(error.reason).toBe('invalid_signature');
    expect(error.message).toBe('No webhook-signature entry matches the payload and secret: check the secret, and pass the raw body as received (JSON parsed and serialised again has other bytes)');
  });

  // A framework's JSON parser ran first and the handler serialised req.body again: the same event, other bytes.
  it('body re-serialised after parsing: invalid_signature saying to pass the raw body', async () => {
    const { payload, headers } = delivery(couponRedeemed());
    const reserialised = JSON.stringify(JSON.parse(payload), null, 2);

    const error = await rejection(verifyWebhook({ payload: reserialised, headers, secret: SECRET, now }));
    expect(error.reason).toBe('invalid_signature');
    expect(error.message).toContain('pass the raw body as received (JSON parsed and serialised again has other bytes)');
  });

  it('wrong secret: invalid_signature', async () => {
    const { payload, headers } = delivery(couponRedeemed());

    const error = await rejection(verifyWebhook({ payload, headers, secret: OTHER_SECRET, now }));
    expect(error.reason).toBe('invalid_signature');
  });

  it('signature of another version only: invalid_signature', async () => {
    const { payload, headers } = delivery(couponRedeemed());
    const v2 = { ...headers, 'webhook-signature': headers['webhook-signature'].replace(/^v1,/, 'v2,') };

    const error = await rejection(verifyWebhook({ payload, headers: v2, secret: SECRET, now }));
    expect(error.reason).toBe('invalid_signature');
  });

  it('timestamp one second beyond the tolerance in the past: timestamp_too_old', async () => {
    const { payload, headers } = delivery(couponRedeemed(), { timestamp: NOW_SECONDS - 301 });

    const error = await rejection(verifyWebhook({ payload, headers, secret: SECRET, now }));
    expect(error.reason).toBe('timestamp_too_old');
    expect(error.message).toBe('webhook-timestamp is 301 s old (tolerance 300 s)');
  });

  it('timestamp one second beyond the tolerance in the future: timestamp_too_new', async () => {
    const { payload, headers } = delivery(couponRedeemed(), { timestamp: NOW_SECONDS + 301 });

    const error = await rejection(verifyWebhook({ payload, headers, secret: SECRET, now }));
    expect(error.reason).toBe('timestamp_too_new');
    expect(error.message).toBe('webhook-timestamp is 301 s in the future (tolerance 300 s)');
  });

  it('honours a custom tolerance', async () => {
    const { payload, headers } = delivery(couponRedeemed(), { timestamp: NOW_SECONDS - 11 });

    const error = await rejection(verifyWebhook({ payload, headers, secret: SECRET, now, toleranceSeconds: 10 }));
    expect(error.reason).toBe('timestamp_too_old');
  });

  it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)('missing %s: missing_headers', async (name) => {
    const { payload, headers } = delivery(couponRedeemed());
    const { [name]: _removed, ...rest } = headers;

    const error = await rejection(verifyWebhook({ payload, headers: rest, secret: SECRET, now }));
    expect(error.reason).toBe('missing_headers');
    expect(error.message).toBe(`Missing webhook header(s): ${name}`);
  });

  it('non-numeric timestamp: invalid_timestamp', async () => {
    const { payload, headers } = delivery(couponRedeemed());

    const error = await rejection(verifyWebhook({ payload, headers: { ...headers, 'webhook-timestamp': '17145648OO' }, secret: SECRET, now }));
    expect(error.reason).toBe('invalid_timestamp');
    expect(error.message).toBe('webhook-timestamp is not a number of seconds: "17145648OO"');
  });

  // Before, each was refused (invalid_payload, 400 from the receiver): the service would resend a signed delivery,
  // byte for byte, until it gave up. The signature decides; a shape never refuses.
  it.each([
    ['text that is not JSON', 'not json', 'not json'],
    ['an array', '[{"type":"coupon.redeemed"}]', [{ type: 'coupon.redeemed' }]],
    ['a string', '"coupon.redeemed"', 'coupon.redeemed'],
    ['null', 'null', null],
    ['a number', '7', 7],
  ])("signed body that is %s: accepted as an unknown event of type '', raw as sent", async (_, payload, raw) => {
    const { headers } = delivery({}, {});
    const signed = { ...headers, 'webhook-signature': computeSignature(SECRET, 'msg_1', NOW_SECONDS, payload) };

    const event = await verifyWebhook({ payload, headers: signed, secret: SECRET, now });
    expect(event).toEqual({ id: 'msg_1', type: '', data: {}, raw });
    expect(isKnownWebhookEvent(event)).toBe(false);
  });

  it('a body that is not JSON, signed with another secret: still invalid_signature', async () => {
    const { headers } = delivery({}, {});
    const payload = 'not json';
    const signed = { ...headers, 'webhook-signature': computeSignature(OTHER_SECRET, 'msg_1', NOW_SECONDS, payload) };

    expect((await rejection(verifyWebhook({ payload, headers: signed, secret: SECRET, now }))).reason).toBe('invalid_signature');
  });

  it.each([
    ['no type', { data: {} }],
    ['a number as type', { type: 7, data: {} }],
    ['null as type', { type: null, data: {} }],
  ])("signed object with %s: accepted as an unknown event of type '' (the service's, whatever its envelope)", async (_, body) => {
    const { payload, headers } = delivery(body);

    const event = await verifyWebhook({ payload, headers, secret: SECRET, now });
    expect(event).toMatchObject({ type: '', data: {}, raw: body });
    expect(isKnownWebhookEvent(event)).toBe(false);
  });

  it('an already-parsed object as payload: TypeError', async () => {
    const event = couponRedeemed();
    const { headers } = delivery(event);

    await expect(verifyWebhook({ payload: event as unknown as string, headers, secret: SECRET, now })).rejects.toThrow(TypeError);
    await expect(verifyWebhook({ payload: event as unknown as string, headers, secret: SECRET, now })).rejects.toThrow(
      /^verifyWebhook needs the raw request body \(a string, Uint8Array\/Buffer or ArrayBuffer\), got object\./,
    );
  });

  // On 349fc30 a clock giving no number (NaN compares false with every bound) switched the timestamp check off:
  // a delivery signed in 1970 was accepted.
  it.each([['undefined', () => undefined], ['a string', () => '2026-11-27T00:00:00Z'], ['NaN', () => Number.NaN]])('a now() that gives %s: TypeError, the delivery not accepted', async (_, badNow) => {
    const { payload, headers } = delivery(couponRedeemed(), { timestamp: 1000 });
    await expect(verifyWebhook({ payload, headers, secret: SECRET, now: badNow as unknown as () => number })).rejects.toThrow(
      new TypeError(`now() must give the time in ms since the epoch (a finite number), got ${String(badNow())}`),
    );
  });

  it('a secret that is not whsec_<base64>: TypeError', async () => {
    const { payload, headers } = delivery(couponRedeemed());

    await expect(verifyWebhook({ payload, headers, secret: 'whsec_not base64!', now })).rejects.toThrow(
      new TypeError('secret must be whsec_ followed by base64, as returned when the webhook was created'),
    );
    await expect(verifyWebhook({ payload, headers, secret: 'whsec_', now })).rejects.toThrow(new TypeError('secret must not be empty after the whsec_ prefix'));
  });

  // On 16d1558 a secret read from an env file with its line break, or with the quotes Docker's --env-file keeps, was
  // refused as "must be whsec_ followed by base64", which it looked like.
  it.each([
    [`${SECRET}\n`, 'has a line break or space at its start or end (read from an env file? trim it)'],
    [`${SECRET}\r`, 'has a line break or space at its start or end (read from an env file? trim it)'],
    [`"${SECRET}"`, 'is wrapped in quotes, which are not part of it (an env file read without removing them?)'],
  ])('a secret as an env file leaves it (%j): a TypeError saying why, from verifyWebhook and createWebhookReceiver', async (secret, problem) => {
    const { payload, headers } = delivery(couponRedeemed());
    const expected = new TypeError(`secret ${problem}; it must be whsec_ followed by base64, as returned when the webhook was created`);
    await expect(verifyWebhook({ payload, headers, secret, now })).rejects.toThrow(expected);
    expect(() => createWebhookReceiver({ secret })).toThrow(expected);
  });

  it("called with nothing (from JavaScript): the raw body's TypeError, not a destructuring one", async () => {
    const error = await (verifyWebhook as (options?: unknown) => Promise<unknown>)().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toMatch(/^verifyWebhook needs the raw request body .*, got undefined\./);
  });
});

describe('isWebhookVerificationError', () => {
  it('recognises the class, and an error from another realm by name and reason', () => {
    expect(isWebhookVerificationError(new WebhookVerificationError('replayed', 'again'))).toBe(true);
    const foreign = Object.assign(new Error('x'), { name: 'WebhookVerificationError', reason: 'invalid_signature' });
    expect(isWebhookVerificationError(foreign)).toBe(true);
  });

  it('refuses other errors and look-alikes with an unknown reason', () => {
    expect(isWebhookVerificationError(new Error('x'))).toBe(false);
    expect(isWebhookVerificationError({ name: 'WebhookVerificationError', reason: 'nope' })).toBe(false);
    expect(isWebhookVerificationError(null)).toBe(false);
  });
});

describe('verifyWebhook with another scheme', () => {
  it('uses the scheme given, and still validates the event', async () => {
    const seen: string[] = [];
    const scheme: WebhookScheme = {
      sign: () => ({ 'x-token': 'token' }),
      verify: ({ headers, nowSeconds, toleranceSeconds }) => {
        seen.push(`${headers.get('X-Token')} ${nowSeconds} ${toleranceSeconds}`);
        if (headers.get('x-token') !== 'token') throw new WebhookVerificationError('invalid_signature', 'bad token');
      },
    };
    const event = couponRedeemed();
    const payload = JSON.stringify(event);

    await expect(verifyWebhook({ payload, headers: { 'x-token': 'token' }, secret: 'anything', now, scheme })).resolves.toEqual(received(event));
    const error = await rejection(verifyWebhook({ payload, headers: { 'x-token': 'forged' }, secret: 'anything', now, scheme }));
    expect(error.reason).toBe('invalid_signature');
    expect(seen).toEqual([`token ${NOW_SECONDS} 300`, `forged ${NOW_SECONDS} 300`]);
  });
});
