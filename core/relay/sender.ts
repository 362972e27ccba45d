/**
 * The client side of the relay's playtime route: one POST of a batch, its outcome sorted into the few kinds
 * the tracker acts on. It never throws for an HTTP or network outcome.
 * @see DESIGN sections 5 and 6
 */
import { isoTime } from '../iso-time.js';
import { parseRetryAfter } from '../http/backoff.js';
import type { CampaignError } from '../http/errors.js';
import { relayAuthError } from './auth-error.js';
import { exchange, noAnswerError, parseJson, resolveHeaders, unlessAborted } from '../http/exchange.js';
import type { Platform } from '../platform.js';
import type { ErrorBody, ErrorDetail } from '../schema/errors.js';
import type { BulkPlaytimeResult } from '../schema/playtime.js';
import { BULK_ITEM_STATUSES, isRecord } from '../schema/rules.js';
import type { RelaySession } from './protocol.js';
import { PLAYTIME_ROUTE } from './routes.js';

/**
 * The game's own headers for its relay (e.g. its session token): an object, or a function evaluated per request.
 * A function must return headers that stay valid for a while (a session token, not a one-time nonce): a page
 * being left cannot wait for it, so the request sent in that exit carries what it returned the last time it
 * succeeded; on a page it is also asked as a session starts and at each of its checkpoints (docs/guides/tracker.md,
 * "A page that is left").
 */
export type RelayHeaders = Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>);

/** Where the game server mounted its relay, and how the game authenticates to it. */
export interface RelayTarget {
  /**
   * The relay's mount URL, e.g. `https://game.example/campaign`, without a query or fragment (the routes go after it):
   * an absolute http(s) URL, or on a web page a path from its root (`/campaign`), which fetch resolves against the page.
   */
  url: string;
  /** See {@link RelayHeaders}: the exit request as a page is left uses the last headers a function gave. */
  headers?: RelayHeaders;
}

/** What a relay answer means for the batch that was sent. */
export type SendOutcome =
  /** 2xx with `{ data: BulkPlaytimeResult }`: one result per item. */
  | { kind: 'results'; result: BulkPlaytimeResult }
  /** 400/422 `VALIDATION_ERROR` with the spec's error body: the whole batch was rejected for its content. */
  | { kind: 'invalid'; status: number; message: string; details: ErrorDetail[] }
  /** 401/403: the game's authentication to its relay failed (a `RelayAuthError`). */
  | { kind: 'auth'; status: number; error: CampaignError }
  /** 413: the body was too large for the relay. */
  | { kind: 'too-large'; message?: undefined; details?: undefined }
  /**
   * No usable answer (network error, time-out, 408, 429, 5xx, an unexpected status or body): keep the data.
   * `error`: what the fetch rejected with, when it did (e.g. a mini-game's `RequestBlockedError`).
   */
  | { kind: 'transient'; reason: string; status?: number; retryAfterMs?: number; error?: unknown };

/** Default of {@link sendToRelay}'s `timeoutMs`. */
export const RELAY_TIMEOUT_MS = 30_000;

/**
 * The JSON body of a playtime batch, exactly as sent (the tracker measures it to size keepalive chunks).
 * `sentAt`: the device's wall clock at sending, by which the relay dates the sessions (DESIGN section 6).
 */
export function playtimeBody(sessions: RelaySession[], isTest?: boolean, sentAt?: string): string {
  return JSON.stringify({ sessions, isTest, sentAt });
}

/** `{relay.url}/playtime/sessions`, with or without a trailing slash on the mount URL (as {@link sendToRelay} writes it inline). */
export function playtimeUrl(relayUrl: string): string {
  return relayUrl.replace(/\/+$/, '') + PLAYTIME_ROUTE;
}

