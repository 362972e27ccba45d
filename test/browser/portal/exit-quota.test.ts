/**
 * A game that sends its own analytics as its page is left: Chromium gives a document's keepalive requests (fetch
 * `keepalive` and `sendBeacon` alike) 64 KiB of bodies in flight in all (`kKeepaliveInflightBytesQuota` in blink's
 * third_party/blink/renderer/platform/loader/fetch/resource_fetcher.cc; the Fetch spec's "inflight keepalive bytes" of
 * a fetch group), and refuses a body past what is left, whole (the fetch rejects a task later, `TypeError: Failed to
 * fetch`, too late for a page being closed to try again). The SDK counts only its own bodies. The game's beacons here
 * leave 370 B: room for the exit body of the session just played (about 260 B), not for that of two sessions (about 470 B).
 * The portal player never comes back, so the exit must send what fits.
 */
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../../helpers/chromium.js';
import { closeTab, embedAgain, endLevel, endPlay, expectFlushAnswers, expectPlayTime, gameLog, openPortal, playFor, pressPlay, removeGame, untilCount } from './portal-player.js';
import { portalWorld } from './portal-world.js';

/** The game's beacons at `pagehide`, before the SDK's exit: 6 keepalive fetches, 64 KiB less 370 B. */
const BEACONS = { count: 6, bytes: 10_861 } as const;

describe.runIf(chromiumAvailable())('portal play in Chromium: a game whose own exit beacons fill the keepalive quota', { timeout: 120_000 }, () => {
  const world = portalWorld({ alpha: { exitBeacons: BEACONS } });

  it.each(['the tab closed', 'the portal removes the game’s iframe'] as const)(
    '%s after a level ended but not yet sent and another played, the game’s beacons leaving room for one session: the session just played arrives in that exit with its full play time; the next visit sends the other, each recorded once',
    async (how) => {
      const alpha = world.sites.games['alpha']!;
      const player = how === 'the tab closed' ? 'beacons-closed' : 'beacons-removed';
      const tab = await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player });
      const first = await pressPlay(tab.game);
      await playFor(tab.page, 1_600);
      await endLevel(tab.game); // queued; the game's flush is due in 30 s
      const second = await pressPlay(tab.game);
      await playFor(tab.page, 2_600);
      const beaconBytes = alpha.beaconBytes;
      const played = await endPlay(second, () => (how === 'the tab closed' ? closeTab(world.chromium.context, tab.page) : removeGame(tab.page)));

      // No page of the game runs any more: only the exit can bring the session just played.
      await untilCount(() => alpha.recorded(player).length, 1);
      await untilCount(() => alpha.beaconBytes - beaconBytes, BEACONS.count * BEACONS.bytes); // the game's own beacons all went
      const [session] = alpha.recorded(player);
      expect(session!.sessionId).toBe(second.sessionId);
      expectPlayTime(session!.durationSeconds, played);
      expect(alpha.received).not.toContain(first.sessionId); // its body did not fit what was left

      // The level the exit could not carry waits in storage: the next visit sends it, and finds the other sent already.
      const next = how === 'the tab closed' ? await openPortal(world.chromium.context, world.sites, { portal: 'portal', game: 'alpha', player }) : await embedAgain(tab.page, world.sites, { game: 'alpha', player });
      await expectFlushAnswers(next, [`${first.sessionId} SUCCESS`, `${second.sessionId} SKIPPED`]);
      expect((await gameLog(next.page, 'alpha')).filter((message) => message.type === 'error' || message.type === 'thrown' || message.type === 'dropped')).toEqual([]);
      expect(alpha.recorded(player).map((recorded) => recorded.sessionId).sort()).toEqual([first.sessionId, second.sessionId].sort());
      await closeTab(world.chromium.context, next.page);
    }
  );
});
