/**
 * The relay's `PUT /sponsor`: a player's boost change, or their first boost.
 * @see spec "Change boosted creator", "What the service does" (creating a boost is one of the three required operations)
 */
import { isCampaignError } from '../http/errors.js';
import { withoutErrorBody } from '../server/error-body.js';
import type { BoostRecord, CreateSponsorRequest } from '../schema/sponsors.js';
import type { Sponsors } from '../server/sponsors.js';
import { broken, UtcDateTime } from '../schema/rules.js';
import type { RelaySponsorRequest } from './protocol.js';
import { clientGoneResponse, upstreamAnswer } from './answers.js';

/**
 * Changes the player's boost (`PUT /v1/server/sponsors/user/{userId}`); when the service answers 404, creates it
 * (`POST /v1/server/sponsors`) instead. assumed: a change needs a boost to change, so a player who has never boosted
 * gets the change's 404 and boosts for the first time through the creation; a creator or campaign that does not
 * exist is the creation's 404 as well, so that answer reaches the game unchanged.
 */
export async function changeOrCreateBoost(
  sponsors: Pick<Sponsors, 'change' | 'create'>,
  userId: string,
  request: RelaySponsorRequest,
  signal?: AbortSignal,
): Promise<BoostRecord | Response> {
  // Neither call is aborted once sent (the service may apply it all the same, and a client that sent the change again
  // would then read the cooldown's 400 for its own change); a client gone before a call is not sent it.
  if (signal?.aborted) return clientGoneResponse();
  try {
    return await upstreamAnswer(CHANGE_CALL, sponsors.change(userId, request), boostProblem);
  } catch (error) {
    // Only the service's own 404: a proxy's page or a wrong baseUrl's is no sign of a player without a boost.
    if (!isCampaignError(error, 'NOT_FOUND') || withoutErrorBody(error)) throw error;
    // The change applied nothing: a client gone by now sends it again and gets its creation then.
    if (signal?.aborted) return clientGoneResponse();
    return upstreamAnswer(CREATE_CALL, sponsors.create(boostCreation(userId, request)), boostProblem);
  }
}

/** The upstream calls of `PUT /sponsor`, as its answers name them. */
const CHANGE_CALL = 'PUT /v1/server/sponsors/user/{userId}';
const CREATE_CALL = 'POST /v1/server/sponsors';

/**
 * What is wrong with the service's boost record (spec "Boost (sponsor) record"), or undefined: each field of the spec's
 * record, of its type, `sponsoredAt` an ISO 8601 date-time in UTC by the rule table's `UtcDateTime` (the picker's
 * cooldown counts from it; the `BoostRecord` schema's rule). Not `Date.parse`, which differs by runtime: V8 (Node,
 * Deno, workerd) reads `May 1, 2024` or `2024-05-01T00:00:00` (local time) where JavaScriptCore (Bun) may not, so the
 * same answer was a 200 on one relay and a 502 on another. Members the spec does not name pass.
 */
function boostProblem(record: unknown): string | undefined {
  if (typeof record !== 'object' || record === null || Array.isArray(record)) return `data is ${record === null ? 'null' : Array.isArray(record) ? 'a list' : typeof record}, not a boost record`;
  const fields = record as Record<string, unknown>;
  for (const name of ['userId', 'campaignId', 'creatorKey', 'creatorName']) if (typeof fields[name] !== 'string') return `${name} is not a string`;
  if (typeof fields['isActive'] !== 'boolean') return 'isActive is not a boolean';
  const sponsoredAt = fields['sponsoredAt'];
  if (broken(UtcDateTime, sponsoredAt) !== undefined) return 'sponsoredAt is not an ISO 8601 date-time in UTC';
  return undefined;
}

/** The creation `changeOrCreateBoost` falls back to: the change's fields, with the player and `creatorKey`. */
export function boostCreation(userId: string, request: RelaySponsorRequest): CreateSponsorRequest {
  const { newCreatorKey, ...rest } = request;
  return { ...rest, userId, creatorKey: newCreatorKey };
}
