/**
 * The date-time rule of what the SDK only reads (webhook deliveries): server code, so kept out of the rule table
 * (`rules.ts`), which game clients carry; built on the table's {@link isIsoMillis}.
 */
import { isIsoMillis, type Rule } from './rules.js';

/**
 * True for an RFC 3339 date-time (section 5.6) with any zone: `Z` or an offset from -23:59 to +23:59, any fraction of a
 * second, `T` and `Z` in either case, whose date and time exist (by {@link isIsoMillis}, the rule the relay's
 * one-pass `timestampTime` equals), a leap second included ({@link isLeapSecond}). Not `Date.parse`, which depends on
 * the runtime: V8 and JavaScriptCore read `2024-02-30` as March 1 and `24:00:00` as the next midnight, and the fields a
 * receiver typed could differ by runtime.
 */
export function isDateTime(value: string): boolean {
  const parts = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|([+-])([01]\d|2[0-3]):([0-5]\d))$/.exec(value);
  if (!parts) return false;
  const [, year, month, day, hour, minute, second, , , sign, offsetHours, offsetMinutes] = parts as unknown as string[];
  const exists = isIsoMillis(`${year}-${month}-${day}T${hour}:${minute}:${second === '60' ? '59' : second}.000Z`);
  if (!exists || second !== '60') return exists;
  const offset = sign ? (sign === '-' ? -1 : 1) * (+offsetHours! * 60 + +offsetMinutes!) : 0;
  return isLeapSecond(+year!, +month!, +day!, +hour! * 60 + +minute! - offset);
}

/**
 * True when second 60 of minute `minuteOfDay` (UTC, counted from the local date's midnight; the offset taken off, so it
 * may fall on the day before or after) is 23:59:60 UTC on the last day of a month: RFC 3339 section 5.7 allows second 60
 * only "at the end of months in which a leap second occurs", in the zone of the time written (its 5.8 example
 * `1990-12-31T15:59:60-08:00`). assumed: any month's end is taken (leap seconds are announced about six months ahead,
 * the IERS's Bulletin C, and a table of past ones would be wrong for the next), and the typed field keeps the string as
 * the service wrote it: JavaScript's `Date` has no leap seconds (`new Date('2016-12-31T23:59:60Z')` is an Invalid Date
 * in V8 and JavaScriptCore), so a receiver that makes a `Date` of it reads the instant itself (docs/decisions.md).
 */
function isLeapSecond(year: number, month: number, day: number, minuteOfDay: number): boolean {
  // The second after it, as milliseconds: the first instant of a month in UTC. setUTCFullYear, unlike Date.UTC, keeps
  // years 0-99 as they are.
  const next = new Date(new Date(0).setUTCFullYear(year, month - 1, day) + (minuteOfDay + 1) * 60_000);
  return next.getUTCDate() === 1 && next.getUTCHours() === 0 && next.getUTCMinutes() === 0;
}

/**
 * Any ISO 8601 / RFC 3339 date-time with a zone (`Z` or an offset), with or without fractional seconds: what we accept
 * where we only read what the service sends (webhook deliveries). assumed: the spec fixes the millisecond
 * form for playtime requests only, so a receiver must not refuse a signed delivery over `...:00Z`; and reading is liberal
 * (RFC 3339's lower-case `t`/`z`, a leap second), while a field that fails is only left out of the typed event, never
 * the delivery.
 */
export const DateTime: Rule<string> = { type: 'string', test: isDateTime, message: 'must be an ISO 8601 date-time' };
