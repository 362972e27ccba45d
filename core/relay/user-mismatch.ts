/**
 * The relay's answer to a session item whose userId is not the authenticated user's: the item is never forwarded.
 * Apart from the relay's route, since the tracker reads it too (a game client carries this file, not the route).
 * @see ./playtime.ts, ../tracker/flusher.ts
 */

/** The `error` of an item whose userId is not the authenticated user's; such an item is never forwarded. */
export const USER_MISMATCH_ERROR = 'userId does not match the authenticated user';
