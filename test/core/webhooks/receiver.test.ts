import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ReceivedWebhookEvent, WebhookEventOf } from '../../../core/schema/events.js';
import { WebhookTimeoutError, WebhookVerificationError } from '../../../core/webhooks/errors.js';
import { createWebhookReceiver, type WebhookReceiver } from '../../../core/webhooks/receiver.js';
import { verifyWebhook } from '../../../core/webhooks/verify.js';
import { couponRedeemed, delivery, NOW_MS, NOW_SECONDS, OTHER_SECRET, received, SECRET, sponsorChanged } from './fixtures.js';

/** A receiver on a clock the test moves. */
function setup() {
  const clock = { ms: NOW_MS };
  const receiver = createWebhookReceiver({ secret: SECRET, now: () => clock.ms });
  const events: ReceivedWebhookEvent[] = [];
  const errors: unknown[] = [];
  receiver.on('event', (event) => void events.push(event));
  receiver.on('error', (error) => void errors.push(error));
  return { clock, receiver, events, errors };
}

function post(d: { payload: string; headers: Record<string, string> }, method = 'POST'): Request {
  return new Request('http://game.test/webhooks', { method, headers: d.headers, body: method === 'GET' ? null : d.payload });
}

async function answer(receiver: WebhookReceiver, request: Request) {
  const response = await receiver.fetch(request);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('createWebhookReceiver: fetch', () => {
  it('answers 204 to a valid delivery and emits it once, typed by its type', async () => {
    const { receiver, events } = setup();
    const redeemed: WebhookEventOf<'coupon.redeemed'>[] = [];
    const changed: unknown[] = [];
    receiver.on('coupon.redeemed', (event) => void redeemed.push(event));
    receiver.on('sponsor.changed', (event) => void changed.push(event.data.newCreatorKey));

    expect(await answer(receiver, post(delivery(couponRedeemed())))).toEqual({ status: 204, body: undefined });
    expect(redeemed).toEqual([received(couponRedeemed())]);
    expect(events).toEqual([received(couponRedeemed())]);
    expect(changed).toEqual([]);
  });

  it('answers 200 to the same delivery id again and does not emit it again', async () => {
    const { receiver, events } = setup();
    const d = delivery(couponRedeemed());

    expect((await answer(receiver, post(d))).status).toBe(204);
    expect(await answer(receiver, post(d))).toEqual({ status: 200, body: undefined });
    expect(events).toHaveLength(1);
  });

  it('answers 401 with the reason for each failed check, and emits each as error', async () => {
    const { receiver, events, errors } = setup();
    const good = delivery(couponRedeemed());
    const cases: [Request, string][] = [
      [post({ payload: good.payload.replace('WELCOME', 'WELCOMX'), headers: good.headers }), 'invalid_signature'],
      [post(delivery(couponRedeemed(), { secret: OTHER_SECRET })), 'invalid_signature'],
      [post(delivery(couponRedeemed(), { timestamp: NOW_SECONDS - 301 })), 'timestamp_too_old'],
      [post(delivery(couponRedeemed(), { timestamp: NOW_SECONDS + 301 })), 'timestamp_too_new'],
      [post({ payload: good.payload, headers: { ...good.headers, 'webhook-timestamp': 'soon' } }), 'invalid_timestamp'],
      [post({ payload: good.payload, headers: { 'webhook-id': 'msg_1' } }), 'missing_headers'],
    ];
    for (const [request, reason] of cases) expect(await answer(receiver, request)).toEqual({ status: 401, body: { error: reason } });
    expect(events).toEqual([]);
    expect(errors.map((e) => (e as WebhookVerificationError).reason)).toEqual(cases.map(([, reason]) => reason));
  });

  // Before, 400 invalid_payload: a genuine delivery whose envelope names its type otherwise (the spec shows none) was
  // resent until the service gave up, every event of it lost.
  it("accepts a signed object that names no type as a string, as an unknown event of type ''", async () => {
    const { receiver, events } = setup();
    const unknown: unknown[] = [];
    receiver.on('unknown', (event) => void unknown.push(event));
    const body = { event: 'coupon.redeemed', payload: { couponCode: 'DAILY' } };

    expect(await answer(receiver, post(delivery(body)))).toEqual({ status: 204, body: undefined });
    expect(unknown).toEqual([expect.objectContaining({ type: '', data: {}, raw: body })]);
    expect(events).toEqual([expect.objectContaining({ type: '' })]);
  });

  // Before, 400 invalid_payload: resent by the service until it gave up.
  it("accepts a signed body that is not a JSON object, as an unknown event of type '' holding it", async () => {
    const { receiver, events } = setup();
    const unknown: unknown[] = [];
    receiver.on('unknown', (event) => void unknown.push(event));

    expect(await answer(receiver, post(delivery(['coupon.redeemed'] as never)))).toEqual({ status: 204, body: undefined });
    expect(unknown).toEqual([expect.objectContaining({ type: '', data: {}, raw: ['coupon.redeemed'] })]);
    expect(events).toEqual([expect.objectContaining({ type: '' })]);
  });

  it('answers 413 to a body over maxBodyBytes, declared or not, without verifying it', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, now: () => NOW_MS, maxBodyBytes: 100 });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const big = delivery(couponRedeemed());
    expect(big.payload.length).toBeGreaterThan(100);
    expect(await answer(receiver, post(big))).toEqual({ status: 413, body: { error: 'payload_too_large' } });
    const undeclared = new Request('http://game.test/webhooks', {
      method: 'POST',
      headers: big.headers,
      body: new Blob([big.payload]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(await answer(receiver, undeclared)).toEqual({ status: 413, body: { error: 'payload_too_large' } });
    expect(errors).toEqual([]);
  });

  // p47: a body trickled (or stalled) was read for as long as its sender kept the connection: no answer on Deno and
  // workerd after 45 s, on Node until node:http's requestTimeout (300 s), where the relay answers 408 at its bodyTimeoutMs.
  it('answers 408 to a body still arriving after bodyTimeoutMs, and stops reading it', async () => {
    vi.useFakeTimers();
    const receiver = createWebhookReceiver({ secret: SECRET, now: () => NOW_MS, bodyTimeoutMs: 5_000 });
    const errors: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    const { headers, payload } = delivery(couponRedeemed());
    let cancelled = false;
    // The first bytes, then nothing more: a slow-loris sender.
    const stream = new ReadableStream<Uint8Array>({
      start: (controller) => controller.enqueue(new TextEncoder().encode(payload.slice(0, 10))),
      cancel: () => void (cancelled = true),
    });
    const answering = receiver.fetch(new Request('http://game.test/webhooks', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit));
    await vi.advanceTimersByTimeAsync(4_999);
    let settled = false;
    void answering.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const response = await answering;
    expect([response.status, await response.json(), response.headers.get('connection'), cancelled]).toEqual([408, { error: 'body_timeout' }, 'close', true]);
    expect(errors).toEqual([]);
  });

  it('reads a body that arrives within bodyTimeoutMs (the default, 10 s) as any other', async () => {
    vi.useFakeTimers();
    const receiver = createWebhookReceiver({ secret: SECRET, now: () => NOW_MS });
    const { headers, payload } = delivery(couponRedeemed());
    const bytes = new TextEncoder().encode(payload);
    let sent = 0;
    // A byte a second, the last one at 9 s: slow, but within the default.
    const stream = new ReadableStream<Uint8Array>({
      pull: async (controller) => {
        await new Promise((resolve) => setTimeout(resolve, sent === 0 ? 0 : Math.floor(9_000 / (bytes.length - 1))));
        controller.enqueue(bytes.subarray(sent, sent + 1));
        if (++sent === bytes.length) controller.close();
      },
    });
    const answering = receiver.fetch(new Request('http://game.test/webhooks', { method: 'POST', headers, body: stream, duplex: 'half' } as RequestInit));
    await vi.advanceTimersByTimeAsync(9_500);
    expect((await answering).status).toBe(204);
  });

  it('refuses a body time-out that is not a finite number of ms >= 1 at creation', () => {
    for (const bodyTimeoutMs of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY]) {
      expect(() => createWebhookReceiver({ secret: SECRET, bodyTimeoutMs })).toThrow(new TypeError(`bodyTimeoutMs must be a finite number of ms >= 1, got ${bodyTimeoutMs}`));
    }
  });

  it('answers 405 to anything but POST', async () => {
    const { receiver } = setup();
    const response = await receiver.fetch(post(delivery(couponRedeemed()), 'GET'));

    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('POST');
    expect(await response.json()).toEqual({ error: 'method_not_allowed' });
  });

  it('answers 204 although a listener throws or rejects, reports both as error, and still calls the others', async () => {
    const { receiver, events, errors } = setup();
    receiver.on('coupon.redeemed', () => {
      throw new Error('sync boom');
    });
    receiver.on('coupon.redeemed', async () => {
      throw new Error('async boom');
    });

    expect((await answer(receiver, post(delivery(couponRedeemed())))).status).toBe(204);
    await Promise.resolve();
    expect(events).toHaveLength(1);
    expect(errors.map((e) => (e as Error).message)).toEqual(['sync boom', 'async boom']);
  });

  // Before, its error left the dispatch half done: the `event` listeners and the waits never saw the event, fetch rejected
  // (a 500), and the service's retry was a replay (200, not emitted again): the event was lost to them.
  it('answers as before when an error listener itself throws: logged, the event still reaches every listener and wait', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { receiver, events } = setup();
    receiver.on('error', () => {
      throw new Error('error listener bug');
    });
    receiver.on('coupon.redeemed', () => {
      throw new Error('listener bug');
    });
    const waiting = receiver.waitFor({ callbackId: 'cb-1' });

    expect((await answer(receiver, post(delivery(couponRedeemed())))).status).toBe(204);
    expect(events).toHaveLength(1);
    await expect(waiting).resolves.toEqual(received(couponRedeemed()));
    const tampered = delivery(couponRedeemed(), { id: 'msg_2' });
    expect(await answer(receiver, post({ ...tampered, payload: tampered.payload.replace('WELCOME', 'WELCOMF') }))).toEqual({ status: 401, body: { error: 'invalid_signature' } });
    expect(logged.mock.calls.map(([error]) => (error as Error).message)).toEqual(['error listener bug', 'error listener bug']);
    logged.mockRestore();
  });

  it('is usable unbound, as { fetch: receiver.fetch }', async () => {
    const { receiver } = setup();
    const { fetch } = receiver;

    expect((await fetch(post(delivery(couponRedeemed())))).status).toBe(204);
  });
});

