/**
 * The game's own headers without a content-type: ours is the only one. A module of its own, with no imports, so that
 * the page exit (core/tracker/page-exit.ts), which reads them synchronously, shares nothing else with the tracker.
 */

/** `headers` without a content-type: ours is the only one (a game's differently-cased one would be merged into it). */
export function withoutContentType(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}
