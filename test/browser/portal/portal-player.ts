/**
 * What a player does on a portal, for the stories: open a portal's page with a game, press Play, play for a
 * while (real time: leaving is about real pages going away), and leave by closing the tab. Arrival at the
 * service is awaited by polling, never timed.
 */
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { GameMessage } from './portal-pages.js';
import type { PortalSites, Site } from './portal-sites.js';

/** How long a story waits for something to arrive at a service (generous: a shared 2-core machine). */
export const ARRIVAL = { timeout: 20_000, interval: 200 } as const;

/** A portal tab with the game's frame in it. */
export interface PortalTab {
  page: Page;
  game: Frame;
}

/**
 * Opens `portal`'s page playing `game` for `player` (in a new tab, or in `page`; sandboxed if `sandbox`; the portal
 * page sent with `Cross-Origin-Opener-Policy: <coop>` if `coop`), once the game's SDK is ready.
 */
export async function openPortal(
  context: BrowserContext,
  sites: PortalSites,
  where: { portal: Site; game: string; player: string; sandbox?: string; coop?: string },
  page?: Page
): Promise<PortalTab> {
  page ??= await context.newPage();
  await page.goto(sites.portalUrl(where.portal, where.game, where.player, where.sandbox, where.coop));
  await page.waitForFunction(
    (game) => (window as unknown as { fromGame: GameMessage[] }).fromGame.some((message) => message.game === game && message.type === 'ready'),
    where.game
  );
  const gameUrl = `${sites.origin('cdn')}/${where.game}/`;
  const game = page.frames().find((frame) => frame.url().startsWith(gameUrl));
  if (!game) throw new Error(`no frame of ${gameUrl} in ${page.url()}`);
  return { page, game };
}

/**
 * The portal removes the game's iframe, the tab staying open: a single-page portal moving on to another game of its
 * list. Chromium unloads the frame's document (`pagehide`), then destroys it.
 */
export async function removeGame(page: Page): Promise<void> {
  await page.evaluate(() => document.getElementById('game')!.remove());
}

/** The portal embeds `game` again in its page, without a reload (the player picks it again); resolves once its SDK is ready. */
export async function embedAgain(page: Page, sites: PortalSites, where: { game: string; player: string }): Promise<PortalTab> {
  const gameUrl = sites.gameUrl(where.game, where.player);
  const ready = await page.evaluate(
    ({ game, url }) => {
      const log = (window as unknown as { fromGame: GameMessage[] }).fromGame;
      const frame = document.body.appendChild(document.createElement('iframe'));
      frame.id = 'game';
      frame.src = url;
      return log.filter((message) => message.game === game && message.type === 'ready').length;
    },
    { game: where.game, url: gameUrl }
  );
  await page.waitForFunction(
    ({ game, ready }) => (window as unknown as { fromGame: GameMessage[] }).fromGame.filter((message) => message.game === game && message.type === 'ready').length > ready,
    { game: where.game, ready }
  );
  const game = page.frames().find((frame) => frame.url() === gameUrl);
  if (!game) throw new Error(`no frame of ${gameUrl} in ${page.url()}`);
  return { page, game };
}

/** A session being played: its id, and the test's clock just before Play was pressed and just after it started. */
export interface Playing {
  sessionId: string;
  pressedAt: number;
  startedAt: number;
}

/**
 * The real time a session was played, bracketed by the test's clock around its start and its end (so no delay
 * of the machine can make a right duration look wrong): at least `minMs`, at most `maxMs`.
 */
export interface PlayTime {
  minMs: number;
  maxMs: number;
}

/** The player presses Play. */
export async function pressPlay(game: Frame): Promise<Playing> {
  const pressedAt = Date.now();
  const sessionId = await game.evaluate(() => (window as unknown as { play(): string }).play());
  return { sessionId, pressedAt, startedAt: Date.now() };
}

/** Ends the play with `end` (the tab closed, a navigation, a level end) and tells how long it really lasted. */
export async function endPlay(playing: Pick<Playing, 'pressedAt' | 'startedAt'>, end: () => Promise<unknown>): Promise<PlayTime> {
  const endFrom = Date.now();
  await end();
  return { minMs: endFrom - playing.startedAt, maxMs: Date.now() - playing.pressedAt };
}

/** The game ends its session (a level ends); resolves when the session is ended and queued. */
export async function endLevel(game: Frame): Promise<void> {
  await game.evaluate(() => (window as unknown as { endLevel(): Promise<void> }).endLevel());
}

/** The player plays (or waits) `ms` of real time. */
export function playFor(page: Page, ms: number): Promise<void> {
  return page.waitForTimeout(ms);
}

