/**
 * The relay's playtime route: validates a client's batch, keeps it to the authenticated user, refuses what
 * the service would refuse and what cannot be believed, sends the rest through the coalescer and answers with
 * this client's items only.
 * @see DESIGN section 6; spec "Record bulk playtime sessions"
 */
import type { ErrorDetail } from '../schema/errors.js';
import type { BulkPlaytimeItem, BulkPlaytimeResult, PlaytimeItemResult } from '../schema/playtime.js';
import { bulkResultFrom } from '../schema/primitives.js';
import { MAX_BULK_ITEMS, SESSION_RULES } from '../schema/playtime-rules.js';
import { broken, checkFields, isRecord, Timestamp } from '../schema/rules.js';
import { check } from '../schema/validate.js';
import { dataResponse, unavailableResponse, upstreamErrorResponse, validationErrorResponse } from './answers.js';
import { maxItemBytes, measureBatch, type BatchSize, type PlaytimeCoalescer } from './coalescer.js';
import { clockShiftMs, shiftSession } from './device-clock.js';
import { DAILY_CAP_ERROR, type CapTaken, type DailyPlaytimeCap } from './daily-cap.js';
import { implausibility, policyRefusal, type AcceptSession, type PlausibilityRules } from './plausibility.js';
import { RelayPlaytimeRequest } from './protocol.js';

/** The `error` of an item whose userId is not the authenticated user's; such an item is never forwarded. */
export const USER_MISMATCH_ERROR = 'userId does not match the authenticated user';

/** What the playtime route works with, set up once by `createRelay`. */
export interface PlaytimeRoute {
  coalescer: PlaytimeCoalescer;
  rules: PlausibilityRules;
  acceptSession?: AcceptSession | undefined;
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
 * cap are FAILED without reaching the service.
 */
export async function answerPlaytime(body: unknown, user: { userId: string }, route: PlaytimeRoute): Promise<Response> {
  const parsed = validBatch(body) ?? check(RelayPlaytimeRequest, body);
  if (!parsed.success) return validationErrorResponse(parsed.details);
  const { sessions } = parsed.data;
  const isTest = parsed.data.isTest === true;
  const { userId } = user;
  const results = new Array<PlaytimeItemResult>(sessions.length);
  const nowMs = Date.now();
  const shiftMs = clockShiftMs(parsed.data.sentAt, nowMs);
  const room = maxItemBytes(isTest, route.maxUpstreamBytes);
  let candidates: Forwarded[] = [];
  sessions.forEach((sent, index) => {
    // Judged and forwarded in the relay's time: plausibility still refuses what is inflated after the move.
    const session = shiftSession(sent, shiftMs);
    const refusal = session.userId !== userId ? USER_MISMATCH_ERROR : implausibility(session, nowMs, route.rules);
    if (refusal !== undefined) results[index] = failed(session, refusal);
    else candidates.push({ index, session });
  });
  // Measured as the upstream body will carry them (`1e20` there is 21 bytes): the size splits merged calls too.
  const measured = measureBatch(candidates.map((c) => c.session), room);
  const tooLarge: ErrorDetail[] = [];
  measured.items?.forEach((size, i) => {
    if (size > room) tooLarge.push({ path: `sessions.${candidates[i]?.index}`, message: `is ${size} bytes as JSON; the service takes at most ${room} bytes for one session` });
  });
  if (tooLarge.length > 0) return validationErrorResponse(tooLarge);
  const candidateCount = candidates.length;

  try {
    if (route.acceptSession) candidates = await applyPolicy(route.acceptSession, candidates, user, results);
  } catch {
    return unavailableResponse("The game's session policy could not decide; retry later");
  }
  let forwarded = candidates;
  const cap = isTest ? undefined : route.dailyCap; // a test-mode session is validated, never recorded: it plays no time
  if (cap) {
    try {
      forwarded = await takeFromCap(cap, userId, candidates, results);
    } catch {
      return unavailableResponse('The play-time cap store is unavailable; retry later');
    }
  }

  if (forwarded.length > 0) {
    let upstream: PlaytimeItemResult[];
    try {
      // The measure of the candidates holds when none was held back, as is usual; else the coalescer measures.
      const size: BatchSize | undefined = forwarded.length === candidateCount ? measured : undefined;
      upstream = await route.coalescer.submit(forwarded.map((f) => f.session), isTest, size);
    } catch (error) {
      await giveBack(cap, forwarded);
      return upstreamErrorResponse(error);
    }
    forwarded.forEach((f, i) => (results[f.index] = upstream[i] as PlaytimeItemResult));
    // Only recorded play counts: a FAILED or SKIPPED (already recorded, so already counted) session gives its seconds back.
    if (cap) await giveBack(cap, forwarded.filter((f, i) => upstream[i]?.status !== 'SUCCESS'));
  }
  return dataResponse(summarizeResults(results));
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
 * The batch, when it is valid, checked with the plain rule table the zod schema is built from (a property test
 * proves both agree) and stripped to the spec's fields as zod would strip it: several times faster than the
 * zod pass, which then runs only for a batch that breaks a rule, to name every problem as it always has.
 */
function validBatch(body: unknown): { success: true; data: { sessions: BulkPlaytimeItem[]; isTest?: boolean; sentAt?: string } } | undefined {
  if (!isRecord(body) || !Array.isArray(body['sessions']) || (body['isTest'] !== undefined && typeof body['isTest'] !== 'boolean')) return undefined;
  const sentAt = body['sentAt'];
  if (sentAt !== undefined && broken(Timestamp, sentAt) !== undefined) return undefined;
  const items: unknown[] = body['sessions'];
  if (items.length < 1 || items.length > MAX_BULK_ITEMS) return undefined;
  const sessions: BulkPlaytimeItem[] = [];
  for (const item of items) {
    // checkPlaytimeItem's rules: with every field valid, its cross-field rule is a plain comparison of two
    // fixed-width UTC timestamps (see endsBeforeStart), so the timestamps are not matched twice.
    if (!isRecord(item) || checkFields(SESSION_RULES, item).length > 0 || (item['endedAt'] as string) < (item['startedAt'] as string)) return undefined;
    const session: Record<string, unknown> = {};
    for (const field of SESSION_FIELDS) if (item[field] !== undefined) session[field] = item[field];
    sessions.push(session as BulkPlaytimeItem);
  }
  return { success: true, data: { sessions, ...(body['isTest'] === undefined ? {} : { isTest: body['isTest'] }), ...(sentAt === undefined ? {} : { sentAt: sentAt as string }) } };
}
const SESSION_FIELDS = Object.keys(SESSION_RULES);

function failed(session: BulkPlaytimeItem, error: string): PlaytimeItemResult {
  return { sessionId: session.sessionId, status: 'FAILED', error };
}

/** A bulk result whose counts are those of `results`. */
export function summarizeResults(results: PlaytimeItemResult[]): BulkPlaytimeResult {
  return bulkResultFrom(results);
}
