/**
 * One HTTP exchange within a time-out, shared by the API transport and the relay sender. The response and
 * its body are raced against the time-out and the caller's signal rather than only signalled: a fetch
 * polyfill (XHR-backed) or an in-process handler may ignore the signal, and a service that sends headers
 * and then stalls must not hang the caller.
 */
import type { RelayHeaders } from '../relay/sender.js';
import type { FetchLike } from '../platform.js';
import { ConnectionError, TimeoutError, type CampaignError } from './errors.js';
import { gameHeaders } from './game-headers.js';
import { MAX_TIMER_MS } from '../schema/rules.js';
import { onAbort } from './on-abort.js';

/**
 * Sends `init` to `url` and reads the whole body as text (none for 204). A `timeoutMs` over {@link MAX_TIMER_MS}
 * (`Infinity`) sets no time-out.
 * @throws TimeoutError after `timeoutMs` (the SDK's own, so callers need no class of their own to tell it apart); the
 * caller's `signal.reason` when it aborts; the fetch's own error otherwise
 */
export async function exchange(fetch: FetchLike, url: string, init: RequestInit, timeoutMs: number, signal?: AbortSignal): Promise<{ response: Response; text: string }> {
  const controller = new AbortController();
  // Kept here, not read back from `controller.signal.reason`: React Native 0.70's AbortController (the
  // `abort-controller` 3 polyfill) drops the reason, and a time-out must still say what happened.
  let reason: unknown;
  const abort = (why: unknown) => {
    reason ??= why;
    controller.abort(why);
  };
  // A timer over 2^31 - 1 ms (about 24.8 days) fires at once in every runtime: a longer time-out, Infinity included, is none.
  const timer = timeoutMs <= MAX_TIMER_MS ? setTimeout(() => abort(new TimeoutError({ code: 'TIMEOUT', message: `No response within ${timeoutMs} ms` })), timeoutMs) : undefined;
  const stopListening = onAbort(signal, () => abort(signal!.reason ?? new Error('The request was aborted')));
  try {
    // Aborted before anything is sent (while the caller's headers resolved): nothing is sent.
    if (reason) throw reason;
    const response = await unlessAborted(fetch(url, { ...init, signal: controller.signal }), controller.signal, () => reason);
    const text = response.status === 204 ? '' : await unlessAborted(response.text(), controller.signal, () => reason);
    return { response, text };
  } catch (error) {
    throw controller.signal.aborted ? reason : error;
  } finally {
    clearTimeout(timer);
    stopListening();
  }
}

/**
 * `promise`, or a rejection with `reasonOf()` as soon as `signal` aborts (the emulator's in-process fetch and the
 * relay's body read use it too, with `() => signal.reason`; the exchange passes the reason it keeps, as a signal may
 * have none). No default: the game client's only caller passes its own, and a default would ride in its bundle. Without a
 * signal (the relay sender called with none), `promise` itself.
 */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined, reasonOf: () => unknown): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    // Handled first, even when the signal has already aborted: the promise's own rejection is never left unhandled.
    promise.then(resolve, reject).finally(onAbort(signal, () => reject(reasonOf())));
  });
}

/**
 * The typed error of an exchange that got no answer, for the API transport and the relay's JSON calls alike:
 * `TimeoutError` after the time-out, `ConnectionError` otherwise (a connection lost mid-body included).
 */
export function noAnswerError(cause: unknown): CampaignError {
  // Node's fetch says only "fetch failed": what failed (`connect ECONNREFUSED 127.0.0.1:8787`, the emulator not
  // running; `getaddrinfo ENOTFOUND`, a typo in the host) is its cause's message, shown with it.
  if (cause instanceof TimeoutError) return cause;
  const text = cause instanceof Error ? cause.message + (cause.cause instanceof Error ? ` (${cause.cause.message})` : '') : String(cause);
  return new ConnectionError({ code: 'CONNECTION_ERROR', message: `Connection failed: ${text}`, cause });
}

/** A body as JSON when it is JSON; otherwise the text itself (a proxy's HTML page), undefined when empty. */
export function parseJson(text: string): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The headers of one request, without a content-type of their own. */
export async function resolveHeaders(headers: RelayHeaders | undefined): Promise<Record<string, string>> {
  return gameHeaders(typeof headers === 'function' ? await headers() : headers);
}
