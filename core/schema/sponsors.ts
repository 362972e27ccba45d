/** Boosts ("sponsor" records). @see spec "Boost (sponsor) record", "Change boosted creator" */
import * as z from 'zod/mini';
import { Id, UtcDateTime, WriteOptions } from './primitives.js';

/** Days a boost must stay on one creator before it can change. */
export const BOOST_COOLDOWN_DAYS = 30;

/**
 * Body of `PUT /v1/server/sponsors/user/{userId}`. `newCreatorKey` is any non-empty key: the spec answers a
 * creator that does not exist with 404 NOT_FOUND (the 5-character pattern is a rule of playtime sessions),
 * and a malformed key names no creator.
 */
export const ChangeSponsorRequest = z.object({
  newCreatorKey: Id,
  campaignId: z.optional(Id),
  ...WriteOptions,
});
export type ChangeSponsorRequest = z.infer<typeof ChangeSponsorRequest>;

/** Body of `POST /v1/server/sponsors`. assumed (DESIGN section 10). */
export const CreateSponsorRequest = z.object({
  userId: Id,
  creatorKey: Id,
  campaignId: z.optional(Id),
  ...WriteOptions,
});
export type CreateSponsorRequest = z.infer<typeof CreateSponsorRequest>;

export const BoostRecord = z.object({
  userId: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  creatorName: z.string(),
  isActive: z.boolean(),
  sponsoredAt: UtcDateTime,
});
export type BoostRecord = z.infer<typeof BoostRecord>;

/**
 * A history entry's `action`: `CHANGED` (the spec's) and `CREATED` (ours), or any other non-empty string a newer service
 * writes. The spec does not enumerate the record's values ("Gaps in the resources"), so an action the SDK does not know
 * must not fail the whole read (it did, with `validateResponses` on, as the strict enum it was).
 */
export type BoostHistoryAction = 'CREATED' | 'CHANGED' | (string & {});

/**
 * One boost history entry. assumed: the spec shows only the `CHANGED` action and the field names
 * `previousCreatorKey`/`creatorKey`; `CREATED` and the remaining fields are ours.
 */
export const BoostHistoryEntry = z.object({
  action: Id as z.ZodMiniType<BoostHistoryAction>,
  userId: z.string(),
  campaignId: z.string(),
  creatorKey: z.string(),
  previousCreatorKey: z.optional(z.string()),
  createdAt: UtcDateTime,
});
export type BoostHistoryEntry = z.infer<typeof BoostHistoryEntry>;
