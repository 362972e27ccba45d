/**
 * Where the order of delivered sessions is defined, and where not (test/contract/FORMAT.md, "Checks"): sessions
 * recovered in one start-up are queued in the order their running records are listed, which names them by their
 * random session ids (core/tracker/housekeeping.ts `recoverCrashedSessions`; C#: RunningStore's file names), so
 * they reach the relay, in one request or more, in an order neither tracker defines. Every other session keeps
 * the queue's order (oldest first), which both trackers define and a scenario checks. The `dropped` reasons of one
 * start-up's recovered sessions are matched the same way (expectations.ts; scenario kill-recovered-two-drops.json).
 */

/** A delivered session and the start-up that recovered it (`undefined`: not recovered, its order is defined). */
export interface Delivered<T> {
  item: T;
  recovery?: number;
}

/**
 * The list in its defined order only: the sessions of each recovery, at the places they took, sorted by `key`.
 * Two trackers that delivered the same sessions in a defined order give the same list whatever their ids drew.
 */
export function inDefinedOrder<T>(delivered: readonly Delivered<T>[], key: (item: T) => string): T[] {
  const result = delivered.map(({ item }) => item);
  for (const recovery of new Set(delivered.map((entry) => entry.recovery))) {
    if (recovery === undefined) continue;
    const places = delivered.flatMap((entry, index) => (entry.recovery === recovery ? [index] : []));
    const sorted = places.map((index) => result[index]!).sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
    places.forEach((index, at) => (result[index] = sorted[at]!));
  }
  return result;
}

/**
 * Whether `expected` (one entry per delivered session) matches `delivered` in its defined order: an entry at a
 * session not recovered matches that session; the entries at one recovery's places match its sessions in some order.
 */
export function matchesInDefinedOrder<E, T>(expected: readonly E[], delivered: readonly Delivered<T>[], matches: (entry: E, item: T) => boolean): boolean {
  if (expected.length !== delivered.length) return false;
  const groups = new Map<number | undefined, number[]>();
  delivered.forEach(({ recovery }, index) => {
    if (recovery === undefined) groups.set(undefined, [...(groups.get(undefined) ?? []), index]);
    else groups.set(recovery, [...(groups.get(recovery) ?? []), index]);
  });
  if (!(groups.get(undefined) ?? []).every((index) => matches(expected[index]!, delivered[index]!.item))) return false;
  for (const [recovery, places] of groups) if (recovery !== undefined && !pairs(places.map((i) => expected[i]!), places.map((i) => delivered[i]!.item), matches)) return false;
  return true;
}

/** Whether every entry can be paired with a distinct item it matches (a recovery holds a few sessions: a plain search). */
function pairs<E, T>(entries: E[], items: T[], matches: (entry: E, item: T) => boolean, taken = new Set<number>()): boolean {
  if (taken.size === entries.length) return true;
  const entry = entries[taken.size]!;
  return items.some((item, index) => {
    if (taken.has(index) || !matches(entry, item)) return false;
    taken.add(index);
    if (pairs(entries, items, matches, taken)) return true;
    taken.delete(index);
    return false;
  });
}
