/**
 * A game whose origin's storage is full (QuotaExceededError: a device short of disk, or an origin whose quota other
 * data of the site used up), played on the game's own site (first party: Chromium's DevTools quota override,
 * `Storage.overrideQuotaForOrigin`, reaches an origin's own storage, not a partition under a portal). Every write of
 * the game's IndexedDB then aborts; the SDK keeps its sessions in memory, so a level's flush and the tab's exit
 * request must still bring them, each recorded once with its full play time.
 */
import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { chromiumAvailable } from "../../helpers/chromium.js";
import type { GameMessage } from "./portal-pages.js";
import {
  ARRIVAL,
  closeTab,
  endLevel,
  endPlay,
  expectPlayTime,
  flushNow,
  playFor,
  pressPlay,
  untilCount,
} from "./portal-player.js";
import { portalWorld } from "./portal-world.js";

/** What the game's page logged (its own `window.log`: here it is the top page, its own parent). */
const pageLog = (page: Page) =>
  page.evaluate(() => (window as unknown as { log: GameMessage[] }).log);

// Both: on *.test (plain http) the cross-tab lease lives in the same full IndexedDB; on *.localhost, Web Locks.
describe.runIf(chromiumAvailable()).each(["test", "localhost"] as const)(
  "a game whose storage is full, in Chromium (*.%s)",
  { timeout: 60_000 },
  (domain) => {
    const world = portalWorld({ alpha: {} }, domain);

    it("a level played and flushed, then a session ended by the tab closed: both recorded once with their full play time, the full storage reported", async () => {
      const alpha = world.sites.games["alpha"]!;
      const player = `full-${domain}`;
      const page = await world.chromium.context.newPage();
      // The origin full before the game loads: 1 byte of quota, so every write is refused. (Set once the game's database
      // has taken writes, Chromium 150 kept the room it had found for it and took further writes.)
      const cdp = await world.chromium.context.newCDPSession(page);
      await cdp.send("Storage.overrideQuotaForOrigin", {
        origin: world.sites.origin("cdn"),
        quotaSize: 1,
      });
      await page.goto(world.sites.gameUrl("alpha", player));
      await page.waitForFunction(() =>
        (window as unknown as { log: GameMessage[] }).log.some(
          (message) => message.type === "ready"
        )
      );
      const refused = await page.evaluate(
        () =>
          new Promise<string>((resolve) => {
            const open = indexedDB.open("quota-probe", 1);
            open.onupgradeneeded = () => open.result.createObjectStore("probe");
            open.onsuccess = () => {
              const tx = open.result.transaction("probe", "readwrite");
              tx.objectStore("probe").put("x".repeat(10_000), "k");
              tx.oncomplete = () => resolve("written");
              tx.onabort = () => resolve(String(tx.error?.name));
            };
          })
      );
      expect(refused).toBe("QuotaExceededError");

      const game = page.mainFrame();
      const level = await pressPlay(game);
      await playFor(page, 1_600);
      const levelPlayed = await endPlay(level, () => endLevel(game));
      await flushNow(game);
      await untilCount(() => alpha.recorded(player).length, 1);

      const playing = await pressPlay(game);
      await playFor(page, 2_600);
      const log = await pageLog(page);
      const played = await endPlay(playing, () =>
        closeTab(world.chromium.context, page)
      );
      await untilCount(() => alpha.recorded(player).length, 2);
      const recorded = alpha.recorded(player);
      expectPlayTime(
        recorded.find((session) => session.sessionId === level.sessionId)!
          .durationSeconds,
        levelPlayed
      );
      expectPlayTime(
        recorded.find((session) => session.sessionId === playing.sessionId)!
          .durationSeconds,
        played
      );
      // Told as the storage problem it is, nothing thrown or dropped (the exit's own last writes are refused as well).
      const errors = log
        .filter((message) => message.type === "error")
        .map((message) => message.detail);
      expect(errors.length).toBeGreaterThan(0);
      expect(new Set(errors)).toEqual(new Set(["storage: QuotaExceededError"]));
      expect(
        log.filter(
          (message) => message.type === "thrown" || message.type === "dropped"
        )
      ).toEqual([]);
    });
  }
);
