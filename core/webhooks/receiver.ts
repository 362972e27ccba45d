/**
 * A webhook receiver: a Fetch-API handler that verifies deliveries, refuses replays, and hands typed events
 * to listeners and to `waitFor`.
 * @see spec "Events", DESIGN sections 8 and 10
 */
import EventEmitter from 'eventemitter3';
import { BodyTimeout, DEFAULT_BODY_LIMIT_BYTES, declaresMoreThan, readCapped, readWithin } from '../http/read-capped.js';
import type { ReceivedWebhookEvent, UnknownWebhookEvent, WebhookEventOf } from '../schema/events.js';
import type { WebhookEventType } from '../schema/webhooks.js';
import { WebhookTimeoutError, WebhookVerificationError, isWebhookVerificationError } from './errors.js';
import type { WebhookHeadersInput } from './headers.js';
import { crossRequestPromisesUnsupported } from '../server/runtime.js';
import { isKnownWebhookEvent } from './read-event.js';
import { BULK_CALLBACK_PREFIX } from '../schema/payments.js';
import { keepAliveOf, unheldOnWorker, type KeepAlive } from './keep-alive.js';
import { RecentDeliveries } from './recent-deliveries.js';
import { unref } from '../unref.js';
import { MAX_TIMER_MS } from '../schema/rules.js';
import { standardWebhooksScheme, type WebhookScheme } from './scheme.js';
import { assertTolerance, DEFAULT_TOLERANCE_SECONDS, secretList, verifyDelivery, type RawWebhookPayload, type WebhookSecret } from './verify.js';
import { ownFields } from '../own-options.js';

/** Options of {@link createWebhookReceiver}. */
export interface WebhookReceiverOptions {
  /**
   * The webhook secret, `whsec_<base64>`, returned once when the webhook was created; or several, while a webhook is
   * replaced by one with a new secret (both deliver until the old one is deleted): a delivery signed with any passes.
   */
  secret: WebhookSecret;
  /**
   * Timestamp tolerance, seconds; also how long delivery ids (replays) and events (`waitFor`) are remembered.
   * @defaultValue 300
   */
  toleranceSeconds?: number;
  /**
   * The clock, in ms since the epoch.
   * @defaultValue `Date.now`
   */
  now?: () => number;
  /**
   * The signing scheme.
   * @defaultValue {@link standardWebhooksScheme}
   */
  scheme?: WebhookScheme;
  /**
   * Largest delivery body in bytes, counted as it arrives (413 above): an unauthenticated sender cannot make
   * the receiver hold more. assumed: 1 MiB, far above any event the service sends.
   * @defaultValue 1048576
   * @throws TypeError from `createWebhookReceiver` when it is not a finite number >= 1
   */
  maxBodyBytes?: number;
  /**
   * How long a delivery's body may take to arrive, in ms, counted from when the receiver starts reading it: a body
   * still arriving then is answered 408 `{ error: 'body_timeout' }` and not read further, so a sender trickling its
   * body (or stalling) cannot hold a request open (the service gives a delivery at most its webhook's `timeoutMs`,
   * 30 s, and retries one not answered). assumed: 10 s, as the relay's `bodyTimeoutMs`.
   * @defaultValue 10000
   * @throws TypeError from `createWebhookReceiver` when it is not a finite number >= 1
   */
  bodyTimeoutMs?: number;
}

/** Default of {@link WebhookReceiverOptions.maxBodyBytes}. */
export const DEFAULT_WEBHOOK_MAX_BODY_BYTES = DEFAULT_BODY_LIMIT_BYTES;

/** Default of {@link WebhookReceiverOptions.bodyTimeoutMs}. */
export const DEFAULT_WEBHOOK_BODY_TIMEOUT_MS = 10_000;

/**
 * What each receiver event passes to its listeners: one entry per known event type; `unknown` for an event
 * of a type the SDK does not know (the service added one); `event` for every event, known or not; `error`
 * for failures.
 */
export type WebhookReceiverEventMap = { [T in WebhookEventType]: WebhookEventOf<T> } & {
  event: ReceivedWebhookEvent;
  unknown: UnknownWebhookEvent;
  error: unknown;
};

/** A listener of one receiver event. */
export type WebhookReceiverListener<K extends keyof WebhookReceiverEventMap> = (value: WebhookReceiverEventMap[K]) => unknown;

