/**
 * A session's timestamps read once on the relay: the `Timestamp` rule (`isIsoMillis`) and the instant it names
 * (`Date.parse`) in one pass over the 24 characters (the date part once per day a batch holds: see `lastDate`). The
 * rule's regular expression and `Date.parse`, run for the check and again for the plausibility rules, were the largest
 * part of the relay's per-session work. Game clients keep the rule's own short form; a property test proves this one
 * agrees with it to the millisecond. And written back ({@link timestampText}) when the relay moves a session.
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

/** The first and last instants of years 0000-9999, the years `toISOString` writes with 4 digits. */
const FIRST_MS = -62_167_219_200_000;
const LAST_MS = 253_402_300_799_999;

/** The day (days since the epoch) last written, and its `YYYY-MM-DDT`. */
let writtenDay = NaN;
let writtenDayText = '';

/**
 * `new Date(ms).toISOString()`, written from the day's text (kept, as {@link timestampTime} keeps its date) and the
 * time of day: the relay moves every session of a batch from a device whose clock is off (`sentAt`), and
 * `toISOString` was most of that batch's cost (about 0.35 µs a call; this one about 0.05). Anything but a whole number
 * of ms in years 0000-9999 is left to `toISOString` itself (an expanded year, and its RangeError for NaN).
 */
export function timestampText(ms: number): string {
  if (!(ms >= FIRST_MS && ms <= LAST_MS) || !Number.isInteger(ms)) return new Date(ms).toISOString();
  const day = Math.floor(ms / DAY_MS);
  if (day !== writtenDay) {
    writtenDayText = new Date(day * DAY_MS).toISOString().slice(0, 11);
    writtenDay = day;
  }
  let rest = ms - day * DAY_MS;
  const hour = Math.floor(rest / 3_600_000);
  rest -= hour * 3_600_000;
  const minute = Math.floor(rest / 60_000);
  rest -= minute * 60_000;
  const second = Math.floor(rest / 1000);
  const millis = rest - second * 1000;
  return `${writtenDayText}${twoDigitText(hour)}:${twoDigitText(minute)}:${twoDigitText(second)}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}

function twoDigitText(n: number): string {
  return n < 10 ? `0${n}` : `${n}`;
}
