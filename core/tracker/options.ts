/**
 * Options of the playtime tracker, their defaults, and the checks that turn a bad argument into a clear
 * error at the call that passed it.
 * @see DESIGN section 5
 */
import { invalid, validatedFields } from '../http/request-validation.js';
import type { Platform } from '../platform.js';
import type { RelayTarget } from '../relay/sender.js';
import { CreatorKey, Flag, Id, Metadata, optional, PositiveInt, TimerMs, type Rule } from '../schema/rules.js';

/** Options of `new PlaytimeTracker(options)`. */
export interface PlaytimeTrackerOptions {
  /** The runtime: storage, lifecycle, crypto, fetch (from an adapter, or `createMemoryPlatform()` in tests). */
  platform: Platform;
  /** The player; every session is recorded for this user. */
  userId: string;
  /** The game server's relay, which holds the Server key. */
  relay: RelayTarget;
  /** Default `campaignId` of every session (without one the service attributes it to the active campaign sponsor). */
  campaignId?: string;
  /** Default `creatorKey` of every session: exactly 5 uppercase letters or digits. */
  creatorKey?: string;
  /** Send with `isTest: true`: validated as usual, recorded nowhere. */
  isTest?: boolean;
  /** Flush this often while in the foreground, ms. @defaultValue 30000 */
  flushIntervalMs?: number;
  /** Flush as soon as this many sessions are queued. @defaultValue 100 */
  flushAt?: number;
  /** Queue cap; beyond it the oldest session is dropped (`dropped`, reason `overflow`). @defaultValue 10000 */
  maxQueue?: number;
  /** Checkpoint the running session this often, ms: what a crash may lose at most. @defaultValue 15000 */
  checkpointMs?: number;
  /** A longer stay in the background ends the session (at the moment it went there), ms. @defaultValue 60000 */
  backgroundTimeoutMs?: number;
  /**
   * Prefix of every storage key and lock name; an explicit one keeps exactly that layout. @defaultValue
   * 'game-campaign'; `createGameCampaign` uses the game's own, `game-campaign.<CLIENT_KEY_ID>` (assumed: the Client
   * key's id is the game's identity), and moves what was stored under 'game-campaign' into it at first start
   */
  storageKey?: string;
  /**
   * Whether recording is off for a player who has made no choice on this device yet (e.g. `true` until the
   * game has the player's consent); a choice made with `tracker.setOptOut()` is stored and wins. @defaultValue false
   */
  optOut?: boolean;
}

/** Options of `tracker.start()`: each overrides the tracker's default for this session. */
export interface StartSessionOptions {
  campaignId?: string;
  /** Exactly 5 uppercase letters or digits. */
  creatorKey?: string;
  /** Stored and sent with the session as its JSON, taken at `start()` (a value JSON cannot carry, such as a BigInt or a cycle, throws). */
  metadata?: Record<string, unknown>;
}

/** The defaults DESIGN section 5 gives. */
export const TRACKER_DEFAULTS = {
  flushIntervalMs: 30_000,
  flushAt: 100,
  maxQueue: 10_000,
  checkpointMs: 15_000,
  backgroundTimeoutMs: 60_000,
  storageKey: 'game-campaign',
} as const;

/** Options with every default filled in. */
export type ResolvedTrackerOptions = PlaytimeTrackerOptions & Required<Pick<PlaytimeTrackerOptions, keyof typeof TRACKER_DEFAULTS>>;

// Field by field with the spec's rule table (no zod: game client bundles carry none). Built per call, not at
// module level: bundlers keep module-level calls, so a bundle with only the client reads would carry them.
/**
 * The relay's mount URL: the routes are appended to it (`{url}/playtime/sessions`), so after a query or fragment they
 * would reach none. An absolute http(s) URL, or a path from the root (`/campaign`) where there is a page on http(s)
 * whose address fetch resolves it against (a browser; not React Native, Cocos native or a server). Anything else
 * (`game.example/campaign`, `ftp://`, `./campaign`) was sent against the page's own folder or failed at every send.
 * The scheme in any case (`HTTPS://`), as URLs and the C# package's check read it.
 */
const RelayUrl: Rule<string> = {
  type: 'string',
  test: (value) => /^(https?:\/)?\/[^?#]*$/i.test(value),
  message: 'must be https://… or /path with no query or fragment',
};

const sessionDefaults = () => ({ campaignId: optional(Id), creatorKey: optional(CreatorKey) });

/**
 * The options with defaults applied.
 * @throws ValidationError for a bad userId, relay url, creatorKey, campaignId or number
 */
export function resolveTrackerOptions(options: PlaytimeTrackerOptions): ResolvedTrackerOptions {
  const resolved = { ...TRACKER_DEFAULTS, ...definedOnly(options || {}) } as ResolvedTrackerOptions;
  const p = PositiveInt;
  const settings = { platform: Metadata, userId: Id, flushIntervalMs: TimerMs, flushAt: p, maxQueue: p, checkpointMs: TimerMs, backgroundTimeoutMs: TimerMs, storageKey: Id, optOut: optional(Flag), ...sessionDefaults() };
  validatedFields(settings, resolved, 'options');
  validatedFields({ url: RelayUrl }, { ...resolved.relay }, 'options.relay');
  return resolved;
}

/**
 * Checks the options of one `start()`, and takes the metadata as its JSON now: that is what is stored and sent,
 * so metadata JSON cannot carry (a BigInt, a cycle, a throwing `toJSON`) is refused here rather than failing every
 * queue write and flush later, and a later change to the game's object does not reach the session.
 * @throws ValidationError naming the bad field (a bad argument is a programming error, not a dropped session)
 */
export function checkStartOptions(options: StartSessionOptions): StartSessionOptions {
  const checked = validatedFields({ ...sessionDefaults(), metadata: optional(Metadata) }, options, 'start');
  if (checked.metadata === undefined) return checked;
  try {
    return { ...checked, metadata: JSON.parse(JSON.stringify(checked.metadata)) };
  } catch (error) {
    return invalid([{ path: 'start.metadata', message: `must be JSON-serialisable (${error})` }]);
  }
}

/** `value` without its undefined fields (so they neither override defaults nor reach the wire as absent keys). */
export function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
