/**
 * A game whose origin's storage is full (QuotaExceededError: a device short of disk, or an origin whose quota other
 * data of the site used up), played on the game's own site (first party: Chromium's DevTools quota override,
 * `Storage.overrideQuotaForOrigin`, reaches an origin's own storage, not a partition under a portal). Every write of
 * the game's IndexedDB then aborts; the SDK keeps its sessions in memory, so a level's flush and the tab's exit
 * request must still bring them, each recorded once with its full play time; and once room is freed, what was held is
 * stored, for a next visit to send if the page's own requests were lost.
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
    it("storage full, then freed while the studio's server is down: the level held in memory is stored by the next write storage takes, and the next visit sends both sessions once", async () => {
      const alpha = world.sites.games["alpha"]!;
      const player = `freed-${domain}`;
      const page = await world.chromium.context.newPage();
      const cdp = await world.chromium.context.newCDPSession(page);
      const origin = world.sites.origin("cdn");
      await cdp.send("Storage.overrideQuotaForOrigin", { origin, quotaSize: 1 });
      alpha.front = "down";
      try {
        await page.goto(world.sites.gameUrl("alpha", player));
        await page.waitForFunction(() => (window as unknown as { log: GameMessage[] }).log.some((message) => message.type === "ready"));
        const game = page.mainFrame();
        const level = await pressPlay(game);
        await playFor(page, 1_600);
        const levelPlayed = await endPlay(level, () => endLevel(game)); // refused by storage: held in memory
        await flushNow(game); // the server is down: nothing sent

        // The player frees room (or the quota override ends): the next level's end is stored, and the held one with it.
        await cdp.send("Storage.overrideQuotaForOrigin", { origin });
        const next = await pressPlay(game);
        await playFor(page, 1_600);
        const nextPlayed = await endPlay(next, () => endLevel(game));
        const stored = () =>
          page.evaluate(
            () =>
              new Promise<number>((resolve) => {
                const open = indexedDB.open("game-campaign.ck_alpha"); // the game's own database (its Client key's id)
                open.onsuccess = () => {
                  const request = open.result.transaction("kv").objectStore("kv").getAllKeys();
                  request.onsuccess = () => {
                    open.result.close();
                    resolve(request.result.filter((key) => String(key).includes(":queue:")).length);
                  };
                };
              })
          );
        await expect.poll(stored, ARRIVAL).toBe(2);
        const log = await pageLog(page);
        // The tab closes while the server is still down: its exit request is lost; storage has both.
        await closeTab(world.chromium.context, page);
        expect(alpha.recorded(player)).toEqual([]);

        alpha.front = "relay";
        const again = await world.chromium.context.newPage();
        await again.goto(world.sites.gameUrl("alpha", player));
        await again.waitForFunction(() => (window as unknown as { log: GameMessage[] }).log.some((message) => message.type === "ready"));
        await flushNow(again.mainFrame());
        await untilCount(() => alpha.recorded(player).length, 2);
        const recorded = alpha.recorded(player);
        expectPlayTime(recorded.find((session) => session.sessionId === level.sessionId)!.durationSeconds, levelPlayed);
        expectPlayTime(recorded.find((session) => session.sessionId === next.sessionId)!.durationSeconds, nextPlayed);
        expect(log.filter((message) => message.type === "error").map((message) => message.detail)).toEqual(["storage: QuotaExceededError"]); // once
        expect(log.filter((message) => message.type === "thrown" || message.type === "dropped")).toEqual([]);
        expect((await pageLog(again)).filter((message) => ["error", "thrown", "dropped"].includes(message.type))).toEqual([]);
        await closeTab(world.chromium.context, again);
      } finally {
        alpha.front = "relay";
      }
    });
  }
);
