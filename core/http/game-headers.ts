/**
 * The game's own headers as the SDK sends them. A module of its own, with no imports, so that the page exit
 * (core/tracker/page-exit.ts), which reads them synchronously, shares nothing else with the tracker.
 */

/** Headers in any shape fetch takes them: an object, an array of `[name, value]` pairs, a `Headers` or a `Map`. */
export type HeadersLike = Record<string, string> | Iterable<readonly [string, string]>;

/**
 * `headers` as one object of lower-cased names, without a content-type: ours is the only one, and lower-cased names
 * let the SDK's own (`authorization`, `accept`) replace a game's differently-cased one rather than join it. An array
 * or a `Headers` read by key sent its indexes or methods as header names.
 */
export function gameHeaders(headers: HeadersLike = {}): Record<string, string> {
  const own: Record<string, string> = {};
  // Pairs (an array, a Headers, a Map) have forEach; an object of headers has not. No destructuring: an app's Babel
  // would add its slicedToArray helper.
  for (const pair of (headers as Headers).forEach ? (headers as Iterable<[string, string]>) : Object.entries(headers)) own[pair[0].toLowerCase()] = pair[1];
  delete own['content-type'];
  return own;
}
