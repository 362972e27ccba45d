/**
 * The page exit (DESIGN section 5, "leaving"): where going to the background may be the last event the code gets
 * (a browser page: a hidden tab is closed, discarded or evicted from the back/forward cache without another event),
 * the running session ends there (`hidden`), the queued sessions held in memory go out at once, from within the
 * event handler, and the page shown again continues the session as a new one (`session:start` with `continues`).
 * The platform supplies it (`Lifecycle.pageExit`: the browser adapter, and the memory platform when asked) rather
 * than the tracker importing it: hosts without it (React Native, Cocos) do not carry this code, and Metro keeps
 * every line an entry reaches.
 * @see docs/guides/tracker.md, "A page that is left"
 */
import { gameHeaders } from '../http/game-headers.js';
import type { Platform, TrackerPageExit } from '../platform.js';
import type { RelayTarget } from '../relay/sender.js';
import { KEEPALIVE_BODY_LIMIT, keepaliveSizer, utf8Length, type KeepaliveSizer } from './body-size.js';
import type { Flusher } from './flusher.js';
import type { ResolvedTrackerOptions } from './options.js';
import { presentFrame } from './present-frame.js';
import type { HeldSessions, QueuedSession, SessionQueue } from './queue.js';
import type { RunningStore } from './running-store.js';
import { MIN_SESSION_MS, type SessionClock } from './session-clock.js';

/** What one tracker does through its page exit; each method is called where the tracker says. */
export interface PageExitHooks extends HeldSessions {
  /** The game's relay, its `relay.headers()` function's last answer kept for the exit request. */
  relay: RelayTarget;
  /** The sizing of this player's keepalive bodies, for the exit request and the flushes (./flusher.ts). */
  keepalive: KeepaliveSizer;
  /**
   * Asks `relay.headers()` now, keeping its answer for the exit: a session started (its exit may come soon), and at each
   * of its checkpoints. Asked at the start only, one failed ask (a token fetch on a flaky network) left the whole
   * session's exit without headers, and a long session's exit carried a token from its start, expired by then (401).
   */
  warmHeaders(): void;
  /**
   * The page goes to the background: true when `ending` ends there (`hidden`; its final record stored first, in
   * case the request is lost). Under the 1 s minimum it would be dropped as too short, so it is paused instead
   * (false): a tab switched for a moment continues it as itself.
   */
  leaves(ending: SessionClock, now: number): boolean;
  /**
   * Sends the queued sessions held in memory (the session that just ended among them) in keepalive requests (that
   * session alone, then the rest), calling `fetch` before it returns: no storage read, the headers of the last successful `relay.headers()` call.
   * assumed: nothing is sent while `relay.headers()` has not succeeded yet (sent without the game's credentials it
   * would be refused); storage keeps those sessions for the next flush or visit. `queue` and `flusher` are
   * the tracker's, handed over here because they are made after the page exit (the queue reports to it); `enabled`:
   * whether sending is on (start-up done, the player not opted out).
   */
  send(queue: SessionQueue, flusher: Flusher, enabled: boolean): void;
}

/**
 * The tracker's page exit, for {@link Lifecycle.pageExit}: pass it where going to the background may be the last
 * event the code gets (the browser adapter's lifecycle does).
 * @example
 * ```ts
 * const platform = { ...myPlatform, lifecycle: { ...myPlatform.lifecycle, pageExit } };
 * ```
 */
export const pageExit: TrackerPageExit = startPageExit;

/** How the tracker calls {@link pageExit}: with its platform, options, instance id, running records and clock watch. */
export type StartPageExit = typeof startPageExit;

