/**
 * The browser's {@link NetworkStatus}: `navigator.onLine` and the `online`/`offline` events.
 * @see DESIGN section 4
 */
import type { NetworkStatus } from '../../core/platform.js';

/**
 * Connectivity as the browser reports it. assumed: `navigator.onLine === false` is trusted (no request can
 * leave), while `true` only means "maybe" (a captive portal says online too): a failed flush backs off as usual.
 * @example
 * ```ts
 * const network = createBrowserNetwork(window, navigator);
 * network.onChange((online) => console.log(online ? 'back online' : 'offline'));
 * ```
 */
export function createBrowserNetwork(window: Pick<Window, 'addEventListener' | 'removeEventListener'>, navigator: Pick<Navigator, 'onLine'>): NetworkStatus {
  return {
    isOnline: () => navigator.onLine !== false,
    onChange(listener) {
      const changed = (event: Event) => listener(event.type === 'online');
      window.addEventListener('online', changed);
      window.addEventListener('offline', changed);
      return () => {
        window.removeEventListener('online', changed);
        window.removeEventListener('offline', changed);
      };
    },
  };
}
