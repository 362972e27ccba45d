/**
 * Building blocks shared by every resource schema. Each rule of the spec is written here once and
 * reused by the SDK (request validation), the relay and the emulator.
 * @see spec "Resources and their fields", "Limits"
 */
import * as z from 'zod/mini';
import { Limit, PositiveInt } from './rules.js';

export * from './rules.js';

export const PLATFORMS = ['iOS', 'Android', 'Web', 'ThirdPartyGame', 'Other'] as const;
/** Platform of a playtime session; the service defaults it to `Other`. */
export const Platform = z.enum(PLATFORMS);

/** Localized text. assumed: keys are language codes (the spec does not show them), values strings. */
export const LocalizedText = z.record(z.string(), z.string());

/** `page` (>= 1, default 1) and `limit` (1..100, default 20) of every paged list. */
export const PageQuery = z.object({
  page: z.optional(PositiveInt),
  limit: z.optional(Limit),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const Pagination = z.object({
  page: z.int(),
  limit: z.int(),
  total: z.int(),
  totalPages: z.int(),
});
export type Pagination = z.infer<typeof Pagination>;

/** Fields every write operation accepts: webhook correlation and test mode. */
export const WriteOptions = {
  callbackId: z.optional(z.string()),
  isTest: z.optional(z.boolean()),
};

/** Results of one item in a bulk request. */
export const BULK_ITEM_STATUSES = ['SUCCESS', 'SKIPPED', 'FAILED'] as const;
export const BulkItemStatus = z.enum(BULK_ITEM_STATUSES);
export type BulkItemStatus = z.infer<typeof BulkItemStatus>;

/** `{ data }` envelope of every successful response. */
// @__NO_SIDE_EFFECTS__
export function dataOf<T extends z.ZodMiniType>(schema: T) {
  return z.object({ data: schema });
}

/** `{ data: [...], pagination }` envelope of paged lists. */
// @__NO_SIDE_EFFECTS__
export function pageOf<T extends z.ZodMiniType>(item: T) {
  return z.object({ data: z.array(item), pagination: Pagination });
}

/** A bulk result's counts and its `results`, from the item results (one pass). */
export function bulkResultFrom<R extends { status: BulkItemStatus }>(results: R[]): { totalRequested: number; successful: number; failed: number; skipped: number; results: R[] } {
  const counts = { SUCCESS: 0, FAILED: 0, SKIPPED: 0 };
  for (const result of results) counts[result.status]++;
  return { totalRequested: results.length, successful: counts.SUCCESS, failed: counts.FAILED, skipped: counts.SKIPPED, results };
}

/** Bulk result (`data` of both bulk operations), parameterised by its item result. */
// @__NO_SIDE_EFFECTS__
export function bulkResultOf<T extends z.ZodMiniType>(item: T) {
  return z.object({
    totalRequested: z.int(),
    successful: z.int(),
    failed: z.int(),
    skipped: z.int(),
    results: z.array(item),
  });
}