describe('createWebhookReceiver: verify and replays', () => {
  it('throws replayed for a delivery id it accepted already', async () => {
    const { receiver } = setup();
    const d = delivery(couponRedeemed());

    await expect(receiver.verify(d)).resolves.toEqual(received(couponRedeemed()));
    const error = await receiver.verify(d).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WebhookVerificationError);
    expect((error as WebhookVerificationError).reason).toBe('replayed');
    expect((error as WebhookVerificationError).message).toBe('Webhook delivery msg_1 was already received');
  });

  it('does not remember a delivery that failed verification (a forged id cannot block the real one)', async () => {
    const { receiver } = setup();

    await expect(receiver.verify(delivery(couponRedeemed(), { secret: OTHER_SECRET }))).rejects.toMatchObject({ reason: 'invalid_signature' });
    await expect(receiver.verify(delivery(couponRedeemed()))).resolves.toEqual(received(couponRedeemed()));
  });

  it('forgets a delivery id once the tolerance window has passed', async () => {
    const { clock, receiver } = setup();
    await receiver.verify(delivery(couponRedeemed(), { id: 'msg_old' }));

    clock.ms = NOW_MS + 300_999;
    await expect(receiver.verify(delivery(couponRedeemed(), { id: 'msg_old', timestamp: NOW_SECONDS + 300 }))).rejects.toMatchObject({ reason: 'replayed' });
    clock.ms = NOW_MS + 301_000;
    await expect(receiver.verify(delivery(couponRedeemed(), { id: 'msg_old', timestamp: NOW_SECONDS + 300 }))).resolves.toEqual(received(couponRedeemed()));
  });

  it('keeps a delivery with a future timestamp until its timestamp plus the tolerance', async () => {
    const { clock, receiver } = setup();
    const future = delivery(couponRedeemed(), { id: 'msg_future', timestamp: NOW_SECONDS + 300 });
    await receiver.verify(future);

    clock.ms = NOW_MS + 600_999;
    await expect(receiver.verify(future)).rejects.toMatchObject({ reason: 'replayed' });
    clock.ms = NOW_MS + 601_000;
    await expect(receiver.verify(future)).rejects.toMatchObject({ reason: 'timestamp_too_old' });
  });

  it('answers one of two concurrent copies 204 and the other 200', async () => {
    const { receiver, events } = setup();
    const d = delivery(couponRedeemed());

    const statuses = await Promise.all([receiver.fetch(post(d)), receiver.fetch(post(d))]).then((rs) => rs.map((r) => r.status).sort());
    expect(statuses).toEqual([200, 204]);
    expect(events).toHaveLength(1);
  });
});

