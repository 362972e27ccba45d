/**
 * The rules of a playtime session as a table of plain rules: the tracker checks its sessions with it on the
 * device, and `playtime.ts` builds the zod schemas of the relay and the emulator from the same table.
 * No zod import here, by design (game client bundles carry no zod runtime).
 * @see spec "Playtime session request fields"
 */
import type { ErrorDetail } from './errors.js';
import { checkFields, CreatorKey, Id, isIsoMillis, Metadata, optional, PositiveInt, Timestamp } from './rules.js';

/** Most items in one bulk request (sessions or payments). */
export const MAX_BULK_ITEMS = 1000;

/** The fields of a session, each with its rule. */
export const SESSION_RULES = {
  sessionId: Id,
  userId: Id,
  durationSeconds: PositiveInt,
  startedAt: Timestamp,
  endedAt: Timestamp,
  campaignId: optional(Id),
  creatorKey: optional(CreatorKey),
  metadata: optional(Metadata),
};

/**
 * The spec's cross-field rule: `endedAt` must be greater than or equal to `startedAt`. It is judged only when
 * both are valid timestamps (otherwise their own rule has said what is wrong), whatever else failed. Two valid
 * timestamps (one fixed width, 4-digit years, UTC) compare as strings in time order: no Date.parse needed.
 */
export function endsBeforeStart(session: { startedAt?: unknown; endedAt?: unknown }): boolean {
  const { startedAt, endedAt } = session;
  return typeof startedAt === 'string' && typeof endedAt === 'string' && isIsoMillis(startedAt) && isIsoMillis(endedAt) && endedAt < startedAt;
}

/** The detail of {@link endsBeforeStart}. */
export const END_BEFORE_START: ErrorDetail = { path: 'endedAt', message: 'must be greater than or equal to startedAt' };

/**
 * The rules of a bulk playtime item, checked field by field: what the tracker uses on the device. Unknown
 * fields are not looked at (the tracker builds its sessions itself). Same rules, same details as the
 * `BulkPlaytimeItem` schema (a property test proves it).
 */
export function checkPlaytimeItem(session: Record<string, unknown>): ErrorDetail[] {
  const details = checkFields(SESSION_RULES, session);
  return endsBeforeStart(session) ? [...details, END_BEFORE_START] : details;
}
