/**
 * The rule table: the spec's scalar rules (formats, ranges), each a plain predicate and its message. It is
 * the one source of these rules: `primitives.ts` builds the zod schemas of the server, the relay and the
 * emulator from it ({@link Rule} -> zod), and game clients check with it directly ({@link broken},
 * {@link checkFields}), so their bundles carry no zod runtime. A property test proves both agree.
 * No zod import here, by design.
 * @see spec "Limits"
 */
import type { ErrorDetail } from './errors.js';

/** The JSON type a rule's value has before its predicate is asked. */
export type RuleType = 'string' | 'number' | 'boolean';

/**
 * One rule. `type`: the value must be of this type first ("is required" when missing, "must be a string" when
 * of another type; numbers must be finite). `test`: then it must pass this predicate, else `message`.
 * Without `type`, `test` alone decides (and `message` is also what a missing value gets).
 */
export interface Rule<T = unknown> {
  readonly type?: RuleType;
  readonly test?: (value: T) => boolean;
  readonly message?: string;
  /** `undefined` passes (the field may be left out). */
  readonly optional?: true;
}

/** A rule that lets `undefined` through: an optional field. */
// @__NO_SIDE_EFFECTS__
export function optional<T>(rule: Rule<T>): Rule<T> & { readonly optional: true } {
  return { ...rule, optional: true };
}

/**
 * True when `value` is exactly `YYYY-MM-DDTHH:mm:ss.sssZ` and names a real instant: what
 * `new Date(Date.parse(value)).toISOString() === value` says (a property test proves it), without the Date
 * round trip, which was a quarter of the relay's own CPU per session (four checks per session).
 */
export function isIsoMillis(value: string): boolean {
  const parts = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/.exec(value);
  // Days 29 to 31 exist only in some months: the last day of the month, from setUTCFullYear (which, unlike
  // Date.UTC, keeps years 0-99 as they are).
  return !!parts && (parts[3]! < '29' || +parts[3]! <= new Date(new Date(0).setUTCFullYear(+parts[1]!, +parts[2]!, 0)).getUTCDate());
}

/** True for a plain key/value object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** ISO 8601 UTC timestamp in the one form the spec accepts: `YYYY-MM-DDTHH:mm:ss.sssZ`. */
export const Timestamp: Rule<string> = { type: 'string', test: isIsoMillis, message: 'must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ss.sssZ' };

/**
 * True for an ISO 8601 date-time in UTC (`Z` or `+00:00`), with or without fractional seconds, that names a real
 * instant: `2024-05-01T10:30:00Z`, `2024-05-01T10:30:00.123456Z`.
 */
export function isUtcDateTime(value: string): boolean {
  const parts = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(\.\d+)?(Z|\+00:00)$/.exec(value);
  return !!parts && isIsoMillis(`${parts[1]}.000Z`);
}

/**
 * The spec's general date-time: "All timestamps are ISO 8601 date-time strings in UTC". assumed: any precision, `Z`
 * or `+00:00`; the millisecond form ({@link Timestamp}) is the rule of playtime sessions only, so a payment's
 * `purchasedAt` from a store receipt (`...:00Z`) and the date-times a response carries are taken in this form.
 */
export const UtcDateTime: Rule<string> = { type: 'string', test: isUtcDateTime, message: 'must be an ISO 8601 date-time in UTC, such as 2024-05-01T10:30:00Z' };

/** Creator key: exactly 5 uppercase alphanumeric characters. */
export const CREATOR_KEY_PATTERN = /^[A-Z0-9]{5}$/;
export const CreatorKey: Rule<string> = { type: 'string', test: (value) => CREATOR_KEY_PATTERN.test(value), message: 'must be exactly 5 uppercase letters or digits' };

/** Non-empty identifier. assumed: the spec gives ids as plain strings; an empty one is never meaningful. */
export const Id: Rule<string> = { type: 'string', test: (value) => value !== '', message: 'must not be empty' };

/** Whole numbers from `min` to `max`, by default with a message naming both. */
// @__NO_SIDE_EFFECTS__
function wholeNumber(min: number, max: number, message = `must be an integer from ${min} to ${max}`): Rule<number> {
  return { type: 'number', test: (n) => Number.isSafeInteger(n) && n >= min && n <= max, message };
}

/** A whole number of at least 1 (`durationSeconds`, page numbers, the tracker's counts and intervals). */
export const PositiveInt = wholeNumber(1, Number.MAX_SAFE_INTEGER, 'must be a whole number of at least 1');

/** The longest delay `setTimeout` keeps (a 32-bit signed count of ms): a longer one fires at once. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** A timer's delay in ms, 1 to {@link MAX_TIMER_MS}: the tracker's intervals and time-outs. */
export const TimerMs = wholeNumber(1, MAX_TIMER_MS);

/** Page size and other list limits: 1 to 100. */
export const Limit = wholeNumber(1, 100);

/** Arbitrary key/value pairs stored with a request (playtime session, web view token). */
export const Metadata: Rule<Record<string, unknown>> = { test: isRecord, message: 'must be an object' };

/** A true/false flag, such as `isTest`. */
export const Flag: Rule<boolean> = { type: 'boolean' };

/**
 * Creator search text: 1 to 10 characters, counted as the spec's string length is (JSON Schema's `maxLength`: code
 * points, as a string's iterator yields them), so an emoji is one character, not the two UTF-16 units of
 * `value.length`. Not a `u`-flag regular expression: @react-native/babel-preset rewrites one into UTF-16 ranges
 * (about 170 bytes in a Metro bundle).
 */
export const SearchText: Rule<string> = { type: 'string', test: (value) => value !== '' && Array.from(value).length <= 10, message: 'must be 1 to 10 characters' };

/** Results of one item in a bulk request. */
export const BULK_ITEM_STATUSES = ['SUCCESS', 'SKIPPED', 'FAILED'] as const;

/** What is wrong with `value` under `rule`, or undefined when it keeps the rule. The client-side check. */
export function broken(rule: Rule<never>, value: unknown): string | undefined {
  if (value === undefined && rule.optional) return undefined;
  const { type, test, message } = rule as Rule;
  if (type) {
    if (value === undefined) return 'is required';
    if (typeof value !== type || (type === 'number' && !Number.isFinite(value))) return `must be a ${type}`;
  }
  return test && !test(value) ? message : undefined;
}

/**
 * Checks `value` field by field against a table of rules: a game client's object check. A field missing from
 * `value` is checked as `undefined` (so only optional ones pass); fields not in `fields` are not looked at.
 * Paths are `{prefix}.{field}`.
 */
export function checkFields(fields: Record<string, Rule<never>>, value: Record<string, unknown>, prefix?: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const name in fields) {
    const message = broken(fields[name]!, value[name]);
    if (message) details.push({ path: prefix === undefined ? name : `${prefix}.${name}`, message });
  }
  return details;
}
