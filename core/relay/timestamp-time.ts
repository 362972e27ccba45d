/**
 * A session's timestamps read once on the relay: the `Timestamp` rule (`isIsoMillis`) and the instant it names
 * (`Date.parse`) in one pass over the 24 characters (the date part once per day a batch holds: see `lastDate`). The rule's regular expression and `Date.parse`, run for
 * the check and again for the plausibility rules, were the largest part of the relay's per-session work. Game
 * clients keep the rule's own short form; a property test proves this one agrees with it to the millisecond.
 */

const DAY_MS = 86_400_000;

/**
 * The date part (`YYYY-MM-DD`) last read, and its midnight in ms since the epoch: the sessions of a batch fall on a
 * day or two, so most timestamps are read by their time of day alone (a third of this function's cost over a
 * 1000-session batch). Only a valid date is kept, so a string whose date is these same 10 characters is valid there.
 */
let lastDate = '';
let lastDateMs = 0;

/**
 * The instant of a `YYYY-MM-DDTHH:mm:ss.sssZ` timestamp that names a real one, in ms since the epoch; NaN for
 * anything else. Equal to `isIsoMillis(value) ? Date.parse(value) : NaN` for every string.
 */
export function timestampTime(value: string): number {
  if (value.length !== 24) return NaN;
  // T : : . Z
  if (value.charCodeAt(10) !== 0x54 || value.charCodeAt(13) !== 0x3a || value.charCodeAt(16) !== 0x3a || value.charCodeAt(19) !== 0x2e || value.charCodeAt(23) !== 0x5a) return NaN;
  const hour = twoDigits(value, 11);
  const minute = twoDigits(value, 14);
  const second = twoDigits(value, 17);
  const centiseconds = twoDigits(value, 20);
  const lastDigit = value.charCodeAt(22) - 0x30;
  // A field holding a non-digit is -1, which fails its comparison here.
  if (!(hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0 && second <= 59 && centiseconds >= 0 && lastDigit >= 0 && lastDigit <= 9)) return NaN;
  const timeMs = ((hour * 60 + minute) * 60 + second) * 1000 + centiseconds * 10 + lastDigit;
  // lastDate is '' before the first valid date: startsWith('') would be true for every string.
  if (lastDate !== '' && value.startsWith(lastDate)) return lastDateMs + timeMs;
  // - -
  if (value.charCodeAt(4) !== 0x2d || value.charCodeAt(7) !== 0x2d) return NaN;
  const century = twoDigits(value, 0);
  const yearOfCentury = twoDigits(value, 2);
  const month = twoDigits(value, 5);
  const day = twoDigits(value, 8);
  const year = century * 100 + yearOfCentury;
  if (!(century >= 0 && yearOfCentury >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month))) return NaN;
  lastDate = value.slice(0, 10);
  lastDateMs = daysFromCivil(year, month, day) * DAY_MS;
  return lastDateMs + timeMs;
}

/** The number written by the two ASCII digits at `start`, or -1 when one of them is not a digit. */
function twoDigits(value: string, start: number): number {
  const tens = value.charCodeAt(start) - 0x30;
  const ones = value.charCodeAt(start + 1) - 0x30;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : -1;
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
