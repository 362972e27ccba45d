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

/** Creator key: exactly 5 uppercase alphanumeric characters. */
export const CREATOR_KEY_PATTERN = /^[A-Z0-9]{5}$/;
export const CreatorKey = checked(z.string(), z.regex(CREATOR_KEY_PATTERN, 'must be exactly 5 uppercase letters or digits'));

/** Non-empty identifier. assumed: the spec gives ids as plain strings; an empty one is never meaningful. */
export const Id = checked(z.string(), z.minLength(1, 'must not be empty'));

export const PositiveInt = checked(z.int(), z.minimum(1, 'must be at least 1'));

/** Page size and other list limits: 1 to 100. */
export const Limit = checked(z.int(), z.minimum(1, 'must be at least 1'), z.maximum(100, 'must be at most 100'));

/** Creator search text: 1 to 10 characters. */
export const SearchText = checked(z.string(), z.minLength(1, 'must be at least 1 character'), z.maxLength(10, 'must be at most 10 characters'));
