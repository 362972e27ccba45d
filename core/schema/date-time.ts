/**
 * The date-time rule of what the SDK only reads (webhook deliveries): server code, so kept out of the rule table
 * (`rules.ts`), which game clients carry; built on the table's {@link isIsoMillis}.
 */
import { isIsoMillis, type Rule } from './rules.js';

/**
 * True for an RFC 3339 date-time (section 5.6) with any zone: `Z` or an offset from -23:59 to +23:59, any fraction of a
 * second, `T` and `Z` in either case, whose date and time exist (by {@link isIsoMillis}, the rule the relay's
 * one-pass `timestampTime` equals). Not `Date.parse`, which depends on the runtime: V8 and JavaScriptCore read
 * `2024-02-30` as March 1 and `24:00:00` as the next midnight, and the fields a receiver typed could differ by runtime.
 */
export function isDateTime(value: string): boolean {
  const parts = /^(\d{4}-\d\d-\d\d)[Tt](\d\d:\d\d:\d\d)(\.\d+)?([Zz]|[+-]([01]\d|2[0-3]):[0-5]\d)$/.exec(value);
  return !!parts && isIsoMillis(`${parts[1]}T${parts[2]}.000Z`);
}

/**
 * Any ISO 8601 / RFC 3339 date-time with a zone (`Z` or an offset), with or without fractional seconds: what we accept
 * where we only read what the service sends (webhook deliveries). assumed: the spec fixes the millisecond
 * form for playtime requests only, so a receiver must not refuse a signed delivery over `...:00Z`; and reading is liberal
 * (RFC 3339's lower-case `t`/`z`), while a field that fails is only left out of the typed event, never the delivery.
 */
export const DateTime: Rule<string> = { type: 'string', test: isDateTime, message: 'must be an ISO 8601 date-time' };
