/** `ms` (since the epoch) as `YYYY-MM-DDTHH:mm:ss.sssZ`; undefined for a value that is no time (a broken clock). */
export function isoTime(ms: number): string | undefined {
  try {
    return new Date(ms).toISOString();
  } catch {
    // `toISOString` throws a RangeError for an invalid date: NaN, or beyond the 100,000,000 days either side of 1970.
    return undefined;
  }
}
