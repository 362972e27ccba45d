/**
 * A session as the two trackers' requests carried it, comparable: JSON with every object's keys sorted, since the two
 * trackers may write a session's fields in another order (cs-runner.test.ts, generated.test.ts).
 */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_, v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v));
