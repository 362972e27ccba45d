/**
 * Connectivity from a host's own change events (WeChat's `wx.onNetworkStatusChange`, NetInfo): online until the
 * host says otherwise; the host listener is attached on first use and, where the host can remove it, removed
 * when our last listener leaves.
 */
import type { NetworkStatus } from '../../core/platform.js';

/** `watch(update)` subscribes to the host and may return its unsubscribe function. */
export function watchedNetwork(watch: (update: (online: boolean) => void) => (() => void) | void): NetworkStatus {
  let online = true;
  let attached = false;
  let unwatch: (() => void) | void;
  const listeners = new Set<(online: boolean) => void>();
  const update = (next: boolean) => {
    if (next === online) return;
    online = next;
    for (const listener of [...listeners]) listener(online);
  };
  const attach = () => {
    if (!attached) {
      attached = true;
      unwatch = watch(update);
    }
  };
  return {
    isOnline() {
      attach();
      return online;
    },
    onChange(listener) {
      attach();
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && unwatch) {
          unwatch();
          unwatch = undefined;
          attached = false;
        }
      };
    },
  };
}