/** The page exit of one tracker (`instanceId` owns its running records in `running`). */
function startPageExit(platform: Platform, config: ResolvedTrackerOptions, instanceId: string, running: RunningStore, clockMoved: () => number): PageExitHooks {
  const { headers } = config.relay;
  /** The last headers `relay.headers()` resolved to (a function's); static headers are read as they are. */
  let lastHeaders: Record<string, string> | undefined;
  const remembered = typeof headers === 'function' ? async () => (lastHeaders = gameHeaders(await headers())) : undefined;
  /**
   * The sessions this tracker queued, and those its flushes read that are still queued (an earlier visit's, whose
   * flush failed), by key, oldest first, while their JSON totals at most a keepalive body: what a page being left
   * sends without reading storage. Storage still holds them (the source of truth).
   */
  const held = new Map<string, QueuedSession & { bytes: number }>();
  let heldBytes = 0;
  /**
   * The held keys an exit request of this page carries now: another exit (a game's dispose in its own `pagehide` listener,
   * after the SDK's) does not send them again, spending the page's 64 KiB. They stay held until they leave the queue:
   * should the request fail while the page lives on (a tab switch meeting a relay down or the network gone for a
   * moment), the page's next exit, the tab closed later, sends them too rather than leaving them to a next visit.
   */
  const out = new Set<string>();
  const drop = (key: string) => {
    heldBytes -= held.get(key)?.bytes ?? 0;
    held.delete(key);
  };
  const keepalive = keepaliveSizer(config.isTest);
  return {
    relay: remembered ? { ...config.relay, headers: remembered } : config.relay,
    keepalive,
    warmHeaders() {
      if (remembered) remembered().catch(() => undefined); // a failure is reported by the next flush that asks; the last good answer is kept
    },
    hold(item) {
      drop(item.key); // read again by a flush: counted once, as the newest
      const bytes = utf8Length(JSON.stringify(item.session));
      held.set(item.key, { ...item, bytes });
      heldBytes += bytes;
      for (const oldest of held.keys()) {
        if (heldBytes <= KEEPALIVE_BODY_LIMIT) break;
        drop(oldest);
      }
    },
    drop,
    // Only where storage may have lost data (the browser platform's `lost.lost`: an IndexedDB connection was closed under
    // the page, its database deleted by another tab or the site's data cleared; adapters/browser/idb-connection.ts):
    // else another tab of the player sent it, and sending it again would spend a request on an answer of SKIPPED.
    get: (key) => (platform as { lost?: { lost?: 1 } }).lost?.lost && held.get(key)?.session,
    leaves(ending, now) {
      const record = ending.record(instanceId, now);
      // Stored (not awaited) only when it ends here; one expression, 2 B less than an `if` and two returns (p49).
      return record.playedMs >= MIN_SESSION_MS && (void running.save(record), true);
    },
    send(queue, flusher, enabled) {
      const sendHeaders = remembered ? lastHeaders : gameHeaders(headers as Record<string, string> | undefined);
      if (!enabled || !sendHeaders || platform.network?.isOnline() === false) return;
      const moved = clockMoved();
      const nowMs = platform.now();
      const items = [...held.values()].reverse().map((item) => presentFrame(item, moved, nowMs));
      // The newest alone (the session that just ended leads), then the rest: the game's own keepalive requests and beacons
      // share the page's 64 KiB (Chromium counts every keepalive body of the document: kKeepaliveInflightBytesQuota, blink's
      // resource_fetcher.cc), and a body past what they left is refused whole (then sent again as an ordinary request:
      // ./keepalive-quota.ts). Each body is sized against what keepalive requests may still carry once the one before is
      // counted: the rest sized with the newest, as one body, passed the quota by its second envelope when the held
      // sessions filled a body to its last bytes, and Chromium refused it (p60).
      for (const alone of [1, 0]) {
        const [part = []] = keepalive.chunks(items.filter((item) => !out.has(item.key))).chunks;
        if (alone) part.splice(1);
        const keys = part.map((item) => item.key);
        // Only what it sends is marked in flight: a flush running beside it keeps its own marks.
        queue.claim(keys);
        keys.forEach(out.add, out);
        if (keys.length) void flusher.sendAtOnce(part, sendHeaders).finally(() => keys.forEach(out.delete, out));
      }
    },
  };
}
