/**
 * The scalar rules of the spec (formats, ranges). Kept apart from the object schemas so that a client
 * bundle that sends only ids and a search text carries only these.
 * @see spec "Limits"
 */
import * as z from 'zod/mini';

/**
 * `schema.check(...checks)` that bundlers may drop when unused. zod marks its own constructors free of
 * side effects but not the `.check()` method, so an unused schema built with it would stay in every
 * client bundle.
 */
// @__NO_SIDE_EFFECTS__
export function checked<T extends z.ZodMiniType>(schema: T, ...checks: Array<z.core.CheckFn<z.output<T>> | z.core.$ZodCheck<z.output<T>>>): T {
  return schema.check(...checks);
}

/** True when `value` is exactly `YYYY-MM-DDTHH:mm:ss.sssZ` and names a real instant. */
export function isIsoMillis(value: string): boolean {
  const time = Date.parse(value);
  return !Number.isNaN(time) && new Date(time).toISOString() === value;
}

/** ISO 8601 UTC timestamp in the one form the spec accepts: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const Timestamp = checked(z.string(), z.refine(isIsoMillis, 'must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ss.sssZ'));

/**
 * Any ISO 8601 date-time with a zone (`Z` or an offset), with or without fractional seconds: what we accept
 * where we only read what the service sends (webhook deliveries). assumed: the spec fixes the millisecond
 * form for playtime requests only, so a receiver must not refuse a signed delivery over `...:00Z`.
 */
export const DateTime = checked(
  z.string(),
  z.refine((value: string) => /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(value) && !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 date-time'),
);

/** Creator key: exactly 5 uppercase alphanumeric characters. */
export const CREATOR_KEY_PATTERN = /^[A-Z0-9]{5}$/;
export const CreatorKey = checked(z.string(), z.regex(CREATOR_KEY_PATTERN, 'must be exactly 5 uppercase letters or digits'));

/** Non-empty identifier. assumed: the spec gives ids as plain strings; an empty one is never meaningful. */
export const Id = checked(z.string(), z.regex(/^[\s\S]/, 'must not be empty'));

/**
 * Whole numbers from `min` to `max`. The scalar rules use refinements rather than `z.int()` or `z.minimum()`:
 * the fewer kinds of zod check a client bundle touches, the less of zod it carries.
 */
// @__NO_SIDE_EFFECTS__
function wholeNumber(min: number, max: number, message: string) {
  return checked(z.number(), z.refine<number>((n) => Number.isSafeInteger(n) && n >= min && n <= max, message));
}

/** A whole number of at least 1 (`durationSeconds`, page numbers, the tracker's counts and intervals). */
export const PositiveInt = wholeNumber(1, Number.MAX_SAFE_INTEGER, 'must be a whole number of at least 1');

/** Page size and other list limits: 1 to 100. */
export const Limit = wholeNumber(1, 100, 'must be an integer from 1 to 100');

/** True for a plain key/value object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Arbitrary key/value pairs stored with a request (playtime session, web view token). A custom check rather
 * than `z.record()`: it states the same rule at a fraction of the bytes a game client bundle would carry.
 * `abort: false` as zod's other checks: a bad metadata does not hide the object's cross-field checks.
 */
export const Metadata = z.custom<Record<string, unknown>>(isRecord, { message: 'must be an object', abort: false });

/** A true/false flag, such as `isTest`. */
export const Flag = z.boolean();

/** Creator search text: 1 to 10 characters. */
export const SearchText = checked(z.string(), z.regex(/^[\s\S]{1,10}$/, 'must be 1 to 10 characters'));
