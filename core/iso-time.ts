/** `ms` (since the epoch) as `YYYY-MM-DDTHH:mm:ss.sssZ`; undefined for a value that is no time (a broken clock). */
export function isoTime(ms: number): string | undefined {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