/** What the game told its portal page so far (from `game` only, when given). */
export async function gameLog(page: Page, game?: string): Promise<GameMessage[]> {
  const log = await page.evaluate(() => (window as unknown as { fromGame: GameMessage[] }).fromGame);
  return game ? log.filter((message) => message.game === game) : log;
}

/** The player closes the tab: as the tab strip's close button does (no beforeunload prompt), or as `Target.closeTarget` does. */
export async function closeTab(context: BrowserContext, page: Page, how: 'page.close' | 'Target.closeTarget' = 'page.close'): Promise<void> {
  if (how === 'page.close') return page.close({ runBeforeUnload: false });
  const cdp = await context.newCDPSession(page);
  const { targetInfo } = await cdp.send('Target.getTargetInfo');
  const closed = page.waitForEvent('close');
  await cdp.send('Target.closeTarget', { targetId: targetInfo.targetId });
  await closed;
}

/** Waits until `count()` reaches `expected`, polling (never a fixed delay). */
export async function untilCount(count: () => number, expected: number): Promise<void> {
  await expect.poll(count, ARRIVAL).toBe(expected);
}

/** Asserts a recorded duration is the real play time, within the 1 s `durationSeconds` rounds down. */
export function expectPlayTime(durationSeconds: number, played: PlayTime): void {
  const what = `recorded ${durationSeconds} s for ${played.minMs}..${played.maxMs} ms of play`;
  expect(durationSeconds, what).toBeGreaterThan(played.minMs / 1000 - 1);
  expect(durationSeconds, what).toBeLessThanOrEqual(played.maxMs / 1000);
}

/**
 * The game's renderer crashes (CDP `Page.crash` in the game's cross-site frame): no event runs in the game, so
 * what it stored is all that is left. Playwright then counts the whole tab as crashed, so the tab is closed.
 */
export async function crashGame(context: BrowserContext, tab: PortalTab): Promise<void> {
  const crashed = tab.page.waitForEvent('crash');
  const cdp = await context.newCDPSession(tab.game);
  // The renderer dies before it can answer.
  void cdp.send('Page.crash').catch(() => undefined);
  await crashed;
  await tab.page.close();
}

/**
 * The player comes back (`goBack`) to a portal page left to the back/forward cache while the game played; resolves
 * once the game's frame is restored from the cache (its `pageshow` persisted, not a reload) and plays on in a new
 * session the game started itself (the player did not press Play again): that session's id, and the test's clock
 * bracketing its start (at the earliest before the return, at the latest once the game told it).
 */
export async function playOnAfterReturn(page: Page): Promise<{ continuationId: string; continuation: Pick<Playing, 'pressedAt' | 'startedAt'> }> {
  const pressedAt = Date.now();
  await page.goBack({ waitUntil: 'commit' });
  await expect.poll(() => gameLog(page), ARRIVAL).toEqual(expect.arrayContaining([{ game: 'alpha', type: 'pageshow', detail: true }]));
  const starts = async () => (await gameLog(page, 'alpha')).filter((message) => message.type === 'session:start');
  await expect.poll(async () => (await starts()).length, ARRIVAL).toBe(2);
  const continuation = { pressedAt, startedAt: Date.now() };
  const { sessionId: continuationId } = (await starts())[1]!.detail as { sessionId: string };
  return { continuationId, continuation };
}

/** The game sends what it has queued (as a game may at a level end), and resolves once that flush settled. */
export async function flushNow(game: Frame): Promise<void> {
  await game.evaluate(() => (window as unknown as { gc: { tracker: { flush(): Promise<void> } } }).gc.tracker.flush());
}

/**
 * Flushes `tab`'s game until the answers its flushes were given (`<sessionId> <status>`, sorted: sessions sent in one
 * batch have no order) are `expected`: a next visit sending what earlier pages left stored.
 */
export async function expectFlushAnswers(tab: PortalTab, expected: string[]): Promise<void> {
  const flushed = async () =>
    (await gameLog(tab.page, 'alpha'))
      .filter((message) => message.type === 'flushed')
      .flatMap((message) => message.detail as string[])
      .sort();
  await expect
    .poll(async () => {
      await flushNow(tab.game);
      return flushed();
    }, ARRIVAL)
    .toEqual([...expected].sort());
}

/** The player plays a level of `ms` to its end, and the game sends it: the session and how long it was played. */
export async function playALevel(tab: PortalTab, ms: number): Promise<{ sessionId: string; played: PlayTime }> {
  const playing = await pressPlay(tab.game);
  await playFor(tab.page, ms);
  const played = await endPlay(playing, () => endLevel(tab.game));
  await flushNow(tab.game);
  return { sessionId: playing.sessionId, played };
}
