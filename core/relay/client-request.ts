/**
 * The request path of a game client's JSON calls to its relay (`POST /webview/ott`, `PUT /sponsor`): one exchange
 * within a time-out, the relay's answer turned into the SDK's typed errors, and 429 retried with the API transport's
 * timing. Writes the service does not de-duplicate are retried only after a 429, which the relay answers before
 * anything is done (the transport's `rate-limit` policy).
 * @see DESIGN sections 3 and 6
 */
import { API_RETRY, apiRetryDelay, parseRetryAfter, sleep } from '../http/backoff.js';
import { errorFromResponse, RelayAuthError, ResponseValidationError, type RateLimitError } from '../http/errors.js';
import { exchange, noAnswerError, parseJson } from '../http/exchange.js';
import type { FetchLike } from '../platform.js';
import { isRecord } from '../schema/rules.js';
import { resolveHeaders, RELAY_TIMEOUT_MS, type RelayTarget } from './sender.js';

/** Where a game client's relay calls go, and how they are timed. */
export interface RelayClient {
  fetch: FetchLike;
  relay: RelayTarget;
  /** Per-attempt time-out, ms. @defaultValue 30000 */
  timeoutMs?: number;
  /** Retries after a 429. @defaultValue 2 */
  maxRetries?: number;
  /** Source of jitter. @defaultValue Math.random */
  random?: () => number;
}

/** One call: a route of `RELAY_ROUTES` and its JSON body. */
export interface RelayCall {
  method: 'POST' | 'PUT';
  route: string;
  body: unknown;
  /** A boost change: a BAD_REQUEST stating the days remaining is a `BoostCooldownError`. */
  cooldown?: boolean;
  signal?: AbortSignal;
}

/**
 * Sends `call` to the relay and returns the answer's `data`.
 * @throws RelayAuthError for 401/403 (the game's authentication); the typed error of the relay's error body
 * (`ValidationError`, `BoostCooldownError`, `NotFoundError`, `RateLimitError` once retries are spent, ...);
 * `ConnectionError`/`TimeoutError` without an answer; the signal's reason when it aborts
 */
export async function relayRequest<T>(client: RelayClient, call: RelayCall): Promise<T> {
  const url = client.relay.url.replace(/\/+$/, '') + call.route;
  const timeoutMs = client.timeoutMs ?? RELAY_TIMEOUT_MS;
  for (let attempt = 0; ; attempt++) {
    const headers = { ...(await resolveHeaders(client.relay.headers)), 'content-type': 'application/json' };
    let answer: { response: Response; text: string };
    // The messages are the API transport's own, so both paths report a failure alike.
    try {
      answer = await exchange(client.fetch, url, { method: call.method, headers, body: JSON.stringify(call.body) }, timeoutMs, call.signal);
    } catch (cause) {
      if (call.signal?.aborted) throw cause;
      throw noAnswerError(cause);
    }
    const { response } = answer;
    const { status, headers: answerHeaders } = response;
    const body = parseJson(answer.text);
    if (response.ok) {
      if (isRecord(body) && 'data' in body) return body['data'] as T;
      throw new ResponseValidationError({ status, code: 'INVALID_RESPONSE', message: 'The response body is not a JSON object with a data member', headers: answerHeaders });
    }
    const error = errorFromResponse(status, body, answerHeaders, parseRetryAfter(answerHeaders, Date.now()), call.cooldown);
    if (status === 401 || status === 403) throw new RelayAuthError({ status, code: error.code, message: error.message, headers: answerHeaders });
    const delayMs = status === 429 && attempt < (client.maxRetries ?? API_RETRY.maxRetries) ? apiRetryDelay((error as RateLimitError).retryAfterMs, attempt, client.random) : undefined;
    if (delayMs === undefined) throw error;
    // Rejects with the signal's reason, the timer cleared, when it aborts during the wait.
    await sleep(delayMs, call.signal);
  }
}
