/**
 * A player id the service's paths cannot carry. `PUT /v1/server/sponsors/user/{userId}` names the player in its path,
 * where `.` and `..` resolve to another endpoint and a lone surrogate cannot be written (`path` refuses them). The id
 * comes from the game's own `authenticate`, not from the client: a 400 would blame a player who sent nothing wrong.
 * @see docs/decisions.md ("A player id no path can carry")
 */
import { isCampaignError } from '../http/errors.js';
import { path } from '../http/environment.js';
import { errorResponse } from './answers.js';

/**
 * 500 `INTERNAL_ERROR` naming the game's `authenticate` when `userId` cannot be a path parameter; undefined when it
 * can. assumed: the game server's fault, not the player's, so neither a 400 nor a 503 the client would retry.
 */
export function unusablePathUser(userId: string): Response | undefined {
  try {
    path`${userId}`;
    return undefined;
  } catch (error) {
    const why = isCampaignError(error) ? error.details?.[0]?.message : undefined;
    const message = `The game's authenticate returned a userId the service's path cannot carry${why ? ` (${why})` : ''}: this route cannot serve the player`;
    return errorResponse(500, 'INTERNAL_ERROR', message);
  }
}
