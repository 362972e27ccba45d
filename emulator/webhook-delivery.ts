/**
 * Sends events to registered receivers over real HTTP: signed (Standard Webhooks), with the receiver's time-out,
 * retried `retryCount` times with a delay between tries, and one delivery log entry per attempt.
 * assumed (DESIGN section 10): the envelope `{ id, type, createdAt, callbackId?, data }` and the signing scheme;
 * log status values beyond PENDING are SUCCESS and FAILED.
 */
import type { WebhookEvent } from '../core/schema/events.js';
import type { WebhookEventType } from '../core/schema/webhooks.js';
import { signWebhook } from '../core/webhooks/sign.js';
import { withoutPrototype } from './data-only.js';
import { randomToken } from './ids.js';
import type { Clock } from './options.js';
import type { Store, StoredDelivery } from './store.js';

/** The payload of an event of type `T`. */
export type EventData<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>['data'];

/** Requests one receiver has open at once; its other deliveries wait their turn. assumed. */
export const RECEIVER_CONNECTIONS = 8;

/** One receiver's deliveries under way (a lane lives until the next reset). */
interface Lane {
  /** Requests open, at most {@link RECEIVER_CONNECTIONS}. */
  open: number;
  /**
   * Deliveries not finished: in flight, waiting for a connection, or waiting to retry. At most the receiver's share
   * of `limits.deliveries` ({@link WebhookDispatcher.share}): the delivery of a new event beyond it is logged FAILED
   * at once, with no request and no retry. assumed.
   */
  pending: number;
  /** Attempts waiting for a connection, each woken with the connection handed to it. */
  waiting: Array<() => void>;
  /** Its requests in flight and its retries waiting, which deleting the receiver ends. */
  controllers: Set<AbortController>;
  timers: Set<ReturnType<typeof setTimeout>>;
}

/** Delivers events and keeps count of the work still under way. */
export class WebhookDispatcher {
  #pending = 0;
  #idleWaiters: Array<() => void> = [];
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #inFlight = new Set<AbortController>();
  #closed = false;
  /**
   * Per receiver, what its deliveries hold. Bounded, so a receiver that never answers (any loopback port that takes
   * a connection and says nothing) cannot make the emulator open a socket per event and receiver until it runs out
   * of file descriptors, or keep every retry of every event: 50 events/s to 100 receivers with a 30 s time-out was
   * 150,000 sockets.
   */
  #lanes = new Map<number, Lane>();

  /**
   * @param signingClock - source of `webhook-timestamp`: the injected clock without `advanceClock`'s offset, so
   *   receivers checking the timestamp against real time accept deliveries after the emulator clock was moved.
   */
  constructor(
    private readonly store: Store,
    private readonly retryDelayMs: (attempt: number) => number,
    private readonly signingClock: Clock,
  ) {}

