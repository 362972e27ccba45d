/**
 * Boosts from a game client: the change goes through the game server's relay (`PUT /sponsor`, the relay binds the
 * player and holds the Server key); the current boost is the Client API's boost status read.
 * @see spec "Change boosted creator"; DESIGN sections 3 and 6
 */
import type { ClientSponsors } from '../client/sponsors.js';
import { NotFoundError } from '../http/errors.js';
import { validated } from '../http/request-validation.js';
import { relayCaller, type RelayClient } from '../relay/client-request.js';
import { SPONSOR_ROUTE } from '../relay/routes.js';
import { Id } from '../schema/rules.js';
import type { BoostRecord } from '../schema/sponsors.js';

/** What {@link Boost.change} asks for. */
export interface BoostChangeRequest {
  /** The creator to boost. A key that names no creator is the service's `NotFoundError`. */
  newCreatorKey: string;
  /** The campaign. @defaultValue the project's active campaign */
  campaignId?: string;
  /**
   * Carried by the `sponsor.changed` webhook this change triggers, to match it to the request; the relay binds it to
   * the player (`relay:<userId's length>:<userId>:<callbackId>`: wait with the server entry's `relayCallbackId`).
   */
  callbackId?: string;
  /** Validated as usual, nothing recorded, no cooldown started. @defaultValue false */
  isTest?: boolean;
}

/** The player's boost: `gc.boost`. */
export interface Boost {
  /**
   * Points the player's boost at another creator, or boosts one for a player who has none yet (the relay then creates
   * the boost). Retried only after a 429 (a change is not de-duplicated).
   * @throws BoostCooldownError (`daysRemaining`) inside the 30-day cooldown; NotFoundError for an unknown creator;
   * RelayAuthError when the game's session is refused; ValidationError for an empty key (nothing sent) or a field
   * the relay refuses (with `details`); AbortError when `options.signal` aborts the request or a retry wait
   * @example
   * ```ts
   * const boost = await gc.boost.change({ newCreatorKey: 'LUNA7', callbackId: 'boost-42' });
   * ```
   */
  change(request: BoostChangeRequest, options?: { signal?: AbortSignal }): Promise<BoostRecord>;
  /**
   * The player's current boost (`GET /v1/client/sponsors/user/{userId}`), or undefined when they have none
   * (assumed: the service's 404 for this read, with the spec's error body, means no boost).
   * @beta assumed (DESIGN section 10): the spec names boost status queries without a shape.
   * @throws NotFoundError (message `HTTP 404`) for a 404 without the spec's error body (a proxy's or CDN's page, a
   * framework's `{ "message": "Not Found" }`, a wrong `baseUrl`): not "no boost", which would hide the player's boost
   */
  current(): Promise<BoostRecord | undefined>;
}

/** The boost client of one player. `refused` throws once the facade is disposed: a change then sends nothing. */
export function createBoost(relay: RelayClient, sponsors: ClientSponsors, userId: string, refused: () => unknown): Boost {
  const call = relayCaller(relay);
  return {
    change: async (request, options) =>
      (refused(),
      call({
        method: 'PUT',
        path: SPONSOR_ROUTE,
        answer: 'BoostRecord',
        // The relay checks the rest with the zod schema; the key is checked here so an empty one never leaves.
        body: { ...request, newCreatorKey: validated(Id, request.newCreatorKey, 'newCreatorKey') },
        cooldown: true,
        signal: options?.signal,
      })),
    current: () =>
      sponsors.get(userId).catch((error: unknown) => {
        // Only the service's own 404 (the spec's error body, whose `message` the error carries) says "no boost": a
        // proxy's or CDN's 404 page, a framework's `{ "message": "Not Found" }` or a wrong baseUrl has no `code`, so
        // the error's message is then `HTTP 404` (../http/errors.ts).
        if (error instanceof NotFoundError && error.message != 'HTTP 404') return undefined;
        throw error;
      }),
  };
}
