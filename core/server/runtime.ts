/**
 * Where this code runs. The single place core reads platform globals (through `globalThis`, by name):
 * `CampaignServer` must refuse to start inside a game client, where its Server key would ship to players; the
 * relay must not merge requests on a Worker, where a request waiting for another's work is cancelled, nor the
 * webhook receiver's `waitFor` wait for a delivery on a Worker that cannot answer one request from another's work.
 */

/** The game-client runtime detected, or undefined on a server runtime (Node, Bun, Deno, edge workers). */
export function detectClientRuntime(): 'browser' | 'cocos' | 'react-native' | undefined {
  const g = globalThis as Record<string, unknown>;
  const nav = unpolluted(g, 'navigator') as Record<string, unknown> | undefined;
  if (unpolluted(nav, 'product') === 'ReactNative') return 'react-native';
  const cc = unpolluted(g, 'cc');
  if (typeof cc === 'object' && cc !== null) return 'cocos';
  if (typeof unpolluted(g, 'window') === 'object' && typeof unpolluted(g, 'document') === 'object') return 'browser';
  // A browser's web or service worker (no window): browsers give workers importScripts; of the edge runtimes only
  // workerd did (a Worker dated before 2024-03-04, `no_importscripts`), and it is a server.
  if (typeof g['importScripts'] === 'function' && !isWorkerd(g)) return 'browser';
  return undefined;
}

/**
 * `target[name]`, or undefined where that is only what a polluted `Object.prototype` holds: `globalThis` and plain
 * objects inherit from it on every runtime, and `{"__proto__":{"cc":{}}}` merged by another package of a game server
 * (or `window` with `document`, `navigator`, `product`) made `new CampaignServer` refuse to start as if in a game
 * client. Not "own fields only": a browser's `navigator.product` is on `Navigator.prototype`, a worker's
 * `importScripts` on `WorkerGlobalScope.prototype`.
 */
function unpolluted(target: Record<string, unknown> | undefined, name: string): unknown {
  const value = target?.[name];
  const inherited = (Object.prototype as Record<string, unknown>)[name];
  return value !== undefined && value === inherited && !Object.prototype.hasOwnProperty.call(target, name) ? undefined : value;
}

/**
 * Cloudflare Workers' runtime: its `WebSocketPair` global exists at every compatibility date (Node, Bun and Deno have
 * none); its `navigator.userAgent` is `Cloudflare-Workers`, but only from 2022-03-21 (`global_navigator`).
 */
function isWorkerd(g: Record<string, unknown>): boolean {
  const nav = unpolluted(g, 'navigator') as Record<string, unknown> | undefined;
  return typeof g['WebSocketPair'] === 'function' || unpolluted(nav, 'userAgent') === 'Cloudflare-Workers';
}

/**
 * True on a Cloudflare Worker (workerd), at any compatibility date. There a request whose answer waits for another
 * request's I/O, with no I/O or timer of its own pending, is cancelled once the isolate's event loop is idle
 * (workerd's bare 500 "the Workers runtime canceled this request because it detected that your Worker's code had
 * hung"), also from 2024-10-14, when settling it from the other request became possible: the relay does not merge
 * requests there.
 */
export function isCloudflareWorker(): boolean {
  return isWorkerd(globalThis as Record<string, unknown>);
}

/**
 * True on a Cloudflare Worker (workerd) whose compatibility date is before 2024-10-14: there a promise one request
 * made cannot be settled from another request's work (workerd answers the waiting request with a bare 500), so the
 * webhook receiver's `waitFor` cannot wait for a delivery (the relay merges on no Worker at all:
 * {@link isCloudflareWorker}). Read from a change of the same date that code can see: `upper_case_all_http_methods` (workerd's compatibility-date.capnp dates it
 * 2024-10-14 beside `handle_cross_request_promise_resolution`), after which `patch` becomes `PATCH` (the Fetch
 * standard upper-cases only DELETE, GET, HEAD, OPTIONS, POST and PUT; older Workers throw). Only read on workerd
 * ({@link isWorkerd}: not by its user agent alone, which a Worker dated before 2022-03-21 lacks; its `waitFor` would
 * wait for a delivery that could never settle it).
 */
export function crossRequestPromisesUnsupported(): boolean {
  const g = globalThis as Record<string, unknown>;
  if (!isWorkerd(g) || typeof g['Request'] !== 'function') return false;
  try {
    return new Request('https://relay.invalid/', { method: 'patch' }).method !== 'PATCH';
  } catch {
    // Before that date workerd refuses the lower-case name outright ("Invalid HTTP method string: patch").
    return true;
  }
}
