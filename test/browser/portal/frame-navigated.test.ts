/**
 * The game's frame navigated to another site while the game plays, the portal page staying: the portal shows an ad
 * page of another site in the game's iframe between games (re-pointing its `src`), or the game itself opens its
 * studio's store page in its frame (`location.href`). Chromium unloads the game's document (`pagehide`, not persisted:
 * a frame's document does not enter the back/forward cache on its own) in its own process before the other site's
 * commits, so the session must leave in that exit: recorded once with its full play time, no next visit needed. The
 * game embedded again sends its stored copy, answered SKIPPED.
 */
import { describe, expect, it } from "vitest";
import { chromiumAvailable } from "../../helpers/chromium.js";
import {
  ARRIVAL,
  closeTab,
  embedAgain,
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

describe.runIf(chromiumAvailable())(
  "portal play in Chromium: the game’s frame navigated to another site",
  { timeout: 120_000 },
  () => {
    const world = portalWorld({ alpha: {} });

    it.each([
      "the portal re-points the iframe at an ad page",
      "the game opens its store page in its frame",
    ] as const)(
      "%s while the game plays: the session leaves in that exit, recorded once with its full play time; the game embedded again finds it SKIPPED",
      async (how) => {
        const alpha = world.sites.games["alpha"]!;
        const player = how.startsWith("the portal")
          ? "frame-to-ad"
          : "frame-to-store";
        const elsewhere = `${world.sites.origin("elsewhere")}/`;
        const tab = await openPortal(world.chromium.context, world.sites, {
          portal: "portal",
          game: "alpha",
          player,
        });
        const playing = await pressPlay(tab.game);
        await playFor(tab.page, 2_600);
        const played = await endPlay(playing, async () => {
          if (how.startsWith("the portal"))
            await tab.page.evaluate(
              (url) =>
                void ((
                  document.getElementById("game") as HTMLIFrameElement
                ).src = url),
              elsewhere
            );
          else
            await tab.game.evaluate(
              (url) => void (location.href = url),
              elsewhere
            );
          await expect
            .poll(
              () =>
                tab.page.frames().some((frame) => frame.url() === elsewhere),
              ARRIVAL
            )
            .toBe(true);
        });
        await untilCount(() => alpha.recorded(player).length, 1);
        const [session] = alpha.recorded(player);
        expect(session!.sessionId).toBe(playing.sessionId);
        expectPlayTime(session!.durationSeconds, played);
        expect(await gameLog(tab.page, "alpha")).toEqual(
          expect.arrayContaining([
            { game: "alpha", type: "pagehide", detail: false },
          ])
        );

        await tab.page.evaluate(() =>
          document.getElementById("game")!.remove()
        );
        const again = await embedAgain(tab.page, world.sites, {
          game: "alpha",
          player,
        });
        await expectFlushAnswers(again, [`${playing.sessionId} SKIPPED`]);
        expect(
          (await gameLog(tab.page, "alpha")).filter(
            (message) =>
              message.type === "error" ||
              message.type === "thrown" ||
              message.type === "dropped"
          )
        ).toEqual([]);
        expect(alpha.recorded(player)).toEqual([session]);
        await closeTab(world.chromium.context, tab.page);
      }
    );
  }
);