  /** Builds the event envelope and starts its delivery to every active receiver registered for its type. */
  emit<T extends WebhookEventType>(type: T, data: EventData<T>, callbackId?: string): void {
    if (this.#closed) return;
    // No prototype: `event.callbackId` of an event without one must not read a polluted `Object.prototype` (data-only.ts).
    const event = withoutPrototype({ id: randomToken('evt_', 12), type, createdAt: this.store.iso(), ...(callbackId !== undefined ? { callbackId } : {}), data } as WebhookEvent);
    for (const hook of this.store.webhooks.values()) {
      if (!hook.isActive || hook.eventType !== type) continue;
      const lane = this.#lane(hook.id);
      if (lane.pending >= this.share()) {
        const now = this.store.iso();
        this.store.log({ ...this.#logEntry(hook.id, event, 1), status: 'FAILED', createdAt: now, completedAt: now });
        continue;
      }
      lane.pending++;
      this.#track(this.#attempt(hook.id, lane, event, 1, this.store.generation));
    }
  }

  /**
   * Deliveries one receiver may have pending: an even share of `limits.deliveries` (no more pending, all receivers
   * together, than the log keeps; each waiting delivery holds about 1 KB besides its event), and never fewer than its
   * connections. One receiver alone has all of it; 100 receivers 100 each.
   */
  share(): number {
    return Math.max(RECEIVER_CONNECTIONS, Math.floor(this.store.limits.deliveries / Math.max(1, this.store.webhooks.size)));
  }

  /** Resolves when no delivery is in flight or waiting for a retry. */
  idle(): Promise<void> {
    if (this.#pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idleWaiters.push(resolve));
  }

  /** Cancels scheduled retries and aborts deliveries in flight (used by reset). */
  cancelAll(): void {
    for (const timer of this.#timers) {
      clearTimeout(timer);
      this.#settle();
    }
    this.#timers.clear();
    for (const controller of this.#inFlight) controller.abort(new Error('emulator reset or closed'));
    // Waiting attempts wake up, see the reset or close, and end without a request.
    const lanes = [...this.#lanes.values()];
    this.#lanes = new Map();
    for (const lane of lanes) for (const wake of lane.waiting.splice(0)) wake();
  }

  /**
   * Ends the work of a deleted receiver: its requests in flight are aborted, its waiting attempts and retries dropped.
   * Before, they went on for up to `timeoutMs` and every retry, so deleting and registering receivers again piled up
   * work past any per-receiver bound.
   */
  forget(webhookId: number): void {
    const lane = this.#lanes.get(webhookId);
    if (!lane) return;
    this.#lanes.delete(webhookId);
    for (const timer of lane.timers) {
      clearTimeout(timer);
      this.#timers.delete(timer);
      this.#settle();
    }
    lane.timers.clear();
    for (const controller of lane.controllers) controller.abort(new Error('webhook deleted'));
    for (const wake of lane.waiting.splice(0)) wake();
  }

  /** Cancels everything and refuses further events. */
  close(): void {
    this.#closed = true;
    this.cancelAll();
  }

  #lane(webhookId: number): Lane {
    let lane = this.#lanes.get(webhookId);
    if (!lane) this.#lanes.set(webhookId, (lane = { open: 0, pending: 0, waiting: [], controllers: new Set(), timers: new Set() }));
    return lane;
  }

  #logEntry(webhookId: number, event: WebhookEvent, attempt: number): StoredDelivery {
    return {
      webhookId,
      id: randomToken('dlv_', 12),
      eventType: event.type,
      payload: event as unknown as Record<string, unknown>,
      attempt,
      status: 'PENDING',
      ...(event.callbackId !== undefined ? { callbackId: event.callbackId } : {}),
      createdAt: this.store.iso(),
    };
  }

  /** One attempt: waits for one of the receiver's connections, sends, then schedules a retry or ends the delivery. */
  async #attempt(webhookId: number, lane: Lane, event: WebhookEvent, attempt: number, generation: number): Promise<void> {
    if (lane.open < RECEIVER_CONNECTIONS) lane.open++;
    else await new Promise<void>((wake) => lane.waiting.push(wake));
    let retry = false;
    try {
      retry = await this.#send(webhookId, lane, event, attempt, generation);
    } finally {
      // The connection goes to the next waiting attempt, if any; the delivery ends unless it is retried.
      const next = lane.waiting.shift();
      if (next) next();
      else lane.open--;
      // A lane forgotten (receiver deleted) or dropped (reset) meanwhile schedules nothing more.
      if (retry && this.#lanes.get(webhookId) === lane) this.#scheduleRetry(webhookId, lane, event, attempt + 1, generation);
      else if (--lane.pending === 0 && this.#lanes.get(webhookId) === lane && lane.open === 0) this.#lanes.delete(webhookId);
    }
  }

  /** Sends one attempt and logs it; true when it failed and is to be retried. */
  async #send(webhookId: number, lane: Lane, event: WebhookEvent, attempt: number, generation: number): Promise<boolean> {
    const hook = this.store.webhooks.get(webhookId);
    if (!hook || !hook.isActive || this.#closed || generation !== this.store.generation || this.#lanes.get(webhookId) !== lane) return false;
    const log = this.#logEntry(webhookId, event, attempt);
    this.store.log(log);
    const body = JSON.stringify(event);
    const timestamp = Math.floor(this.signingClock.now() / 1000);
    const controller = new AbortController();
    this.#inFlight.add(controller);
    lane.controllers.add(controller);
    let delivered = false;
    try {
      const response = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'game-campaign-emulator',
          ...signWebhook({ payload: body, secret: hook.secret, id: event.id, timestamp }).headers,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.any([controller.signal, AbortSignal.timeout(hook.timeoutMs)]),
      });
      log.responseStatus = response.status;
      delivered = response.status >= 200 && response.status < 300;
      // Standard Webhooks ("Delivery success and failure"): 410 Gone means the receiver wants no more deliveries;
      // the sender disables the endpoint. assumed: the service does so too (the spec shows no status handling), as
      // `isActive: false` would, so nothing more is sent to it until it is made active again.
      if (response.status === 410) hook.isActive = false;
      await response.body?.cancel().catch(() => undefined);
    } catch {
      // Time-out, refused connection, reset: a failed attempt without a response status.
    } finally {
      this.#inFlight.delete(controller);
      lane.controllers.delete(controller);
    }
    log.status = delivered ? 'SUCCESS' : 'FAILED';
    log.completedAt = this.store.iso();
    const live = !this.#closed && generation === this.store.generation && this.#lanes.get(webhookId) === lane;
    return !delivered && hook.isActive && attempt <= hook.retryCount && live;
  }

  #scheduleRetry(webhookId: number, lane: Lane, event: WebhookEvent, attempt: number, generation: number): void {
    this.#pending++;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      lane.timers.delete(timer);
      this.#track(this.#attempt(webhookId, lane, event, attempt, generation));
      this.#settle();
    }, Math.max(0, this.retryDelayMs(attempt - 1)));
    this.#timers.add(timer);
    lane.timers.add(timer);
  }

  #track(work: Promise<void>): void {
    this.#pending++;
    work.catch(() => undefined).finally(() => this.#settle());
  }

  #settle(): void {
    this.#pending--;
    if (this.#pending > 0) return;
    const waiters = this.#idleWaiters;
    this.#idleWaiters = [];
    for (const resolve of waiters) resolve();
  }
}