/** Options of `WebhookReceiver.waitFor`. */
export interface WaitForOptions<T extends string = string> {
  /** The `callbackId` sent with the request that caused the event. */
  callbackId: string;
  /** Only an event of this type (a known one types the result). */
  type?: T;
  /**
   * How long to wait, ms, above 0; `Infinity` (or anything over 2^31 - 1, which a timer cannot hold) sets no time-out.
   * @defaultValue 30000
   */
  timeoutMs?: number;
}

/** Default of {@link WaitForOptions.timeoutMs}. assumed: 30 s, beyond the service's largest delivery time-out. */
export const DEFAULT_WAIT_TIMEOUT_MS = 30_000;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- eventemitter3's own listener type
type AnyListener = (...args: any[]) => void;

interface Waiter {
  matches(event: ReceivedWebhookEvent): boolean;
  resolve(event: ReceivedWebhookEvent): void;
}

/** A callbackId `payments.registerBulk` made (core/server/payments.ts): the prefix and 32 lowercase hex digits, nothing else. */
const GENERATED_BULK_CALLBACK_ID = new RegExp(`^${BULK_CALLBACK_PREFIX}[0-9a-f]{32}$`);

/**
 * The receiver {@link createWebhookReceiver} returns. Listeners are called after the delivery is
 * verified and before the 204 is answered; their errors (thrown or rejected) go to `error` listeners and
 * never change the answer (an `error` listener's own error is logged with `console.error`). assumed: the service gets 204 as soon as the event is verified, so a listener
 * that fails does not cause a redelivery.
 */
