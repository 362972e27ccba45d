/**
 * The web view address: what a relay's `webviewUrl` must be and what every platform shows (the browser's overlay and
 * window, Cocos's web view, Unity's `Application.OpenURL`, generated into the C# rules). Its own module, not
 * ./rules.ts: the lazily loaded web view code imports it, and a module the entries reach too would become a chunk
 * every game loads at start.
 */

/**
 * An absolute http(s) address. Any other comes from a relay's misconfigured or hostile answer: a `javascript:` one
 * runs in the game's origin, a relative one (resolved against the game's page) opens on the game's own origin, where
 * the iframe's sandbox is void, and `Application.OpenURL` hands a `file:` path or an app's scheme to the system.
 */
export const WEB_PAGE_PATTERN = /^https?:\/\/[^/]/i;
