/**
 * Building blocks shared by every resource schema: the zod schemas of the rule table (`rules.ts`, where each
 * scalar rule of the spec is written once) and the envelopes. Used where a server runs (server, relay,
 * emulator, webhooks); game clients check with the rule table itself.
 * @see spec "Resources and their fields", "Limits"
 */
import * as z from 'zod/mini';
import * as rules from './rules.js';
import { DateTime as DateTimeRule } from './date-time.js';

export { BULK_ITEM_STATUSES, CREATOR_KEY_PATTERN, isIsoMillis, isRecord } from './rules.js';

/**
 * `schema.check(...checks)` that bundlers may drop when unused. zod marks its own constructors free of
 * side effects but not the `.check()` method, so an unused schema built with it would stay in every bundle.
 */
// @__NO_SIDE_EFFECTS__
export function checked<T extends z.ZodMiniType>(schema: T, ...checks: Array<z.core.CheckFn<z.output<T>> | z.core.$ZodCheck<z.output<T>>>): T {
  return schema.check(...checks);
}

/**
 * The zod schema of one rule of the rule table (`rules.ts`): its type then its predicate as a refinement, or
 * the predicate alone as a custom check (`abort: false`, as zod's own checks: a bad field does not hide an
 * object's cross-field checks); in `z.optional` when the rule is optional.
 */
// @__NO_SIDE_EFFECTS__
export function schemaOf<T>(rule: rules.Rule<T>): z.ZodMiniType<T> {
  const { type, test, message } = rule;
  // One schema per rule (a rule and its optional form share their predicate), so tools that map schemas by
  // identity (the Unity type generator) see the same schema wherever the rule is used.
  let schema = test && (built.get(test) as z.ZodMiniType<T> | undefined);
  if (!schema) {
    if (!type) schema = z.custom<T>(test as (value: unknown) => boolean, { message, abort: false });
    else {
      const base = (type === 'string' ? z.string() : type === 'number' ? z.number() : z.boolean()) as unknown as z.ZodMiniType<T>;
      schema = test ? checked(base, z.refine(test, message)) : base;
    }
    if (test) built.set(test, schema);
  }
  return (rule.optional ? z.optional(schema) : schema) as z.ZodMiniType<T>;
}
const built = new WeakMap<(value: never) => boolean, z.ZodMiniType>();

/** The zod object shape of a table of rules: each field's {@link schemaOf}, optional ones in `z.optional`. */
// @__NO_SIDE_EFFECTS__
export function shapeOf<F extends Record<string, rules.Rule<never>>>(fields: F): ShapeOf<F> {
  const shape: Record<string, z.ZodMiniType> = {};
  for (const name in fields) {
    shape[name] = schemaOf(fields[name] as rules.Rule);
  }
  return shape as ShapeOf<F>;
}
type ValueOf<R> = R extends rules.Rule<infer T> ? T : never;
export type ShapeOf<F> = { [K in keyof F]: F[K] extends { optional: true } ? z.ZodMiniOptional<z.ZodMiniType<ValueOf<F[K]>>> : z.ZodMiniType<ValueOf<F[K]>> };

/** ISO 8601 UTC timestamp in the one form the spec accepts: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const Timestamp = schemaOf(rules.Timestamp);
/** An ISO 8601 date-time in UTC, any precision: the spec's timestamps outside playtime sessions. */
export const UtcDateTime = schemaOf(rules.UtcDateTime);
/** Any ISO 8601 date-time with a zone: what we accept where we only read what the service sends. */
export const DateTime = schemaOf(DateTimeRule);
/** Creator key: exactly 5 uppercase alphanumeric characters. */
export const CreatorKey = schemaOf(rules.CreatorKey);
/** Non-empty identifier. */
export const Id = schemaOf(rules.Id);
/** A whole number of at least 1. */
export const PositiveInt = schemaOf(rules.PositiveInt);
/** Page size and other list limits: 1 to 100. */
export const Limit = schemaOf(rules.Limit);
/** A true/false flag, such as `isTest`. */
export const Flag = schemaOf(rules.Flag);
/** Creator search text: 1 to 10 characters. */
export const SearchText = schemaOf(rules.SearchText);
/** Arbitrary key/value pairs (a custom check rather than `z.record()`: the rule is the table's). */
export const Metadata = schemaOf(rules.Metadata);

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
export const BulkItemStatus = z.enum(rules.BULK_ITEM_STATUSES);
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
