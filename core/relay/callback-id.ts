/**
 * The `callbackId` the relay forwards for a player. Webhook events carry the `callbackId` of the request that caused
 * them (spec "Callback tracking"), and a game server waits for its events by it (`receiver.waitFor({ callbackId })`):
 * a client's id passed on as it is would let a player cause an event matching an id the game server waits on for its
 * own call (`coupons.redeem({ callbackId: 'order-42' })`) or another player's.
 * @see docs/decisions.md ("`callbackId` through the relay")
 */

/**
 * `relay:<userId's length>:<userId>:<callbackId>`: a client's `callbackId`, bound to the player `authenticate` named.
 * A player can only cause events whose id names themself; the length keeps the split unambiguous whatever the ids
 * hold (`a` with `b:c` is `relay:1:a:b:c`, `a:b` with `c` is `relay:3:a:b:c`). Wait with it for a player's event:
 * `receiver.waitFor({ callbackId: relayCallbackId(userId, 'boost-42') })`.
 * assumed: the spec puts no rule on `callbackId`; the game server's own ids should not begin with `relay:`.
 */
export function relayCallbackId(userId: string, callbackId: string): string {
  return `relay:${userId.length}:${userId}:${callbackId}`;
}

/** `body` with its `callbackId`, when it has one, bound to `userId` by {@link relayCallbackId}. */
export function withPlayerCallbackId<T extends { callbackId?: string | undefined }>(body: T, userId: string): T {
  return body.callbackId === undefined ? body : { ...body, callbackId: relayCallbackId(userId, body.callbackId) };
}
