/**
 * A stored value that can never be read again: its text no longer parses (a power loss or a full disk cut a
 * write short on a text store: localStorage, Cocos' `sys.localStorage`, React Native's AsyncStorage, whose
 * `get` is a `JSON.parse`). Unlike a storage call that failed (a lost IndexedDB connection, a busy disk), trying
 * again gives the same error, so the tracker sets the value aside and reports it once (`error`, kind `storage`)
 * instead of meeting it at every flush and start-up. assumed: setting aside is deleting: the storage interface
 * hands back parsed values only, so the damaged text cannot be moved, and no SDK can read it anyway.
 * @see DESIGN section 5; docs/guides/tracker.md ("Storage that fails")
 */

/** Whether a failed read means the stored value itself is damaged (the `SyntaxError` of `JSON.parse`). */
export const isUnreadable = (error: unknown): boolean => (error as { name?: unknown } | undefined)?.name === 'SyntaxError';
