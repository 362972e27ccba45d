/** Playtime sessions: single and bulk. @see spec "Playtime session request fields", "Record playtime session" */
import * as z from 'zod/mini';
import type { ErrorDetail } from './errors.js';
import { BulkItemStatus, bulkResultOf, checked, CreatorKey, Id, isIsoMillis, isRecord, Metadata, Platform, PositiveInt, Timestamp, WriteOptions } from './primitives.js';
import { checkFields } from './validate.js';

export const MAX_BULK_ITEMS = 1000;

/**
 * The spec's cross-field rule: `endedAt` must be greater than or equal to `startedAt`. It is judged only when
 * both are valid timestamps (otherwise their own rule has said what is wrong), whatever else failed.
 */
export function endsBeforeStart(session: { startedAt?: unknown; endedAt?: unknown }): boolean {
  const { startedAt, endedAt } = session;
  return typeof startedAt === 'string' && typeof endedAt === 'string' && isIsoMillis(startedAt) && isIsoMillis(endedAt) && Date.parse(endedAt) < Date.parse(startedAt);
}
const END_BEFORE_START: ErrorDetail = { path: 'endedAt', message: 'must be greater than or equal to startedAt' };
const endNotBeforeStart = z.refine<{ startedAt: string; endedAt: string }>((session) => !endsBeforeStart(session), {
  message: END_BEFORE_START.message,
  path: [END_BEFORE_START.path],
  when: (payload) => isRecord(payload.value),
});

/** The fields of a session, each with its rule; the object schemas below and {@link checkPlaytimeItem} share them. */
const sessionFields = {
  sessionId: Id,
  userId: Id,
  durationSeconds: PositiveInt,
  startedAt: Timestamp,
  endedAt: Timestamp,
  campaignId: z.optional(Id),
  creatorKey: z.optional(CreatorKey),
  metadata: z.optional(Metadata),
};

/** Body of `POST /v1/server/playtime/sessions`. */
export const PlaytimeSessionRequest = checked(
  z.object({ ...sessionFields, platform: z.optional(Platform), ...WriteOptions }),
  endNotBeforeStart,
);
export type PlaytimeSessionRequest = z.infer<typeof PlaytimeSessionRequest>;

/** One item of the bulk variant: no `platform`, no per-item `callbackId`/`isTest`. */
export const BulkPlaytimeItem = checked(z.object(sessionFields), endNotBeforeStart);
export type BulkPlaytimeItem = z.infer<typeof BulkPlaytimeItem>;

/**
 * The rules of {@link BulkPlaytimeItem}, checked field by field: what the tracker uses on the device, where
 * zod's object machinery would cost a game client more than the rest of the tracker. Unknown fields are not
 * looked at (the tracker builds its sessions itself). Same rules, same details as the schema.
 */
export function checkPlaytimeItem(session: Record<string, unknown>): ErrorDetail[] {
  const details = checkFields(sessionFields, session);
  return endsBeforeStart(session) ? [...details, END_BEFORE_START] : details;
}

export const BulkPlaytimeItems = checked(z.array(BulkPlaytimeItem), 
  z.minLength(1, 'must hold at least 1 session'),
  z.maxLength(MAX_BULK_ITEMS, `must hold at most ${MAX_BULK_ITEMS} sessions`),
);

/** Body of `POST /v1/server/playtime/sessions/bulk`. */
export const BulkPlaytimeRequest = z.object({ sessions: BulkPlaytimeItems, ...WriteOptions });
export type BulkPlaytimeRequest = z.infer<typeof BulkPlaytimeRequest>;

/** `data` of a recorded session; `recorded: false` means the sessionId was already there (not an error). */
export const PlaytimeSession = z.object({
  sessionId: z.string(),
  userId: z.string(),
  durationSeconds: z.int(),
  recorded: z.boolean(),
  createdAt: Timestamp,
});
export type PlaytimeSession = z.infer<typeof PlaytimeSession>;

export const PlaytimeItemResult = z.object({
  sessionId: z.string(),
  status: BulkItemStatus,
  error: z.optional(z.string()),
});
export type PlaytimeItemResult = z.infer<typeof PlaytimeItemResult>;

export const BulkPlaytimeResult = bulkResultOf(PlaytimeItemResult);
export type BulkPlaytimeResult = z.infer<typeof BulkPlaytimeResult>;