export class WebhookReceiver {
  readonly #emitter = new EventEmitter();
  readonly #recent = new RecentDeliveries();
  readonly #waiters = new Set<Waiter>();
  readonly #listeners = new WeakMap<(value: never) => unknown, AnyListener>();
  // An error listener's own failure is logged, never thrown on: it would leave a dispatch half done (the `event`
  // listeners and waits not called, the delivery already remembered) and answer the service 500.
  readonly #report = (error: unknown): void => {
    try {
      this.#emitter.emit('error', error);
    } catch (thrown) {
      console.error(thrown);
    }
  };
  readonly #options: Required<Omit<WebhookReceiverOptions, 'scheme'>> & { scheme: WebhookScheme };

  constructor(options: WebhookReceiverOptions) {
    // Called with nothing (from JavaScript): the secret's own message rather than "Cannot read properties of undefined".
    // Own fields only, as verifyWebhook reads them: a polluted `toleranceSeconds` or `maxBodyBytes` is not the game's.
    options = ownFields(options ?? {});
    const scheme = options.scheme ?? standardWebhooksScheme;
    secretList(options.secret, scheme);
    const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
    assertTolerance(toleranceSeconds, options);
    if (options.now !== undefined && typeof options.now !== 'function') throw new TypeError(`now must be a function giving ms since the epoch, got ${typeof options.now}`);
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_WEBHOOK_MAX_BODY_BYTES;
    // NaN (an unset environment variable through Number()) would compare false with every size: no cap at all.
    if (typeof maxBodyBytes !== 'number' || !Number.isFinite(maxBodyBytes) || maxBodyBytes < 1) {
      throw new TypeError(`maxBodyBytes must be a finite number of bytes >= 1, got ${maxBodyBytes}`);
    }
    const bodyTimeoutMs = options.bodyTimeoutMs ?? DEFAULT_WEBHOOK_BODY_TIMEOUT_MS;
    if (typeof bodyTimeoutMs !== 'number' || !Number.isFinite(bodyTimeoutMs) || bodyTimeoutMs < 1) {
      throw new TypeError(`bodyTimeoutMs must be a finite number of ms >= 1, got ${bodyTimeoutMs}`);
    }
    this.#options = { secret: options.secret, toleranceSeconds, now: options.now ?? (() => Date.now()), scheme, maxBodyBytes, bodyTimeoutMs };
    this.fetch = this.fetch.bind(this);
  }

  /**
   * The Fetch-API handler: POST only (405 otherwise). Answers 204 for a new verified event, 200 for a
   * delivery id it already accepted (not emitted again), 401 `{ error: reason }` for a failed check,
   * 413 `{ error: 'payload_too_large' }` (with `Connection: close`) for a body over `maxBodyBytes`, 408 `{ error: 'body_timeout' }` (with
   * `Connection: close`) for one still arriving after `bodyTimeoutMs`,
   * 400 `{ error: 'unreadable_body' }` when the body could not be read, 500 `{ error: 'body_already_read', message }` when something read
   * the request's body before the receiver (also emitted on `error`). A signed event of any shape or type is accepted.
   *
   * `context`: what the runtime passes beside the request. On a Cloudflare Worker hand on its `ctx` (`receiver.fetch(request,
   * ctx)`, or mount `fetch: receiver.fetch`, which gets `(request, env, ctx)`): the promise of each listener is given to
   * the first of them with a `waitUntil` method. workerd cancels what a request still has under way once its answer is
   * sent unless `waitUntil` holds it, and the 204 is sent before a listener's promise settles, so a listener's grant
   * (a database write, a `fetch`) was cut off silently while the service, answered 204, never sent the delivery again.
   * Node, Bun and Deno cut off nothing; Hono's `c.executionCtx` and the Service Worker `FetchEvent` have `waitUntil` too.
   */
  async fetch(request: Request, ...context: unknown[]): Promise<Response> {
    if (request.method !== 'POST') return json(405, { error: 'method_not_allowed' }, { allow: 'POST' });
    const { maxBodyBytes, bodyTimeoutMs } = this.#options;
    // Before `bodyUsed`, which on Deno makes the body's stream and so keeps the refused sender's connection open.
    if (declaresMoreThan(request.headers, maxBodyBytes)) return tooLarge();
    // Read before us (Hono's `c.req.json()`, code that awaited `request.json()`): the server's setup, not the sender's
    // fault, said as webhookMiddleware says it on Node, and emitted on `error`, where the developer looks.
    if (request.bodyUsed) {
      const error = new TypeError(
        'The webhook request body was already read (request.json(), or a framework middleware such as Hono\'s c.req.json() or a json validator), ' +
          'so the signature cannot be checked: pass the raw body to the receiver, with nothing reading it before.',
      );
      this.#report(error);
      return json(500, { error: 'body_already_read', message: error.message });
    }
    let payload: Uint8Array | undefined;
    try {
      payload = await readWithin(bodyTimeoutMs, (signal) => readCapped(request, maxBodyBytes, signal));
    } catch (error) {
      // What the sender still sends is not read: the connection is closed once answered, as the relay's 408 closes it.
      if (error instanceof BodyTimeout) return json(408, { error: 'body_timeout' }, { connection: 'close' });
      return json(400, { error: 'unreadable_body' });
    }
    if (payload === undefined) return tooLarge();
    try {
      await this.#verify({ payload, headers: request.headers }, keepAliveOf(context));
      return new Response(null, { status: 204 });
    } catch (error) {
      if (!isWebhookVerificationError(error)) {
        this.#report(error);
        return json(500, { error: 'internal_error' });
      }
      if (error.reason === 'replayed') return new Response(null, { status: 200 });
      return json(401, { error: error.reason });
    }
  }

  /**
   * Verifies one delivery, refuses a delivery id it accepted already, and hands the event to listeners and
   * waiters: the path every delivery takes (`fetch` adds only the HTTP answer). Failed checks, other than
   * replays, are also emitted as `error`.
   * @throws WebhookVerificationError with reason `replayed` for a repeat, or the reason of the failed check
   */
  async verify(input: { payload: RawWebhookPayload; headers: WebhookHeadersInput }): Promise<ReceivedWebhookEvent> {
    return this.#verify(input, undefined);
  }

  /** {@link WebhookReceiver.verify}, with what keeps the listeners' promises alive (a Worker's `waitUntil`). */
  async #verify(input: { payload: RawWebhookPayload; headers: WebhookHeadersInput }, keepAlive: KeepAlive | undefined): Promise<ReceivedWebhookEvent> {
    const { secret, toleranceSeconds, now, scheme } = this.#options;
    let verified;
    try {
      verified = await verifyDelivery({ ...input, secret, toleranceSeconds, now, scheme });
    } catch (error) {
      if (isWebhookVerificationError(error)) this.#report(error);
      throw error;
    }
    const { event, delivery } = verified;
    const at = now();
    if (this.#recent.get(delivery.id, at)) throw new WebhookVerificationError('replayed', `Webhook delivery ${delivery.id} was already received`);
    // The timestamp check passes while floor(now / 1 s) <= timestamp + tolerance: remember the id that long.
    const expiresAt = (Math.max(delivery.timestampSeconds, Math.floor(at / 1000)) + toleranceSeconds + 1) * 1000;
    const summarized = this.#summarizedCall(event, at);
    this.#recent.add(delivery.id, event, expiresAt, at);
    if (summarized) throw new WebhookVerificationError('replayed', `A payment.bulk_created for callbackId ${summarized} was already received: the summary of a retry of the same payments.registerBulk call`);
    this.#dispatch(event, keepAlive);
    return event;
  }

  /**
   * Resolves with the event caused by the request sent with `callbackId`, also when it arrived before this
   * call (events are kept for the tolerance window).
   * @throws WebhookTimeoutError (rejects) when none arrives within `timeoutMs`; TypeError (rejects) without a
   * `callbackId` string; RangeError (rejects) for a `timeoutMs` of 0 or less; TypeError (rejects) at once on a
   * Cloudflare Worker dated before 2024-10-14 when the event has not arrived: the delivery is another request,
   * and there workerd answers a request waiting on another's work with a bare 500
   * @example
   * ```ts
   * await server.coupons.redeem({ couponCode: 'WELCOME', userId, callbackId: 'redeem-42' });
   * const event = await receiver.waitFor({ callbackId: 'redeem-42', type: 'coupon.redeemed' });
   * ```
   */
  waitFor<T extends WebhookEventType>(options: WaitForOptions<T> & { type: T }): Promise<WebhookEventOf<T>>;
  /** Like the above, for an event of any type (or of a type the SDK does not know). */
  waitFor(options: WaitForOptions): Promise<ReceivedWebhookEvent>;
  waitFor(options: WaitForOptions): Promise<ReceivedWebhookEvent> {
    // Own fields only: with a polluted `Object.prototype.type` a wait for any type matched that type alone.
    const { callbackId, type, timeoutMs = DEFAULT_WAIT_TIMEOUT_MS } = ownFields(options ?? {});
    // Without one (from JavaScript, a field of a request that was not there) it would match every event sent without
    // a callbackId: another player's redeem, say.
    if (typeof callbackId !== 'string' || callbackId === '') {
      return Promise.reject(new TypeError(`waitFor needs the callbackId the request was sent with (a non-empty string), got ${String(callbackId)}`));
    }
    // 0, a negative number or NaN would reject at once, saying it had waited.
    if (!(timeoutMs > 0)) return Promise.reject(new RangeError(`timeoutMs must be above 0 ms (Infinity: none), not ${timeoutMs}`));
    const matches = (event: ReceivedWebhookEvent) => event.callbackId === callbackId && (type === undefined || event.type === type);
    const earlier = this.#recent.find(matches, this.#options.now());
    if (earlier) return Promise.resolve(earlier);
    if (crossRequestPromisesUnsupported()) {
      return Promise.reject(
        new TypeError(
          'receiver.waitFor cannot wait on a Cloudflare Worker dated before 2024-10-14: the delivery arrives as another request, ' +
            'which cannot settle this one there (workerd would answer it with a bare 500). Set compatibility_date to 2024-10-14 or later.',
        ),
      );
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        resolve: (event) => {
          clearTimeout(timer);
          this.#waiters.delete(waiter);
          resolve(event);
        },
      };
      // A pending wait must not keep a Node process alive on its own. A timer over 2^31 - 1 ms (Infinity) would fire
      // at once in every runtime: a longer wait has none.
      const timer =
        timeoutMs <= MAX_TIMER_MS
          ? unref(
              setTimeout(() => {
                this.#waiters.delete(waiter);
                reject(new WebhookTimeoutError(callbackId, timeoutMs));
              }, timeoutMs),
            )
          : undefined;
      this.#waiters.add(waiter);
    });
  }

  /**
   * Calls `listener` for each event of that type (`unknown`: each event of a type the SDK does not know;
   * `event`: every event; `error`: failures).
   */
  on<K extends keyof WebhookReceiverEventMap>(name: K, listener: WebhookReceiverListener<K>): this {
    this.#emitter.on(name, this.#guarded(name, listener));
    return this;
  }

  /** Like {@link WebhookReceiver.on}, for the next one only. */
  once<K extends keyof WebhookReceiverEventMap>(name: K, listener: WebhookReceiverListener<K>): this {
    this.#emitter.once(name, this.#guarded(name, listener));
    return this;
  }

  /** Removes a listener added with `on` or `once`. */
  off<K extends keyof WebhookReceiverEventMap>(name: K, listener: WebhookReceiverListener<K>): this {
    const registered = name === 'error' ? (listener as AnyListener) : this.#listeners.get(listener);
    if (registered) this.#emitter.off(name, registered);
    return this;
  }

  /**
   * The callbackId of a `payment.bulk_created` whose call was summarized already: one `payments.registerBulk` made
   * (`gcsdk-bulk-<32 hex digits>`, the same on each attempt) whose summary arrived before, within the window deliveries are
   * remembered. The service sends a summary per request, so a call retried after its answer was lost (the first attempt
   * applied) is summarized twice; the listener hears it once. A callbackId of the caller's own is not judged: they may
   * give one id to several calls. Only the whole generated form is taken for one (not the prefix alone: a studio's own
   * `gcsdk-bulk-nightly` given to two calls had the second call's summary held back).
   */
  #summarizedCall(event: ReceivedWebhookEvent, now: number): string | undefined {
    const { type, callbackId } = event;
    if (type !== 'payment.bulk_created' || typeof callbackId !== 'string' || !GENERATED_BULK_CALLBACK_ID.test(callbackId)) return undefined;
    return this.#recent.find((earlier) => earlier.type === type && earlier.callbackId === callbackId, now) ? callbackId : undefined;
  }

  #dispatch(event: ReceivedWebhookEvent, keepAlive: KeepAlive | undefined): void {
    // Emitting is synchronous: the listeners' promises made meanwhile are this delivery's, whatever else is under way.
    this.#keepAlive = keepAlive ?? unheldOnWorker;
    try {
      // An unknown type never reaches a listener by its own name: a type named `error` or `event` must not
      // pose as one of the receiver's own events.
      this.#emitter.emit(isKnownWebhookEvent(event) ? event.type : 'unknown', event);
      this.#emitter.emit('event', event);
    } finally {
      this.#keepAlive = undefined;
    }
    for (const waiter of this.#waiters) if (waiter.matches(event)) waiter.resolve(event);
  }

  /** While listeners are called: what is handed each listener's promise (see {@link WebhookReceiver.fetch}). */
  #keepAlive: KeepAlive | undefined;

  // Each listener runs on its own: one that throws or rejects does not stop the others, and its error goes
  // to `error` listeners. `error` listeners themselves are not wrapped (an error there would loop).
  #guarded<K extends keyof WebhookReceiverEventMap>(name: K, listener: WebhookReceiverListener<K>): AnyListener {
    if (name === 'error') return listener as AnyListener;
    const existing = this.#listeners.get(listener);
    if (existing) return existing;
    const guarded = (value: unknown) => {
      try {
        const keepAlive = this.#keepAlive;
        const result = (listener as (value: unknown) => unknown)(value);
        if (isThenable(result)) {
          const settled = Promise.resolve(result).then(undefined, this.#report);
          keepAlive?.(settled);
        }
      } catch (error) {
        this.#report(error);
      }
    };
    this.#listeners.set(listener, guarded);
    return guarded;
  }
}

/**
 * Creates a webhook receiver: mount `receiver.fetch` (Bun, Deno, Hono, Next.js route handlers, workers) or
 * `webhookMiddleware(receiver)` from `game-campaign-sdk/node`.
 * @throws TypeError when the secret is not `whsec_<base64>`, the tolerance is not a number >= 0, `maxBodyBytes` not one >= 1
 * or `now` not a function
 * @example
 * ```ts
 * const receiver = createWebhookReceiver({ secret: process.env.WEBHOOK_SECRET! });
 * receiver.on('coupon.redeemed', ({ data }) => {
 *   if (data.userId && data.reward) grantReward(data.userId, data.reward); // every payload field is optional
 * });
 * receiver.on('unknown', (event) => log.info('webhook of a type this SDK does not know', event.type, event.raw));
 * receiver.on('error', (error) => log.warn('webhook refused', error));
 * export default { fetch: receiver.fetch };
 * ```
 * @see spec "Events"
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  return new WebhookReceiver(options);
}

/** 413, closing the connection: what the sender still sends of the body is not read (as the relay's 413). */
function tooLarge(): Response {
  return json(413, { error: 'payload_too_large' }, { connection: 'close' });
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
