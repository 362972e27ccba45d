/**
 * A game client's JSON calls to its relay (`POST /webview/ott`, `PUT /sponsor`), through the API's own request
 * path ({@link Transport}): one exchange within a time-out, the relay's answer turned into the SDK's typed errors,
 * and 429 retried with the API's timing. Writes the service does not de-duplicate are retried only after a 429,
 * which the relay answers before anything is done (the `rate-limit` policy).
 * @see DESIGN sections 3 and 6
 */
import { CampaignError } from '../http/errors.js';
import { relayAuthError } from './auth-error.js';
import { createTransport, type TransportOptions } from '../http/transport.js';
import type { ResponseName } from '../schema/responses.js';
import type { RelayTarget } from './sender.js';

/**
 * Where a game client's relay calls go, and how they are timed and logged: the API transport's options
 * (`fetch`, `timeoutMs`, `maxRetries`, `random`, `logger`); `environment` and `validateResponses` do not apply.
 */
export interface RelayClient extends TransportOptions {
  relay: RelayTarget;
}

/** One call: a route of `RELAY_ROUTES` (the request's path under the relay's URL) and its JSON body. */
export interface RelayCall {
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
  /** What `data` holds, named in the error when the answer has none. */
  answer: ResponseName;
  /** A boost change: a BAD_REQUEST stating the days remaining is a `BoostCooldownError`. */
  cooldown?: boolean;
  signal?: AbortSignal | undefined;
}

/**
 * The caller of one relay: sends a call and returns the answer's `data`.
 * @throws RelayAuthError for 401/403 (the game's authentication); the typed error of the relay's error body
 * (`ValidationError`, `BoostCooldownError`, `NotFoundError`, `RateLimitError` once retries are spent, ...);
 * `ConnectionError`/`TimeoutError` without an answer; `AbortError` when the signal aborts
 */
export function relayCaller(client: RelayClient): <T>(call: RelayCall) => Promise<T> {
  // The relay's answers are its own, not the service's schemas: never validated against them.
  const transport = createTransport({ baseUrl: client.relay.url.replace(/\/+$/, ''), headers: client.relay.headers }, { ...client, validateResponses: false });
  // The call's own `answer` and `signal` ride along unread (no object rest: Babel's helpers, and the generator's arguments).
  // No async function: `transport.data` never throws, it rejects (its request is one), and a `.catch` is shorter than a lowered generator.
  return <T>(call: RelayCall) =>
    transport.data<T>({ ...call, retry: 'rate-limit', response: { name: call.answer, shape: 'item' }, options: { signal: call.signal } }).catch((error) => {
      const { status } = error as CampaignError;
      throw error instanceof CampaignError && (status === 401 || status === 403) ? relayAuthError(status, error, error.headers) : error;
    });
}
