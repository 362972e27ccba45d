/**
 * The monotonic clock of a WeChat mini-game. WeChat offers no steady clock: Cocos's WeChat adapter replaces
 * `performance` with `{ now: Date.now }` (cocos-engine platforms/minigame/platforms/wechat/wrapper/builtin/
 * WindowProperties.js:15-17, set on `GameGlobal` by its index.js), and `wx.getPerformance().now()` is documented
 * only as "the current time as a timestamp in microseconds" (developers.weixin.qq.com/minigame/dev/api/base/
 * performance/Performance.now.html; milliseconds in the developer tool, a known bug by WeChat's staff in its community,
 * developers.weixin.qq.com/community/develop/doc/0002663263caf0809e385307a5b400), which WeChat's own Unity adapter
 * replaces with `Date.now()` on phones (wechat-miniprogram/minigame-unity-webgl-transform Design/HighPreciseTime.md,
 * `clientPerfAdapter`: outside profiling builds). So this clock adds up the steps of
 * `Date.now()` itself, read every second in the foreground, and refuses a step the game cannot have run through:
 * one backwards (the clock set back) or longer than `MAX_STEP_MS` (set forward). A step across a background
 * (`EVENT_HIDE` to the first read after `EVENT_SHOW`, whichever of the tracker and this clock reads first) is taken
 * whole: WeChat stops a hidden game's JS 5 s into the background and runs its callbacks on the return
 * (developers.weixin.qq.com/miniprogram/dev/framework/runtime/operating-mechanism.html, "挂起"), so the background's
 * length is only seen there, and the tracker's background time-out depends on it.
 * assumed: a clock moved while the game is in the background moves that background's length (not play time); and a
 * foreground in which no timer ran for `MAX_STEP_MS` (a frozen game) counts none of that span.
 * @see docs/guides/cocos.md, "The clock on WeChat"
 */
import type { CocosModules } from './types.js';

/** How often the clock reads `Date.now()` in the foreground, ms. */
const TICK_MS = 1_000;
/** The longest step taken in the foreground, ms: ten ticks (a frame or a load may block the timers a while). */
const MAX_STEP_MS = 10_000;

/** Each game's clock: an SDK created again (a scene reload, `game.restart()`) takes it, adding no timer or listener. */
const clocks = new WeakMap<object, () => number>();

/**
 * A steady clock in ms from `Date.now()`, told of backgrounds by `game`'s events; it reads every second, for as long
 * as the game runs (one per game, as `performance` is one per runtime).
 */
export function steadyClock(engine: CocosModules): () => number {
  let clock = clocks.get(engine.game);
  if (!clock) clocks.set(engine.game, (clock = newClock(engine)));
  return clock;
}

function newClock({ game, Game }: CocosModules): () => number {
  let last = Date.now();
  let steady = 0;
  let hidden = false;
  /** Hidden since the last read: its step spans a background. */
  let away = false;
  const read = () => {
    const step = Date.now() - last;
    last += step;
    if (step >= 0 && (away || step <= MAX_STEP_MS)) steady += step;
    away = hidden;
    return steady;
  };
  // Read as the game hides: a jump just before it is refused as a foreground step.
  game.on(Game.EVENT_HIDE, () => (read(), (away = hidden = true)));
  game.on(Game.EVENT_SHOW, () => (hidden = false));
  setInterval(read, TICK_MS);
  return read;
}

/**
 * The monotonic clock of a native build: `performance.now()`, which is `std::chrono::steady_clock` (cocos-engine
 * native/cocos/bindings/manual/jsb_global.cpp `js_performance_now`): on Android `CLOCK_MONOTONIC`, stopped while the
 * phone sleeps. So the growth of the wall clock's lead over it across a background (from `hidden(true)` to the first
 * read after `hidden(false)`) is added: a night asleep in the background is not a minute. ./platform.ts's lifecycle
 * calls `hidden` from its game listeners before it tells the tracker, so nothing listens once nobody does.
 * assumed: a clock set forward in the background lengthens that background (never play); one set back adds nothing.
 */
export function nativeClock(): [now: () => number, hidden: (isHidden: boolean) => void] {
  let ahead = Date.now() - performance.now();
  let slept = 0;
  let hidden = false;
  /** Hidden since the last read: the lead's growth since then is the background's. */
  let away = false;
  const read = () => {
    const now = performance.now();
    const lead = Date.now() - now;
    if (away && lead > ahead) slept += lead - ahead;
    ahead = lead;
    away = hidden;
    return now + slept;
  };
  return [read, (isHidden) => (isHidden ? (read(), (away = hidden = true)) : ((hidden = false), read()))];
}
