/**
 * A player with the same game open in two tabs of one portal (a second tab opened from the portal's list) closes
 * both within a second, each playing a session of its own. Each tab's exit request must carry its own session: both
 * recorded once with their full play time without a next visit, and the next visit, finding what both tabs left
 * stored, reports nothing wrong and records nothing more. On *.test the two tabs share the IndexedDB lease.
 */
import { describe, expect, it } from "vitest";
import { chromiumAvailable } from "../../helpers/chromium.js";
import {
  closeTab,
  endPlay,
  expectFlushAnswers,
  expectPlayTime,
  gameLog,
  openPortal,
  playFor,
  pressPlay,
  untilCount,
} from "./portal-player.js";
import { portalWorld } from "./portal-world.js";

describe.runIf(chromiumAvailable()).each(["test", "localhost"] as const)(
  "portal play in Chromium (*.%s): two tabs of one game closed together",
  { timeout: 120_000 },
  (domain) => {
    const world = portalWorld({ alpha: {} }, domain);

    it("both tabs playing, closed half a second apart: each session recorded once with its full play time by its own exit; the next visit adds nothing and reports nothing wrong", async () => {
      const alpha = world.sites.games["alpha"]!;
      const player = `two-tabs-${domain}`;
      const first = await openPortal(world.chromium.context, world.sites, {
        portal: "portal",
        game: "alpha",
        player,
      });
      const second = await openPortal(world.chromium.context, world.sites, {
        portal: "portal",
        game: "alpha",
        player,
      });
      const playingFirst = await pressPlay(first.game);
      const playingSecond = await pressPlay(second.game);
      await playFor(first.page, 2_600);
      const playedFirst = await endPlay(playingFirst, () =>
        closeTab(world.chromium.context, first.page)
      );
      await new Promise((resolve) => setTimeout(resolve, 500)); // the player closes the other tab right after
      const playedSecond = await endPlay(playingSecond, () =>
        closeTab(world.chromium.context, second.page)
      );

      await untilCount(() => alpha.recorded(player).length, 2);
      const recorded = alpha.recorded(player);
      expectPlayTime(
        recorded.find(
          (session) => session.sessionId === playingFirst.sessionId
        )!.durationSeconds,
        playedFirst
      );
      expectPlayTime(
        recorded.find(
          (session) => session.sessionId === playingSecond.sessionId
        )!.durationSeconds,
        playedSecond
      );

      const next = await openPortal(world.chromium.context, world.sites, {
        portal: "portal",
        game: "alpha",
        player,
      });
      // Each closed tab left its session stored (in case its exit request was lost): sent again, both answered SKIPPED.
      await expectFlushAnswers(
        next,
        [playingFirst.sessionId, playingSecond.sessionId].map(
          (id) => `${id} SKIPPED`
        )
      );
      expect(
        (await gameLog(next.page, "alpha")).filter(
          (message) =>
            message.type === "error" ||
            message.type === "thrown" ||
            message.type === "dropped"
        )
      ).toEqual([]);
      await closeTab(world.chromium.context, next.page);
      expect(alpha.recorded(player)).toEqual(recorded);
    });
  }
);