describe('createWebhookReceiver: waitFor', () => {
  it('resolves with an event that arrives after the call', async () => {
    const { receiver } = setup();
    const waiting = receiver.waitFor({ callbackId: 'cb-1' });

    await receiver.fetch(post(delivery(sponsorChanged())));
    await receiver.fetch(post(delivery(couponRedeemed(), { id: 'msg_2' })));
    await expect(waiting).resolves.toEqual(received(couponRedeemed()));
  });

  it('resolves with an event that arrived before the call', async () => {
    const { receiver } = setup();
    await receiver.fetch(post(delivery(couponRedeemed())));

    await expect(receiver.waitFor({ callbackId: 'cb-1' })).resolves.toEqual(received(couponRedeemed()));
  });

  it('matches the type when one is given', async () => {
    const { receiver } = setup();
    await receiver.fetch(post(delivery(sponsorChanged({ callbackId: 'shared' }))));
    const waiting = receiver.waitFor({ callbackId: 'shared', type: 'coupon.redeemed' });
    await receiver.fetch(post(delivery(couponRedeemed({ callbackId: 'shared' }), { id: 'msg_2' })));

    const event = await waiting;
    expect(event.type).toBe('coupon.redeemed');
    expect(event.data.couponCode).toBe('WELCOME');
  });

  it('does not find an event older than the tolerance window', async () => {
    vi.useFakeTimers();
    const { clock, receiver } = setup();
    await receiver.fetch(post(delivery(couponRedeemed())));
    clock.ms = NOW_MS + 301_000;

    const waiting = receiver.waitFor({ callbackId: 'cb-1', timeoutMs: 10 });
    const settled = waiting.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    expect(await settled).toBeInstanceOf(WebhookTimeoutError);
  });

  it('rejects with WebhookTimeoutError when nothing arrives in time', async () => {
    vi.useFakeTimers();
    const { receiver } = setup();
    const settled = receiver.waitFor({ callbackId: 'never', timeoutMs: 5000 }).catch((e: unknown) => e);

    await vi.advanceTimersByTimeAsync(4999);
    await receiver.fetch(post(delivery(couponRedeemed())));
    await vi.advanceTimersByTimeAsync(1);
    const error = await settled;
    expect(error).toBeInstanceOf(WebhookTimeoutError);
    expect((error as WebhookTimeoutError).message).toBe('No webhook event with callbackId "never" arrived within 5000 ms');
  });

  it('waits 30 s by default', async () => {
    vi.useFakeTimers();
    const { receiver } = setup();
    let outcome = 'pending';
    receiver.waitFor({ callbackId: 'late' }).then(
      () => (outcome = 'resolved'),
      () => (outcome = 'rejected'),
    );

    await vi.advanceTimersByTimeAsync(29_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBe('rejected');
  });

  // A timer over 2^31 - 1 ms fires at once in every runtime: Infinity rejected at once, saying it waited Infinity ms.
  it.each([Infinity, 2 ** 31])('waits with no time-out for timeoutMs %s, as long as it takes', async (timeoutMs) => {
    vi.useFakeTimers();
    const { receiver } = setup();
    let outcome = 'pending';
    const waiting = receiver.waitFor({ callbackId: 'cb-1', timeoutMs });
    waiting.then(
      () => (outcome = 'resolved'),
      () => (outcome = 'rejected'),
    );

    await vi.advanceTimersByTimeAsync(2 ** 31 + 1000);
    expect(outcome).toBe('pending');
    await receiver.fetch(post(delivery(couponRedeemed())));
    await expect(waiting).resolves.toEqual(received(couponRedeemed()));
  });

  it.each([0, -5, NaN])('refuses timeoutMs %s with a RangeError rather than a time-out that never waited', async (timeoutMs) => {
    const { receiver } = setup();
    await expect(receiver.waitFor({ callbackId: 'cb-1', timeoutMs })).rejects.toThrow(new RangeError(`timeoutMs must be above 0 ms (Infinity: none), not ${timeoutMs}`));
  });

  // Without one it matched every event sent without a callbackId: another player's redeem, say.
  it.each([
    ['no callbackId', {}],
    ['an empty callbackId', { callbackId: '' }],
    ['a number', { callbackId: 42 }],
    ['no options at all', undefined],
  ])('refuses %s with a TypeError, never resolving with an event sent without one', async (_, options) => {
    const { receiver } = setup();
    await receiver.fetch(post(delivery(couponRedeemed({ callbackId: undefined }))));

    await expect(receiver.waitFor(options as never)).rejects.toThrow(
      new TypeError(`waitFor needs the callbackId the request was sent with (a non-empty string), got ${String((options as { callbackId?: unknown } | undefined)?.callbackId)}`),
    );
  });
});

describe('createWebhookReceiver: waitFor on a Cloudflare Worker dated before 2024-10-14', () => {
  // workerd has WebSocketPair at every date; before 2024-10-14 it refuses `new Request(url, { method: 'patch' })`,
  // and a promise of one request settled by another request's work answers the waiting one with a bare 500
  // ("Promise will never complete"). A delivery always comes as a request of its own.
  const pretendOldWorker = () => {
    vi.stubGlobal('WebSocketPair', function WebSocketPair() {});
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    const Native = Request;
    vi.stubGlobal('Request', class extends Native {
      constructor(input: RequestInfo | URL, init?: RequestInit) {
        if (init?.method === 'patch') throw new TypeError('Invalid HTTP method string: patch');
        super(input, init);
      }
    });
  };
  afterEach(() => void vi.unstubAllGlobals());

  it('refuses at once, saying why and what to do, when the event has not arrived (never a wait another request would settle)', async () => {
    const { receiver } = setup();
    pretendOldWorker();
    await expect(receiver.waitFor({ callbackId: 'cb-1', timeoutMs: 10 })).rejects.toThrow(
      new TypeError(
        'receiver.waitFor cannot wait on a Cloudflare Worker dated before 2024-10-14: the delivery arrives as another request, ' +
          'which cannot settle this one there (workerd would answer it with a bare 500). Set compatibility_date to 2024-10-14 or later.',
      ),
    );
  });

  it('still resolves with an event that arrived before the call', async () => {
    const { receiver } = setup();
    await receiver.fetch(post(delivery(couponRedeemed())));
    pretendOldWorker();
    await expect(receiver.waitFor({ callbackId: 'cb-1' })).resolves.toEqual(received(couponRedeemed()));
  });
});

describe('createWebhookReceiver: listeners', () => {
  it('once calls a listener for the next event only, and off removes one', async () => {
    const { receiver } = setup();
    const calls: string[] = [];
    const removed = () => void calls.push('removed');
    receiver.once('event', (event) => void calls.push(`once ${event.id}`));
    receiver.on('coupon.redeemed', removed);
    receiver.off('coupon.redeemed', removed);
    receiver.off('coupon.redeemed', () => undefined);

    await receiver.fetch(post(delivery(couponRedeemed({ id: 'evt_a' }), { id: 'msg_a' })));
    await receiver.fetch(post(delivery(couponRedeemed({ id: 'evt_b' }), { id: 'msg_b' })));
    expect(calls).toEqual(['once evt_a']);
  });

  it('refuses a malformed secret at creation', () => {
    expect(() => createWebhookReceiver({ secret: '' })).toThrow(
      new TypeError('secret must be the webhook secret string (whsec_...) returned when the webhook was created'),
    );
  });

  it('refuses a body cap that is not a finite number of bytes >= 1 at creation (NaN read bodies of any size)', () => {
    for (const maxBodyBytes of [Number.NaN, 0, -1, Number.POSITIVE_INFINITY]) {
      expect(() => createWebhookReceiver({ secret: SECRET, maxBodyBytes })).toThrow(new TypeError(`maxBodyBytes must be a finite number of bytes >= 1, got ${maxBodyBytes}`));
    }
  });

  it('refuses a now that is not a function at creation', () => {
    expect(() => createWebhookReceiver({ secret: SECRET, now: Date.now() as unknown as () => number })).toThrow(new TypeError(`now must be a function giving ms since the epoch, got number`));
  });

  it('answers 500 and reports a TypeError when now() gives no number (the timestamp check would be off), emitting nothing', async () => {
    const receiver = createWebhookReceiver({ secret: SECRET, now: (() => undefined) as unknown as () => number });
    const errors: unknown[] = [];
    const events: unknown[] = [];
    receiver.on('error', (error) => void errors.push(error));
    receiver.on('event', (event) => void events.push(event));
    const { status } = await answer(receiver, post(delivery(couponRedeemed(), { timestamp: 1000 })));
    expect([status, events, errors]).toEqual([500, [], [new TypeError('now() must give the time in ms since the epoch (a finite number), got undefined')]]);
  });

  // From plain JavaScript a tolerance under another name was ignored: the default 300 s applied, a value meant in ms unseen.
  it.each(['tolerance', 'toleranceMs'])('refuses a tolerance named %s, at creation and in verifyWebhook, naming toleranceSeconds', async (name) => {
    const expected = new TypeError(`\`${name}\` is not an option; use \`toleranceSeconds\` (in seconds)`);
    expect(() => createWebhookReceiver({ secret: SECRET, [name]: 600_000 } as never)).toThrow(expected);
    const { payload, headers } = delivery(couponRedeemed());
    await expect(verifyWebhook({ payload, headers, secret: SECRET, [name]: 600 } as never)).rejects.toThrow(expected);
    expect(() => createWebhookReceiver({ secret: SECRET, [name]: undefined } as never)).not.toThrow();
  });

  it('refuses a negative tolerance at creation', () => {
    expect(() => createWebhookReceiver({ secret: SECRET, toleranceSeconds: -1 })).toThrow(
      new TypeError('toleranceSeconds must be a finite number of seconds >= 0, got -1'),
    );
  });
});

describe('createWebhookReceiver: a body a framework already read', () => {
  // Hono reads `c.req.raw` itself for `c.req.json()` (and for its json validator), as Bun/Deno code that awaited
  // `request.json()` does: the receiver then has no bytes to verify. Before, that was 400 `unreadable_body`, as if the
  // service had sent something wrong, and nothing reached `error`; webhookMiddleware on Node says why (500).
  it('answers 500 body_already_read saying what to do, and emits the TypeError on error', async () => {
    const { Hono } = await import('hono');
    const { receiver, events, errors } = setup();
    const app = new Hono();
    app.use('/webhooks', async (c, next) => {
      await c.req.json(); // a logging or validation middleware before the route
      await next();
    });
    app.post('/webhooks', (c) => receiver.fetch(c.req.raw));

    const response = await app.fetch(post(delivery(couponRedeemed())));
    const body = (await response.json()) as { error: string; message: string };
    expect([response.status, body.error]).toEqual([500, 'body_already_read']);
    expect(body.message).toMatch(/already read.*raw body.*before/);
    expect(events).toEqual([]);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
    expect((errors[0] as TypeError).message).toBe(body.message);
  });

  it('still answers 400 unreadable_body to a body that fails while it is read', async () => {
    const { receiver, errors } = setup();
    const stream = new ReadableStream({ pull: (controller) => controller.error(new Error('connection reset')) });
    const request = new Request('http://game.test/webhooks', { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(await answer(receiver, request)).toEqual({ status: 400, body: { error: 'unreadable_body' } });
    expect(errors).toEqual([]);
  });
});

// p60: on a Cloudflare Worker a listener's I/O after the 204 was cancelled (test/runtimes/server-stories.ts shows it on
// workerd); the receiver now hands each listener's promise to the waitUntil of what the runtime passes.
describe("createWebhookReceiver: a listener's work after the answer (a Worker's ctx.waitUntil)", () => {
  /** A Worker's ExecutionContext: waitUntil on its prototype, as workerd has it. */
  class ExecutionContext {
    readonly held: Promise<unknown>[] = [];
    waitUntil(promise: Promise<unknown>): void {
      this.held.push(promise);
    }
  }

  it("hands each listener's promise, never rejecting, to the waitUntil of ctx given as (request, ctx) or (request, env, ctx)", async () => {
    const { receiver, errors } = setup();
    let finish: () => void = () => undefined;
    const granted: string[] = [];
    receiver.on('coupon.redeemed', async (event) => {
      await new Promise<void>((resolve) => (finish = resolve));
      granted.push(event.id);
    });
    receiver.on('event', () => Promise.reject(new Error('listener failed')));
    const ctx = new ExecutionContext();
    expect((await receiver.fetch(post(delivery(couponRedeemed())), ctx)).status).toBe(204);
    expect([ctx.held.length, granted]).toEqual([2, []]);
    finish();
    expect(await Promise.all(ctx.held)).toEqual([undefined, undefined]);
    expect(granted).toEqual([received(couponRedeemed()).id]);
    expect(errors.map((error) => (error as Error).message)).toEqual(['listener failed']);

    const { fetch } = receiver; // mounted as `export default { fetch: receiver.fetch }`: workerd calls it (request, env, ctx)
    const other = new ExecutionContext();
    expect((await fetch(post(delivery(sponsorChanged(), { id: 'msg_2' })), { WEBHOOK_SECRET: SECRET }, other)).status).toBe(204);
    expect(other.held).toHaveLength(1);
  });

  it('hands over nothing for a listener that returns no promise, nor without a context (Node, Bun, Deno: no warning)', async () => {
    const { receiver } = setup();
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    receiver.on('coupon.redeemed', async () => undefined);
    const ctx = new ExecutionContext();
    const sync = createWebhookReceiver({ secret: SECRET, now: () => NOW_MS });
    sync.on('event', () => undefined);
    expect((await sync.fetch(post(delivery(couponRedeemed())), ctx)).status).toBe(204);
    expect(ctx.held).toEqual([]);
    expect((await receiver.fetch(post(delivery(couponRedeemed(), { id: 'msg_2' })))).status).toBe(204);
    expect(warned).not.toHaveBeenCalled();
    warned.mockRestore();
  });
});
