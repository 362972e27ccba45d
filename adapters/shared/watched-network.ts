/**
 * Connectivity from a host's own change events (a page's `online`/`offline`, WeChat's `wx.onNetworkStatusChange`,
 * NetInfo): online until the host says otherwise; the host listener is attached on first use and removed when our
 * last listener leaves (attached again on the next use).
 */
import type { NetworkStatus } from '../../core/platform.js';

/**
 * `watch(update)` subscribes to the host (it may call `update` at once with what the host knows now) and returns
 * its unsubscribe function.
 */
export function watchedNetwork(watch: (update: (online: boolean) => void) => () => void): NetworkStatus {
  let online = true;
  let unwatch: (() => void) | undefined;
  const listeners = new Set<(online: boolean) => void>();
  const attach = () => {
    unwatch ??= watch((next) => {
      if (next === online) return;
      online = next;
      for (const listener of [...listeners]) listener(next);
    });
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
        // Only the call that removed the last listener detaches: a second call of the same function finds nothing.
        if (listeners.delete(listener) && !listeners.size) {
          unwatch!();
          unwatch = undefined;
        }
      };
    },
  };
}
