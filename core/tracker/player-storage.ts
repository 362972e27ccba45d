/**
 * Where a tracker keeps its player's sessions: under `{storageKey}:player:{userId}:` (`storageKey` is the game's
 * own from `createGameCampaign`, ./game-namespace.ts; the userId URI-encoded,
 * so it never contains the `:` that ends it). One device may serve several players (a shared tablet, a family
 * console, a guest who then signs in): each player's queue and running records are sent only by a tracker of
 * that player, with that player's credentials. Another player's sessions wait for their own player and expire
 * after the relay's maximum session age (./housekeeping.ts).
 * @see DESIGN section 5; docs/guides/tracker.md ("One device, several players")
 */

/** Every key a tracker stores, for its player and for the others on the device. */
export interface StorageLayout {
  /** `{storageKey}:`: every key begins with it (SDK 0.1.0's shared `queue:` and `running:` keys followed it). */
  root: string;
  /** `{storageKey}:player:`: every player's prefix begins with it. */
  players: string;
  /** The prefix of every key and lock name of `userId`'s data. */
  prefixOf(userId: string): string;
  /** This tracker's player's prefix. */
  own: string;
  /** What follows a player's prefix: the queue's keys, the running records' keys. */
  queue: 'queue:';
  running: 'running:';
}

/** The {@link StorageLayout} of `userId`'s tracker. */
export function storageLayout(storageKey: string, userId: string): StorageLayout {
  const root = `${storageKey}:`;
  const players = `${root}player:`;
  const prefixOf = (id: string) => `${players}${encodeURIComponent(id)}:`;
  return { root, players, prefixOf, own: prefixOf(userId), queue: 'queue:', running: 'running:' };
}
