/** Playtime sessions: single and bulk. @see spec "Playtime session request fields", "Record playtime session" */
import * as z from 'zod/mini';
import { BulkItemStatus, bulkResultOf, checked, isRecord, Platform, shapeOf, UtcDateTime, WriteOptions } from './primitives.js';
import { END_BEFORE_START, endsBeforeStart, MAX_BULK_ITEMS, SESSION_RULES } from './playtime-rules.js';

export { checkPlaytimeItem, endsBeforeStart, MAX_BULK_ITEMS } from './playtime-rules.js';

const endNotBeforeStart = z.refine<{ startedAt: string; endedAt: string }>((session) => !endsBeforeStart(session), {
  message: END_BEFORE_START.message,
  path: [END_BEFORE_START.path],
  when: (payload) => isRecord(payload.value),
});

/** The fields of a session, each with its rule (from the rule table the tracker checks with). */
const sessionFields = shapeOf(SESSION_RULES);

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
  createdAt: UtcDateTime,
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
