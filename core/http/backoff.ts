/**
 * Retry timing shared by the API transport and the tracker: exponential backoff with full jitter, and
 * the service's `Retry-After` (seconds, as the emulator sends it, or an HTTP date). assumed: only the standard
 * header; the service is not documented to send openai-node's `retry-after-ms`, so clients do not carry it.
 */
import { onAbort } from './on-abort.js';

export interface BackoffOptions {
  /** Delay ceiling before jitter for the first retry, in ms. */
  baseMs: number;
  /** Largest delay, in ms. */
  maxMs: number;
}

/**
 * Full-jitter delay for retry number `attempt` (0-based, never negative): a random point in `[0, min(maxMs, baseMs * 2^attempt))`.
 * Full jitter spreads a crowd of clients that failed together (AWS architecture blog, "Exponential Backoff And Jitter").
 */
export function backoffDelay(attempt: number, options: BackoffOptions, random: () => number = Math.random): number {
  const ceiling = Math.min(options.maxMs, options.baseMs * 2 ** attempt);
  return Math.floor(random() * ceiling);
}

/**
 * The wait a response asks for, in ms: `Retry-After` as RFC 9110 (section 10.2.3) has a server send it: delay-seconds
 * (digits; a fraction is read too) or an IMF-fixdate (`Wed, 21 Oct 2015 07:28:00 GMT`; one past asks for no wait).
 * Any other value (a sign, an exponent, hex, `Infinity`, a date in another form or zone) asks for nothing: the
 * caller's own backoff applies. assumed: the obsolete date forms (rfc850, asctime) are not read either. The Unity
 * tracker follows the same rule (RetryAfter.cs; one table tests both: test/core/http/retry-after-cases.json).
 */
export function parseRetryAfter(headers: Headers, nowMs: number): number | undefined {
  const value = headers.get('retry-after')!; // fetch trims a field value; absent: null, which is neither form
  if (/^\d+(\.\d+)?$/.test(value)) return +value * 1000;
  const date = Date.parse(value);
  // An IMF-fixdate is exactly what toUTCString writes: no other form, no day or hour out of range, the right weekday.
  return new Date(date).toUTCString() === value ? Math.max(0, date - nowMs) : undefined;
}

/** No response, 408, 429 or 5xx: the request may not have been processed, or may succeed later. */
export function isTransientStatus(status: number | undefined): boolean {
  return status === undefined || status === 408 || status === 429 || status >= 500;
}

/**
 * Resolves after `ms` on the runtime's own timer (fake timers drive it in tests); rejects with the
 * signal's reason as soon as `signal` aborts, the timer cleared.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stopListening();
      resolve();
    }, ms);
    const stopListening = onAbort(signal, () => {
      clearTimeout(timer);
      reject(signal!.reason);
    });
  });
}

/**
 * The API transport's retry timing (core/http/transport.ts), for every request path of a game client: backoff
 * from 500 ms to 8 s with full jitter, and a `Retry-After` honoured up to 60 s (a longer one goes to the caller).
 */
export const API_RETRY = { baseMs: 500, maxMs: 8_000, maxRetryAfterMs: 60_000, maxRetries: 2 } as const;

/** The wait before retry number `attempt` (0-based) under {@link API_RETRY}, or undefined when the service asks for longer than it waits. */
export function apiRetryDelay(retryAfterMs: number | undefined, attempt: number, random?: () => number): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= API_RETRY.maxRetryAfterMs ? retryAfterMs : undefined;
  return backoffDelay(attempt, API_RETRY, random);
}
