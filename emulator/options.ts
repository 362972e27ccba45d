/** Options of the emulator and their defaults. @see DESIGN section 9 */
import * as z from 'zod/mini';
import { checked } from '../core/schema/primitives.js';
import type { Fixtures } from './fixtures.js';

/** Injected failures, applied to every `/v1` request. */
export interface Faults {
  /** Share (0..1) of `/v1` requests answered 500 `INTERNAL_ERROR` before they are processed. */
  errorRate: number;
  /** Delay (ms) added to every `/v1` answer, after processing: at most 2147483647 (2^31 - 1, the longest timer). */
  latencyMs: number;
  /** Share (0..1) of `/v1` requests whose connection is dropped: half before processing, half after. */
  dropRate: number;
  /** Requests per second allowed per API key; 0 turns the limit off (assumed). */
  rateLimitPerSecond: number;
}

/** A wall clock in ms since the epoch. */
export interface Clock {
  now(): number;
}

/** The two sandbox keys, each `<key_id>:<secret>`. */
export interface EmulatorKeys {
  clientKey: string;
  serverKey: string;
}

/**
 * How much the emulator keeps, so a long-running one (a studio's shared dev server) stays bounded: beyond a limit the
 * oldest entries are dropped (from a list, an eighth of its limit at once). assumed: the spec shows no retention; a
 * dropped session or payment is forgotten, so its `sessionId` or `transactionId` records as new again.
 */
export interface EmulatorLimits {
  /**
   * Entries kept of each kind of record: playtime sessions, payments, coupon usages, boosts, boost history
   * entries, web view tokens and web view sessions.
   */
  records: number;
  /**
   * Webhook delivery log entries kept, all receivers together (each holds its event's payload); also the deliveries
   * pending (in flight, waiting for one of a receiver's 8 connections, or waiting to retry), shared evenly by the
   * receivers registered: beyond its share a new event's delivery to a receiver is logged FAILED at once, without a
   * request or retry.
   */
  deliveries: number;
  /**
   * Webhook receivers registered at once: a creation beyond it answers 400 `BAD_REQUEST` until one is deleted (or
   * the emulator reset). assumed: configuration is refused, not evicted, as a service caps its webhook endpoints.
   */
  webhooks: number;
}

/** Options of {@link createEmulator} and {@link startEmulator}. */
export interface EmulatorOptions {
  /** Port for `startEmulator` (0 = a free port). @defaultValue 8787 */
  port?: number;
  /** Host for `startEmulator`. @defaultValue '127.0.0.1' */
  host?: string;
  /** Wall clock (ms); `advanceClock` adds to it. @defaultValue Date.now */
  clock?: Clock;
  /** Failures to inject from the start. @defaultValue no faults, 50 requests/s per key */
  faults?: Partial<Faults>;
  /** What the service holds at start and after `reset()`. @defaultValue demoFixtures() */
  fixtures?: Fixtures;
  /** The sandbox keys. @defaultValue {@link DEFAULT_KEYS} */
  keys?: EmulatorKeys;
  /** Wait before retry `attempt` (1-based) of a failed webhook delivery. assumed: @defaultValue 1000 * 2^(attempt-1) ms */
  webhookRetryDelayMs?: (attempt: number) => number;
  /** Random numbers in [0, 1) for fault injection (pass a seeded one for determinism). @defaultValue Math.random */
  random?: () => number;
  /** What it keeps at most (`Infinity`: no limit); fields not given keep their default. @defaultValue {@link DEFAULT_LIMITS} */
  limits?: Partial<EmulatorLimits>;
  /**
   * Hosts besides loopback (`localhost`, `127.0.0.0/8`, `[::1]`) and the emulator's own `host` (unless a wildcard)
   * that webhook receivers may name: host names or IP addresses, without scheme or port (`'game-server.internal'`,
   * `'10.0.0.7'`, `'fd00::7'`). A receiver at any other
   * host is refused (400 `VALIDATION_ERROR` on `url`), so a holder of the sandbox Server key cannot make the emulator
   * post to other machines of the network it runs on. @defaultValue [] (loopback only)
   */
  webhookHosts?: readonly string[];
}

/** The fixed sandbox keys the emulator accepts unless told otherwise. */
export const DEFAULT_KEYS: Readonly<EmulatorKeys> = {
  clientKey: 'ck_sandbox_demo:cs_sandbox_demo_secret',
  serverKey: 'sk_sandbox_demo:ss_sandbox_demo_secret',
};

/** No failures; 50 requests per second per key (DESIGN section 10). */
export const DEFAULT_FAULTS: Readonly<Faults> = { errorRate: 0, latencyMs: 0, dropRate: 0, rateLimitPerSecond: 50 };

/** 100,000 of each kind of record (about 40 MB of sessions), 10,000 delivery log entries, 100 receivers. assumed. */
export const DEFAULT_LIMITS: Readonly<EmulatorLimits> = { records: 100_000, deliveries: 10_000, webhooks: 100 };

/** Default port of `startEmulator` and the CLI. */
export const DEFAULT_PORT = 8787;

/** Exponential retry delay: 1 s, 2 s, 4 s, ... assumed: the spec does not show the timing between retries. */
export function defaultWebhookRetryDelayMs(attempt: number): number {
  return 1000 * 2 ** (attempt - 1);
}

const Share = checked(z.number(), z.minimum(0, 'must be at least 0'), z.maximum(1, 'must be at most 1'));
const NonNegativeInt = checked(z.int(), z.minimum(0, 'must be at least 0'));
/** The longest wait a timer takes: `setTimeout` runs a longer one at once (Node warns, browsers stay silent). */
const MAX_TIMER_MS = 2 ** 31 - 1;
const TimerMs = checked(z.int(), z.minimum(0, 'must be at least 0'), z.maximum(MAX_TIMER_MS, `must be at most ${MAX_TIMER_MS}`));

/** Body of `POST /_emulator/faults` and the argument of `setFaults`: any subset of {@link Faults}. */
export const FaultsRequest = z.object({
  errorRate: z.optional(Share),
  latencyMs: z.optional(TimerMs),
  dropRate: z.optional(Share),
  rateLimitPerSecond: z.optional(NonNegativeInt),
});

/** Body of `POST /_emulator/clock`. assumed: the clock only moves forward. */
export const ClockRequest = z.object({ advanceMs: NonNegativeInt });
