/**
 * The relay's playtime route: validates a client's batch, keeps it to the authenticated user, refuses what
 * the service would refuse and what cannot be believed, sends the rest through the coalescer and answers with
 * this client's items only.
 * @see DESIGN section 6; spec "Record bulk playtime sessions"
 */
import type { ErrorDetail } from '../schema/errors.js';
import type { BulkPlaytimeItem, BulkPlaytimeResult, PlaytimeItemResult } from '../schema/playtime.js';
import { bulkResultFrom } from '../schema/primitives.js';
import { check } from '../schema/validate.js';
import { clientGoneResponse, dataResponse, errorResponse, unavailableResponse, upstreamErrorResponse, validationErrorResponse } from './answers.js';
import { checkedBatch, type CheckedBatch } from './batch-check.js';
import { maxItemBytes, measureBatch, type BatchSize, type PlaytimeCoalescer } from './coalescer.js';
import { clockShiftMs } from './device-clock.js';
import { DAILY_CAP_ERROR, type CapTaken, type DailyPlaytimeCap } from './daily-cap.js';
import { DayCountsFullError } from './day-counts.js';
import { implausibility, policyRefusal, type AcceptSession, type PlausibilityRules } from './plausibility.js';
import { RelayPlaytimeRequest } from './protocol.js';
import { claimCopy, laterCopyAnswer, type CopyClaim } from './session-copies.js';
import { renumberSessions } from './session-paths.js';
import { timestampText, timestampTime } from './timestamp-time.js';
import { withDeadline } from '../with-deadline.js';

/** The `error` of an item whose userId is not the authenticated user's; such an item is never forwarded. */
export const USER_MISMATCH_ERROR = 'userId does not match the authenticated user';

/** What the playtime route works with, set up once by `createRelay`. */
export interface PlaytimeRoute {
  coalescer: PlaytimeCoalescer;
  rules: PlausibilityRules;
  acceptSession?: AcceptSession | undefined;
  /** How long `acceptSession` may take for a batch, in ms (then 503). */
  acceptSessionTimeoutMs: number;
  dailyCap?: DailyPlaytimeCap | undefined;
  /** The largest upstream body, in bytes (the service's limit). */
  maxUpstreamBytes: number;
}

/** A session on its way upstream, with what it took from the daily cap. */
interface Forwarded {
  index: number;
  session: BulkPlaytimeItem;
  taken?: CapTaken | undefined;
}

/**
 * Answers `POST {relay}/playtime/sessions` for `user`: 400 `VALIDATION_ERROR` for a batch that breaks the
 * schema or holds a session too large for the service on its own (the whole batch, details naming each
 * session), else 200 `{ data: BulkPlaytimeResult }` holding every item sent, in order, with counts recomputed
 * for them. Items of another user, implausible ones, those the game's policy refuses and those over the daily
 * cap are FAILED without reaching the service; a batch whose every item names another user is a 403 (the game's
 * credentials are another player's: the tracker keeps the sessions for its own player's).
 * @param ascii - every string in `body` is ASCII (`readJsonBody`'s `ascii`): the upstream body is measured by its length
 */