/**
 * POSTs one batch to `{relay.url}/playtime/sessions` and classifies the answer. Positional parameters (one caller, the
 * flusher): a bundler shortens them, not an options object's names.
 * @param platform - its `fetch`, and its wall clock `now` for `sentAt` and an HTTP-date `Retry-After` (the platform
 *   itself, not the two apart: one argument at the call, and no `Date.now` fallback no caller needs)
 * @param sessions - the batch: at most 1000 sessions
 * @param keepalive - send with `keepalive: true` (the page may be going away; the body must stay under 64 KiB)
 * @param signal - aborts the request (the outcome is then `transient`) and the wait for the game's headers, which then
 *   rejects with its reason: a `relay.headers()` that never settles held a flush, and the tracker's dispose, for ever
 * @param resolvedHeaders - the game's headers already resolved (the last ones `relay.headers` gave): used as they
 *   are, so `fetch` is called before this function first yields, from within the caller's event handler (a page being left)
 * @param timeoutMs - time-out for the whole exchange, ms. assumed: 30 s ({@link RELAY_TIMEOUT_MS}), as the API transport
 * @throws whatever `relay.headers` throws (the game's own function; not an HTTP outcome); `signal`'s reason when it
 *   aborts before the headers are resolved
 * @example
 * ```ts
 * const outcome = await sendToRelay({ fetch, now: Date.now }, { url: 'https://game.example/campaign' }, sessions);
 * if (outcome.kind === 'results') for (const r of outcome.result.results) console.log(r.sessionId, r.status);
 * ```
 */
export async function sendToRelay(
  platform: Pick<Platform, 'fetch' | 'now'>,
  relay: RelayTarget,
  sessions: RelaySession[],
  isTest?: boolean,
  keepalive?: boolean,
  signal?: AbortSignal,
  resolvedHeaders?: Record<string, string>,
  timeoutMs?: number,
): Promise<SendOutcome> {
  // `??` and not a default: with resolved headers nothing is awaited before `fetch` (./exchange.ts calls it at once).
  const headers = resolvedHeaders ?? (await unlessAborted(resolveHeaders(relay.headers), signal, () => signal!.reason));
  const transient = (reason: string): SendOutcome => ({ kind: 'transient', reason });
  if (signal?.aborted) return transient('aborted');
  const init: RequestInit = {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    // A clock that gives no valid time sends no `sentAt`: the relay then takes the times as sent.
    body: playtimeBody(sessions, isTest, isoTime(platform.now())),
    // false or absent: fetch's own default.
    keepalive,
  };
  try {
    // `timeoutMs ??` rather than a default parameter: esbuild's lowered async function would then take `arguments` (the React Native file).
    const { response, text } = await exchange(platform.fetch, relay.url.replace(/\/+$/, '') + PLAYTIME_ROUTE, init, timeoutMs ?? RELAY_TIMEOUT_MS, signal);
    return classify(response, parseJson(text), platform.now());
  } catch (error) {
    // The API transport's own messages (`No response within … ms`, `Connection failed: …`), so both paths report alike.
    return signal?.aborted ? transient('aborted') : { kind: 'transient', reason: noAnswerError(error).message, error };
  }
}

/*
 * The relay's answers are read, not trusted, with just enough of their shape to act on: the response schemas
 * (core/schema/responses.ts) stay out of game client bundles, and `validateResponses` covers them in tests.
 */

/** Sorts a relay answer into a {@link SendOutcome}. */
function classify(response: Response, body: unknown, nowMs: number): SendOutcome {
  const { status, headers } = response;
  const fields = isRecord(body) ? body : {};
  // `ok`: a 2xx status.
  if (response.ok) {
    // `data` holds one `{ sessionId, status }` result per answered item.
    const data = fields['data'];
    const results = isRecord(data) ? data['results'] : undefined;
    const valid = Array.isArray(results) && results.every((item) => isRecord(item) && typeof item['sessionId'] === 'string' && BULK_ITEM_STATUSES.includes(item['status'] as never));
    return valid ? { kind: 'results', result: data as BulkPlaytimeResult } : { kind: 'transient', status, reason: 'the relay answered with an unexpected body' };
  }
  // An error answer in the spec's shape (a proxy's page is not one: it is classified by its status alone).
  const { code, message, details } = fields;
  const errorBody = typeof code === 'string' && typeof message === 'string' && (details === undefined || Array.isArray(details)) ? (fields as ErrorBody) : undefined;
  // Only a VALIDATION_ERROR is about the sessions; the relay's other 400s (content type, unreadable body) are not.
  if ((status === 400 || status === 422) && code === 'VALIDATION_ERROR' && errorBody) {
    return { kind: 'invalid', status, message: message as string, details: (details as ErrorDetail[] | undefined) ?? [] };
  }
  if (status === 401 || status === 403) return { kind: 'auth', status, error: relayAuthError(status, errorBody, headers) };
  if (status === 413) return { kind: 'too-large' };
  const retryAfterMs = parseRetryAfter(headers, nowMs);
  const reason = errorBody ? `${status} ${code}: ${message}` : `the relay answered ${status}`;
  return { kind: 'transient', status, reason, ...(retryAfterMs !== undefined && { retryAfterMs }) };
}
