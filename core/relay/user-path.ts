/**
 * A player id the service's paths cannot carry. `PUT /v1/server/sponsors/user/{userId}` names the player in its path,
 * where `.` and `..` resolve to another endpoint, a lone surrogate cannot be written (`path` refuses them) and a very
 * long id makes a request line servers refuse (431 or 414, which the relay would answer as a 503 the client retries
 * forever). The id comes from the game's own `authenticate`, not from the client: a 400 would blame a player who sent
 * nothing wrong.
 * @see docs/decisions.md ("A player id no path can carry", "A player id too long for a path")
 */
import { isCampaignError } from '../http/errors.js';
import { path } from '../http/environment.js';
import { errorResponse } from './answers.js';

/**
 * The longest userId, percent-encoded, the relay puts in a path. assumed: 8000 characters, so the request line
 * (`PUT /v1/server/sponsors/user/{userId} HTTP/1.1`, with a base URL's path) fits nginx's default 8 KiB
 * `large_client_header_buffers`, the smallest common limit (Node's `maxHeaderSize` is 16 KiB).
 */
export const MAX_PATH_USER_CHARS = 8000;

/**
 * 500 `INTERNAL_ERROR` naming the game's `authenticate` when `userId` cannot be a path parameter; undefined when it
 * can. assumed: the game server's fault, not the player's, so neither a 400 nor a 503 the client would retry.
 */
export function unusablePathUser(userId: string): Response | undefined {
  let why: string | undefined;
  try {
    const { length } = path`${userId}`;
    if (length <= MAX_PATH_USER_CHARS) return undefined;
    why = `it is ${length} characters percent-encoded, over ${MAX_PATH_USER_CHARS}`;
  } catch (error) {
    why = isCampaignError(error) ? error.details?.[0]?.message : undefined;
  }
  const message = `The game's authenticate returned a userId the service's path cannot carry${why ? ` (${why})` : ''}: this route cannot serve the player`;
  return errorResponse(500, 'INTERNAL_ERROR', message);
}
