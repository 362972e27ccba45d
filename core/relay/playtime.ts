/**
 * The relay's playtime route: validates a client's batch, keeps it to the authenticated user, sends the
 * rest through the coalescer and answers with this client's items only.
 * @see DESIGN section 6; spec "Record bulk playtime sessions"
 */
import type { BulkPlaytimeResult, PlaytimeItemResult } from '../schema/playtime.js';
import { bulkResultFrom } from '../schema/primitives.js';
import { check } from '../schema/validate.js';
import { dataResponse, upstreamErrorResponse, validationErrorResponse } from './answers.js';
import type { PlaytimeCoalescer } from './coalescer.js';
import { RelayPlaytimeRequest } from './protocol.js';

/** The `error` of an item whose userId is not the authenticated user's; such an item is never forwarded. */
export const USER_MISMATCH_ERROR = 'userId does not match the authenticated user';

/**
 * Answers `POST {relay}/playtime/sessions` for `userId`: 400 `VALIDATION_ERROR` for a batch that breaks
 * the schema (the whole batch), else 200 `{ data: BulkPlaytimeResult }` holding every item sent, in order,
 * with counts recomputed for them; items of another user are FAILED without reaching the service.
 */
export async function answerPlaytime(body: unknown, userId: string, coalescer: PlaytimeCoalescer): Promise<Response> {
  const parsed = check(RelayPlaytimeRequest, body);
  if (!parsed.success) return validationErrorResponse(parsed.details);
  const { sessions, isTest } = parsed.data;
  const own = sessions.filter((session) => session.userId === userId);
  let upstream: PlaytimeItemResult[] = [];
  if (own.length > 0) {
    try {
      upstream = await coalescer.submit(own, isTest === true);
    } catch (error) {
      return upstreamErrorResponse(error);
    }
  }
  let next = 0;
  const results = sessions.map((session): PlaytimeItemResult => {
    if (session.userId !== userId) return { sessionId: session.sessionId, status: 'FAILED', error: USER_MISMATCH_ERROR };
    return upstream[next++] as PlaytimeItemResult;
  });
  return dataResponse(summarizeResults(results));
}

/** A bulk result whose counts are those of `results`. */
export function summarizeResults(results: PlaytimeItemResult[]): BulkPlaytimeResult {
  return bulkResultFrom(results);
}
