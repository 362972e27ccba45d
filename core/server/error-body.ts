/**
 * Whether an error answer `CampaignServer` read carried the spec's error body. The transport (shared with game
 * clients, whose bundles have no room for it) types an answer by its status when the body is not the spec's: a
 * proxy's HTML 404, or a 404 from a wrong `baseUrl`, is a `NotFoundError` there. The relay must not hand that on as
 * "creator not found" (nor a proxy's 422 page as a refusal of the player's sessions), so `serverFetch` notes the
 * headers of each error answer whose body is not the spec's, and the relay asks here.
 * @see spec "Errors" (error body, all error responses)
 */
import type { CampaignError } from '../http/errors.js';

/**
 * Headers of error answers without the spec's error body. assumed: kept under a global symbol, so a relay of the
 * package's other build (CJS beside ESM) reads what this build's `CampaignServer` noted.
 */
const unlike: WeakSet<object> = ((globalThis as Record<symbol, WeakSet<object> | undefined>)[Symbol.for('game-campaign-sdk.error-body')] ??= new WeakSet());

/**
 * True when `text` is the spec's error body for `status`. assumed: a JSON object whose `status` is the answer's
 * own status and whose `code` and `message` are strings; `error` and `details` are not required to recognise it
 * (a service that omitted them is still the service), `details` is checked where it is passed on.
 */
export function isSpecErrorBody(status: number, text: string): boolean {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return false;
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const fields = body as Record<string, unknown>;
  return fields['status'] === status && typeof fields['code'] === 'string' && typeof fields['message'] === 'string';
}

/** Notes an error answer `serverFetch` read: its headers are the ones its `CampaignError` carries. */
export function noteErrorBody(response: Pick<Response, 'status' | 'headers'>, text: string): void {
  if (typeof response.headers === 'object' && response.headers !== null && !isSpecErrorBody(response.status, text)) unlike.add(response.headers);
}

/**
 * True when `error` comes from an answer of the service (through `CampaignServer`) whose body was not the spec's
 * error body: its code was only guessed from the status. False for everything else (local checks, no answer, an
 * error a game's own stand-in for `CampaignServer` threw).
 */
export function withoutErrorBody(error: CampaignError): boolean {
  return error.status !== undefined && error.headers !== undefined && unlike.has(error.headers);
}