export async function answerPlaytime(body: unknown, user: { userId: string }, route: PlaytimeRoute, signal?: AbortSignal, ascii = false): Promise<Response> {
  const batch = checkedBatch(body) ?? zodCheckedBatch(body);
  if ('details' in batch) return validationErrorResponse(batch.details);
  const { sessions, startedMs, endedMs, isTest } = batch;
  const { userId } = user;
  const results = new Array<PlaytimeItemResult>(sessions.length);
  const nowMs = Date.now();
  const shiftMs = clockShiftMs(batch.sentAt, nowMs);
  const room = maxItemBytes(isTest, route.maxUpstreamBytes);
  let candidates: Forwarded[] = [];
  /** Sessions naming another user than the authenticated one. */
  let others = 0;
  for (let index = 0; index < sessions.length; index++) {
    // Judged and forwarded in the relay's time: plausibility still refuses what is inflated after the move.
    const sent = sessions[index] as BulkPlaytimeItem;
    const started = (startedMs[index] as number) + shiftMs;
    const ended = (endedMs[index] as number) + shiftMs;
    // shiftSession's move, from the instants already read (no second parse of either timestamp).
    const session = shiftMs === 0 ? sent : { ...sent, startedAt: timestampText(started), endedAt: timestampText(ended) };
    const other = session.userId !== userId;
    if (other) others++;
    const refusal = other ? USER_MISMATCH_ERROR : implausibility(session.durationSeconds, started, ended, nowMs, route.rules);
    if (refusal !== undefined) results[index] = failed(session, refusal);
    else candidates.push({ index, session });
  }
  // Every session names another player: the game's credentials are not this player's (signed out, another signed
  // in, while the tracker ran). A 403, as for credentials refused, keeps them queued for the player's own.
  if (others > 0 && others === sessions.length) return errorResponse(403, 'FORBIDDEN', `${USER_MISMATCH_ERROR}: sign this player in again to send their sessions`);
  // Measured as the upstream body will carry them (`1e20` there is 21 bytes): the size splits merged calls too.
  const candidateSessions = candidates.map((c) => c.session);
  const measured = measureBatch(candidateSessions, isTest, room, ascii);
  const tooLarge: ErrorDetail[] = [];
  measured.items?.forEach((size, i) => {
    if (size > room) tooLarge.push({ path: `sessions.${candidates[i]?.index}`, message: `is ${size} bytes as JSON; the service takes at most ${room} bytes for one session` });
  });
  if (tooLarge.length > 0) return validationErrorResponse(tooLarge);
  const candidateCount = candidates.length;

  if (route.acceptSession) {
    const timeoutMs = route.acceptSessionTimeoutMs;
    let decided: Forwarded[] | undefined;
    try {
      // A policy that never answers (its database stalled) would hold the request, and each of the client's retries.
      decided = await withDeadline<Forwarded[] | undefined>(applyPolicy(route.acceptSession, candidates, user, results), timeoutMs, () => undefined);
    } catch {
      return unavailableResponse("The game's session policy could not decide; retry later");
    }
    if (!decided) return unavailableResponse(`The game's session policy did not answer within ${timeoutMs} ms; retry later`);
    candidates = decided;
  }
  // A client gone by now (its connection closed while the body, the policy or the cap store was awaited) reads no
  // answer and sends its sessions again: none is forwarded or counted for it. Once handed to the coalescer they go
  // on (a merged call carries other players' sessions; a copy sent again is SKIPPED, counted once by the cap).
  if (signal?.aborted) return clientGoneResponse();
  const cap = isTest ? undefined : route.dailyCap; // a test-mode session is validated, never recorded: it plays no time
  // A copy of a session already in flight (this body or another request) waits for the first copy's answer.
  const claims = new Map<number, CopyClaim>();
  const laterCopies: Array<{ index: number; sessionId: string; wait: NonNullable<CopyClaim['wait']> }> = [];
  if (cap) {
    candidates = candidates.filter((c) => {
      const claim = claimCopy(route, userId, c.session.sessionId);
      if (claim.wait) laterCopies.push({ index: c.index, sessionId: c.session.sessionId, wait: claim.wait });
      else claims.set(c.index, claim);
      return claim.wait === undefined;
    });
  }
  /** Settles this request's first copies: those not given an answer settle as not recorded. */
  const settleFirsts = () => claims.forEach((claim, index) => claim.settle?.(results[index]));
  let response: Response | undefined;
  try {
    response = await forwardFirsts();
  } finally {
    settleFirsts(); // never left pending: a later copy would wait for ever
  }
  if (response) return response;
  const firsts = await Promise.all(laterCopies.map((copy) => copy.wait));
  // A first copy that got no answer (its upstream call failed) was not recorded: the client sends the copy again.
  if (firsts.some((first) => first === undefined)) return unavailableResponse('An earlier copy of a session in this batch was not recorded; retry later');
  laterCopies.forEach((copy, i) => (results[copy.index] = laterCopyAnswer(firsts[i] as PlaytimeItemResult, copy.sessionId)));
  return dataResponse(summarizeResults(results));

  /** Caps and forwards the first copies into `results`; a response when the request ends otherwise. */
  async function forwardFirsts(): Promise<Response | undefined> {
    let forwarded = candidates;
    if (cap) {
      try {
        forwarded = await takeFromCap(cap, userId, candidates, results);
      } catch (error) {
        // The cap's memory full (DayCountsFullError): this player is not counted yet today, so not taken; the client retries.
        return unavailableResponse(error instanceof DayCountsFullError ? error.message : 'The play-time cap store is unavailable; retry later');
      }
      if (signal?.aborted) {
        await giveBack(cap, forwarded);
        return clientGoneResponse();
      }
    }

    if (forwarded.length > 0) {
      let upstream: PlaytimeItemResult[];
      try {
        // The measure of the candidates holds when none was held back, as is usual; else the coalescer measures.
        const size: BatchSize | undefined = forwarded.length === candidateCount ? measured : undefined;
        upstream = await route.coalescer.submit(size ? candidateSessions : forwarded.map((f) => f.session), isTest, size);
      } catch (error) {
        await giveBack(cap, forwarded);
        // The service numbered the sessions it received; the client's batch had more (some were not forwarded).
        return upstreamErrorResponse(renumberSessions(error, (n) => forwarded[n]?.index), 'POST /v1/server/playtime/sessions/bulk');
      }
      forwarded.forEach((f, i) => (results[f.index] = withStringError(upstream[i] as PlaytimeItemResult)));
      // Only play the service holds counts, once: SKIPPED (already recorded) may be one whose first answer was lost.
      if (cap) {
        await Promise.all(
          forwarded.map((f, i) => {
            const status = upstream[i]?.status;
            if (!f.taken) return undefined;
            return status === 'SUCCESS' || status === 'SKIPPED' ? cap.keepOnce(f.session.sessionId, f.taken) : cap.giveBack(f.taken);
          }),
        );
      }
    }
    return undefined;
  }
}

