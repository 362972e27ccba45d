/**
 * A session's timestamps read once on the relay: the `Timestamp` rule (`isIsoMillis`) and the instant it names
 * (`Date.parse`) in one pass over the 24 characters. The rule's regular expression and `Date.parse`, run for
 * the check and again for the plausibility rules, were the largest part of the relay's per-session work. Game
 * clients keep the rule's own short form; a property test proves this one agrees with it to the millisecond.
 */

const DAY_MS = 86_400_000;

/**
 * The instant of a `YYYY-MM-DDTHH:mm:ss.sssZ` timestamp that names a real one, in ms since the epoch; NaN for
 * anything else. Equal to `isIsoMillis(value) ? Date.parse(value) : NaN` for every string.
 */
export function timestampTime(value: string): number {
  if (value.length !== 24) return NaN;
  // - - T : : . Z
  if (value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d || value.charCodeAt(10) !== 0x54) return NaN;
  if (value.charCodeAt(13) !== 0x3a || value.charCodeAt(16) !== 0x3a || value.charCodeAt(19) !== 0x2e || value.charCodeAt(23) !== 0x5a) return NaN;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  const millis = digits(value, 20, 3);
  // A field holding a non-digit is NaN, which fails its comparison here.
  if (!(year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 && second <= 59 && millis >= 0)) return NaN;
  return daysFromCivil(year, month, day) * DAY_MS + ((hour * 60 + minute) * 60 + second) * 1000 + millis;
}

/** The number written by `length` ASCII digits from `start`, or NaN when one of them is not a digit. */
function digits(value: string, start: number, length: number): number {
  let n = 0;
  for (let i = start; i < start + length; i++) {
    const digit = value.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return NaN;
    n = n * 10 + digit;
  }
  return n;
}

/** Days of `month` (1-12) in `year` of the proleptic Gregorian calendar, as `Date` counts them (year 0 is leap). */
function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`), for years 0-9999. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
