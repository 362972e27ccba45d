/**
 * What the relay answers: `{ data }` on success, the spec's error body otherwise, and the translation of
 * the service's typed errors into answers that tell a game client whether to keep its data.
 * @see spec "Errors"; DESIGN section 6
 */
import { isCampaignError, type CampaignError } from '../http/errors.js';
import { isTransientStatus, parseRetryAfter } from '../http/backoff.js';
import { ERROR_CODES, errorBody, type ErrorDetail } from '../schema/errors.js';
import { withoutErrorBody } from '../server/error-body.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' } as const;

/** Shortest and longest `Retry-After` (seconds) the relay suggests when the service gave none. assumed: 1..5 s. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = { min: 1, max: 5 } as const;

/** A 200 answer carrying `{ data }`. */
export function dataResponse(data: unknown): Response {
  return new Response(JSON.stringify({ data }), { status: 200, headers: JSON_HEADERS });
}

/** An error answer with the spec's error body (`status` field equal to the HTTP status). */
export function errorResponse(
  status: number,
  code: string,
  message: string,
  details?: ErrorDetail[],
  headers?: Record<string, string>,
): Response {
  return new Response(JSON.stringify(errorBody(status, code, message, details)), {
    status,
    headers: { ...JSON_HEADERS, ...headers },
  });
}

/**
 * The answer to a request whose client went away (its `request.signal` aborted: the player's connection closed) before
 * the relay called the service for it: nothing was sent upstream, so the client, which reads no answer, keeps its data
 * and sends it again. assumed: 499, the status nginx logs for a request its client closed, so a server's logs and
 * metrics tell it from the relay's own refusals; no client ever reads it.
 */
export function clientGoneResponse(): Response {
  return errorResponse(499, 'BAD_REQUEST', 'The client closed the request before the relay forwarded it; nothing was sent to the service');
}

/** 400 `VALIDATION_ERROR` naming every field that broke a rule (`sessions.3.creatorKey`). */
export function validationErrorResponse(details: ErrorDetail[]): Response {
  return errorResponse(400, 'VALIDATION_ERROR', `Invalid request: ${summarize(details)}`, details);
}

/** Whole seconds for a `Retry-After` header: the ceiling of `ms`, at least 1. */
export function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}

/**
 * 503 `INTERNAL_ERROR` with `Retry-After`: the client keeps its data and tries again later.
 * assumed: the spec names INTERNAL_ERROR without a status; 503 tells clients the failure is temporary.
 */
export function unavailableResponse(message: string, retryAfterMs?: number, random: () => number = Math.random): Response {
  return retryLaterResponse(503, message, retryAfterMs, random);
}

/**
 * `INTERNAL_ERROR` with `status` and `Retry-After`: `retryAfterMs` when the service said when, otherwise whole seconds
 * drawn from {@link UNAVAILABLE_RETRY_AFTER_SECONDS}, so the players a failure met do not all come back at once.
 */
function retryLaterResponse(status: number, message: string, retryAfterMs: number | undefined, random: () => number): Response {
  const { min, max } = UNAVAILABLE_RETRY_AFTER_SECONDS;
  const seconds = retryAfterMs === undefined ? min + Math.floor(random() * (max - min + 1)) : retryAfterSeconds(retryAfterMs);
  return errorResponse(status, 'INTERNAL_ERROR', message, undefined, { 'retry-after': String(seconds) });
}

/**
 * 502 `INTERNAL_ERROR` + `Retry-After` (as {@link unavailableResponse}'s), logged with `console.error`: the service
 * answered `call` (`POST /v1/server/webview/ott`) with a success whose body is not the spec's answer (`problem` says
 * how). The client keeps its data and retries, as after any 5xx; a 200 would hand it a token, boost or result it cannot
 * use (a page opened without a token, a boost shown as changed). assumed: the gateway's status for an invalid upstream
 * answer (RFC 9110 15.6.3), with the spec's only server-side code.
 */
export function badUpstreamAnswer(call: string, problem: string, random: () => number = Math.random): Response {
  console.error(`[game-campaign-sdk] relay: the service answered ${call} with a success body that is not the spec's answer (${problem}); the client was answered 502 and keeps its data`);
  return retryLaterResponse(502, `The service's answer to ${call} is not the spec's answer (${problem}); keep the data and retry later`, undefined, random);
}

