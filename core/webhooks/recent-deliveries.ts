/**
 * The deliveries a receiver accepted recently, by delivery id: what refuses replays and what `waitFor`
 * finds events in. Memory stays bounded: expired entries are pruned on every insert.
 */
import type { ReceivedWebhookEvent } from '../schema/events.js';

interface Entry {
  event: ReceivedWebhookEvent;
  /** ms since the epoch. */
  expiresAt: number;
}

/** Accepted deliveries, each kept until its expiry. */
export class RecentDeliveries {
  readonly #entries = new Map<string, Entry>();

  /** The event of a delivery id still remembered at `now`. */
  get(id: string, now: number): ReceivedWebhookEvent | undefined {
    const entry = this.#entries.get(id);
    return entry && entry.expiresAt > now ? entry.event : undefined;
  }

  /** Remembers a delivery until `expiresAt`, and forgets what expired. */
  add(id: string, event: ReceivedWebhookEvent, expiresAt: number, now: number): void {
    this.#prune(now);
    this.#entries.delete(id);
    this.#entries.set(id, { event, expiresAt });
  }

  /** The first remembered event, oldest first, that `matches`. */
  find(matches: (event: ReceivedWebhookEvent) => boolean, now: number): ReceivedWebhookEvent | undefined {
    for (const { event, expiresAt } of this.#entries.values()) if (expiresAt > now && matches(event)) return event;
    return undefined;
  }

  /** How many deliveries are remembered (expired ones included until the next insert). */
  get size(): number {
    return this.#entries.size;
  }

  // Entries are in arrival order and expiries differ by at most one tolerance window, so a scan from the
  // front that stops at the first live entry keeps memory bounded without touching every entry.
  #prune(now: number): void {
    for (const [id, entry] of this.#entries) {
      if (entry.expiresAt > now) return;
      this.#entries.delete(id);
    }
  }
}
