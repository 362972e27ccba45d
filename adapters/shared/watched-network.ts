/**
 * Connectivity from a host's own change events (a page's `online`/`offline`, WeChat's `wx.onNetworkStatusChange`,
 * NetInfo): online until the host says otherwise; the host listener is attached with our first listener and removed
 * when our last listener leaves (attached again with the next). A read with no listener asks the host and lets go.
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
  /** Lets go of the host; what it said is forgotten (online until it says otherwise, at the next attach). */
  const detach = () => {
    unwatch?.();
    unwatch = undefined;
    online = true;
  };
  return {
    isOnline() {
      if (listeners.size) return online;
      // Nobody listens: ask the host (NetInfo answers at once) and let go, so a read never leaves a subscription
      // behind (a flush finishing after its tracker was disposed used to).
      attach();
      const now = online;
      detach();
      return now;
    },
    onChange(listener) {
      attach();
      listeners.add(listener);
      return () => {
        // Only the call that removed the last listener detaches: a second call of the same function finds nothing.
        if (listeners.delete(listener) && !listeners.size) detach();
      };
    },
  };
}