/**
 * `answer`, the data of the service's success answer to `call`, or {@link badUpstreamAnswer} when it is none (the
 * transport's `INVALID_RESPONSE`: no `{ data }` envelope, a 204, an HTML page) or `problem` finds it is not the spec's
 * answer. Other errors are thrown as they are.
 */
export async function upstreamAnswer<T>(call: string, answer: Promise<T>, problem: (data: T) => string | undefined): Promise<T | Response> {
  let data: T;
  try {
    data = await answer;
  } catch (error) {
    if (isInvalidSuccess(error)) return badUpstreamAnswer(call, (error as CampaignError).message);
    throw error;
  }
  const found = problem(data);
  return found === undefined ? data : badUpstreamAnswer(call, found);
}

/**
 * The answer for an error the service (through `CampaignServer`) raised.
 * - a success whose body is not the spec's answer (`INVALID_RESPONSE`): {@link badUpstreamAnswer} naming `call`;
 * - unreachable, time-out, 408, 429 or 5xx: 503 + `Retry-After`;
 * - `VALIDATION_ERROR`: 400 with the service's `details`;
 * - 401/403: 502, because the service refused the relay's own Server key, not the player (assumed);
 * - any other typed 4xx (cooldown 400, unknown creator 404): the same status, code, message and details;
 * - a 4xx with no code of the spec (a proxy's 499), or whose body is not the spec's error body (a proxy's or a wrong
 *   `baseUrl`'s HTML 404 page, typed by its status alone): 503, as the player did nothing wrong (assumed).
 * `details` reach the client only as the spec's error body has them: items of a string `path` and `message`.
 * @throws the error itself when it is not a `CampaignError` (a bug, answered 500 by the relay)
 */
export function upstreamErrorResponse(error: unknown, call = 'the service'): Response {
  if (!isCampaignError(error)) throw error;
  if (isInvalidSuccess(error)) return badUpstreamAnswer(call, (error as CampaignError).message);
  const status = error.status;
  if (status === 401 || status === 403) {
    return errorResponse(502, 'INTERNAL_ERROR', 'The service refused the relay\'s Server key');
  }
  const spec = !withoutErrorBody(error);
  if (spec && error.code === 'VALIDATION_ERROR' && (status === undefined || status < 500)) {
    return errorResponse(400, 'VALIDATION_ERROR', error.message, specDetails(error.details) ?? []);
  }
  const typed = (ERROR_CODES as readonly string[]).includes(error.code);
  if (spec && typed && status !== undefined && status >= 400 && !isTransientStatus(status)) {
    return errorResponse(status, error.code, error.message, specDetails(error.details));
  }
  return unavailableResponse('The service is unavailable; keep the data and retry later', upstreamRetryAfterMs(error));
}

/**
 * The transport's (or the coalescer's) `ResponseValidationError` for a success answer without the spec's data: code
 * `INVALID_RESPONSE` with a 2xx status or none; not an error answer whose own body says that code.
 */
function isInvalidSuccess(error: unknown): boolean {
  return isCampaignError(error, 'INVALID_RESPONSE') && (error.status === undefined || error.status < 300);
}

/**
 * The items of upstream `details` the spec's error body allows (a string `path` and `message`), without any other
 * member; undefined when `details` is not a list. The transport takes whatever list the service sent.
 */
export function specDetails(details: unknown): ErrorDetail[] | undefined {
  if (!Array.isArray(details)) return undefined;
  const kept: ErrorDetail[] = [];
  for (const item of details as unknown[]) {
    const { path, message } = (typeof item === 'object' && item !== null ? item : {}) as Partial<Record<string, unknown>>;
    if (typeof path === 'string' && typeof message === 'string') kept.push({ path, message });
  }
  return kept;
}

/** What the service asked us to wait, when it said (a `RateLimitError`, or a `Retry-After` on a 5xx). */
function upstreamRetryAfterMs(error: { retryAfterMs?: unknown; headers: Headers | undefined }): number | undefined {
  if (typeof error.retryAfterMs === 'number') return error.retryAfterMs;
  return error.headers ? parseRetryAfter(error.headers, Date.now()) : undefined;
}

/** The first few problems in one line; `details` holds them all. */
function summarize(details: ErrorDetail[]): string {
  const shown = details.slice(0, 3).map((d) => `${d.path} ${d.message}`);
  const more = details.length > shown.length ? `; and ${details.length - shown.length} more` : '';
  return shown.join('; ') + more;
}
