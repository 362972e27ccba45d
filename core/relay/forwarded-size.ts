/**
 * The size of what the relay forwards. The relay adds the player's `userId` to a client's body (and binds its
 * `callbackId` to them: ./callback-id.ts), so a body within the relay's own `maxBodyBytes` can be over the service's
 * limit: measured before the call, it is the relay's 413, not the service's refusal mapped to a 503 the client retries.
 * @see docs/decisions.md ("A forwarded body over the service's limit")
 */
import { SERVICE_MAX_BODY_BYTES, utf8Length } from '../schema/json-limits.js';
import { errorResponse } from './answers.js';

/**
 * 413 `BAD_REQUEST` when `upstream`, the body the relay would send, is over the service's limit as JSON; undefined
 * when it fits. assumed: the code of the relay's own 413 (the spec names none), so the client's answer is the same.
 */
export function forwardedTooLarge(upstream: unknown): Response | undefined {
  const size = utf8Length(JSON.stringify(upstream));
  if (size <= SERVICE_MAX_BODY_BYTES) return undefined;
  return errorResponse(413, 'BAD_REQUEST', `The body is ${size} bytes as forwarded with the player's id; the service takes at most ${SERVICE_MAX_BODY_BYTES} bytes`);
}
