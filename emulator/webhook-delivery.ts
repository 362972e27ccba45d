/**
 * Sends events to registered receivers over real HTTP: signed (Standard Webhooks), with the receiver's time-out,
 * retried `retryCount` times with a delay between tries, and one delivery log entry per attempt.
 * assumed (DESIGN section 10): the envelope `{ id, type, createdAt, callbackId?, data }` and the signing scheme;
 * log status values beyond PENDING are SUCCESS and FAILED.
 */
import type { WebhookEvent } from '../core/schema/events.js';
import type { WebhookEventType } from '../core/schema/webhooks.js';
import { signWebhook } from '../core/webhooks/sign.js';
import { randomToken } from './ids.js';
import type { Clock } from './options.js';
import type { Store, StoredDelivery } from './store.js';

/** The payload of an event of type `T`. */
export type EventData<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>['data'];

/** Delivers events and keeps count of the work still under way. */
export class WebhookDispatcher {
  #pending = 0;
  #idleWaiters: Array<() => void> = [];
  #timers = new Set<ReturnType<typeof setTimeout>>();
  #inFlight = new Set<AbortController>();
  #closed = false;

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
    const event = { id: randomToken('evt_', 12), type, createdAt: this.store.iso(), ...(callbackId !== undefined ? { callbackId } : {}), data } as WebhookEvent;
    for (const hook of this.store.webhooks.values()) {
      if (hook.isActive && hook.eventType === type) this.#track(this.#attempt(hook.id, event, 1, this.store.generation));
    }
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
  }

  /** Cancels everything and refuses further events. */
  close(): void {
    this.#closed = true;
    this.cancelAll();
  }

  async #attempt(webhookId: number, event: WebhookEvent, attempt: number, generation: number): Promise<void> {
    const hook = this.store.webhooks.get(webhookId);
    if (!hook || !hook.isActive || this.#closed || generation !== this.store.generation) return;
    const log: StoredDelivery = {
      webhookId,
      id: randomToken('dlv_', 12),
      eventType: event.type,
      payload: event as unknown as Record<string, unknown>,
      attempt,
      status: 'PENDING',
      ...(event.callbackId !== undefined ? { callbackId: event.callbackId } : {}),
      createdAt: this.store.iso(),
    };
    this.store.log(log);
    const body = JSON.stringify(event);
    const timestamp = Math.floor(this.signingClock.now() / 1000);
    const controller = new AbortController();
    this.#inFlight.add(controller);
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
    }
    log.status = delivered ? 'SUCCESS' : 'FAILED';
    log.completedAt = this.store.iso();
    if (!delivered && hook.isActive && attempt <= hook.retryCount && !this.#closed && generation === this.store.generation) {
      this.#scheduleRetry(webhookId, event, attempt + 1, generation);
    }
  }

  #scheduleRetry(webhookId: number, event: WebhookEvent, attempt: number, generation: number): void {
    this.#pending++;
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      this.#track(this.#attempt(webhookId, event, attempt, generation));
      this.#settle();
    }, Math.max(0, this.retryDelayMs(attempt - 1)));
    this.#timers.add(timer);
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
