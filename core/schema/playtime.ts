/** Playtime sessions: single and bulk. @see spec "Playtime session request fields", "Record playtime session" */
import * as z from 'zod/mini';
import { BulkItemStatus, bulkResultOf, checked, CreatorKey, Id, Metadata, Platform, PositiveInt, Timestamp, WriteOptions } from './primitives.js';

export const MAX_BULK_ITEMS = 1000;

const endNotBeforeStart = z.refine<{ startedAt: string; endedAt: string }>(
  (s) => Date.parse(s.endedAt) >= Date.parse(s.startedAt),
  { message: 'must be greater than or equal to startedAt', path: ['endedAt'] },
);

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