/**
 * The service's item result as a client may read it: an `error` that is not a string (spec "Playtime item result":
 * `error` (string, for failures)) is left out, so the tracker's `dropped` event says `FAILED` rather than handing a
 * game's listener the number or object its type says is a string. Not a 502: the service would answer that session so
 * again, and every batch holding it (and every session behind it in the client's queue) would wait for ever.
 * assumed: the rest of the item, members the spec does not name included, is handed on as it came.
 */
function withStringError(item: PlaytimeItemResult): PlaytimeItemResult {
  if (typeof item !== 'object' || item === null || item.error === undefined || typeof item.error === 'string') return item;
  const { error: _unread, ...rest } = item;
  return rest;
}

/** The sessions the game's `acceptSession` takes; the refused ones are FAILED in `results`. */
async function applyPolicy(accept: AcceptSession, candidates: Forwarded[], user: { userId: string }, results: PlaytimeItemResult[]): Promise<Forwarded[]> {
  const verdicts = await Promise.all(candidates.map((c) => accept(c.session, { userId: user.userId })));
  return candidates.filter((c, i) => {
    const refusal = policyRefusal(verdicts[i]);
    if (refusal !== undefined) results[c.index] = failed(c.session, refusal);
    return refusal === undefined;
  });
}

/** The sessions within the user's daily cap, their seconds taken; the others are FAILED in `results`. */
async function takeFromCap(cap: DailyPlaytimeCap, userId: string, candidates: Forwarded[], results: PlaytimeItemResult[]): Promise<Forwarded[]> {
  const taken = await cap.takeBatch(userId, candidates.map((c) => c.session));
  const within: Forwarded[] = [];
  candidates.forEach((c, i) => {
    const share = taken[i];
    if (share) within.push({ ...c, taken: share });
    else results[c.index] = failed(c.session, DAILY_CAP_ERROR);
  });
  return within;
}

async function giveBack(cap: DailyPlaytimeCap | undefined, sessions: Forwarded[]): Promise<void> {
  if (cap) await Promise.all(sessions.map((f) => (f.taken ? cap.giveBack(f.taken) : undefined)));
}

/**
 * The zod pass, for a batch {@link checkedBatch} refused: the details of every problem. Were it to take a batch
 * the rule table refused (a property test proves they agree), its own output goes on, its times read from it.
 */
function zodCheckedBatch(body: unknown): CheckedBatch | { details: ErrorDetail[] } {
  const parsed = check(RelayPlaytimeRequest, body);
  if (!parsed.success) return { details: parsed.details };
  const { sessions, isTest, sentAt } = parsed.data; // without prototypes (`check`): not a polluted `Object.prototype.isTest`
  return {
    sessions,
    startedMs: sessions.map((session) => timestampTime(session.startedAt)),
    endedMs: sessions.map((session) => timestampTime(session.endedAt)),
    isTest: isTest === true,
    sentAt,
  };
}

function failed(session: BulkPlaytimeItem, error: string): PlaytimeItemResult {
  return { sessionId: session.sessionId, status: 'FAILED', error };
}

/** A bulk result whose counts are those of `results`. */
export function summarizeResults(results: PlaytimeItemResult[]): BulkPlaytimeResult {
  return bulkResultFrom(results);
}
