/**
 * The browser's {@link NetworkStatus} (`navigator.onLine` and the `online`/`offline` events) and its fetch:
 * the page's own `fetch` with `keepalive` passed through, under the quota browsers share between keepalive bodies.
 * @see DESIGN section 4
 */
import type { FetchLike, NetworkStatus } from '../../core/platform.js';
import { withKeepaliveQuota } from '../../core/tracker/keepalive-quota.js';

/**
 * Connectivity as the browser reports it. assumed: `navigator.onLine === false` is trusted (no request can
 * leave), while `true` only means "maybe" (a captive portal says online too): a failed flush backs off as usual.
 * @example
 * ```ts
 * const network = createBrowserNetwork({ window, navigator });
 * network.onChange((online) => console.log(online ? 'back online' : 'offline'));
 * ```
 */
export function createBrowserNetwork(target: { window: Pick<Window, 'addEventListener' | 'removeEventListener'>; navigator: Pick<Navigator, 'onLine'> }): NetworkStatus {
  const { window, navigator } = target;
  return {
    isOnline: () => navigator.onLine !== false,
    onChange(listener) {
      const online = () => listener(true);
      const offline = () => listener(false);
      window.addEventListener('online', online);
      window.addEventListener('offline', offline);
      return () => {
        window.removeEventListener('online', online);
        window.removeEventListener('offline', offline);
      };
    },
  };
}

/**
 * The page's fetch with keepalive requests kept under the shared 64 KiB quota (`withKeepaliveQuota`). Pass it
 * bound to its window: an unbound `fetch` throws "Illegal invocation".
 */
export function createBrowserFetch(fetch: FetchLike): FetchLike {
  return withKeepaliveQuota(fetch);
}
