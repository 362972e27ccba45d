/**
 * Connectivity on Cocos builds. `sys.getNetworkType()` is hard-coded on web and mini-games and has no change
 * event, so the web build reads `navigator.onLine` and its events, the WeChat build `wx.getNetworkType` and
 * `wx.onNetworkStatusChange`; native builds report nothing (the tracker then simply tries).
 */
import type { NetworkStatus } from '../../core/platform.js';
import type { WechatApi } from './types.js';

/** `navigator.onLine` and the window's `online`/`offline` events: the browser adapter's. */
export { createBrowserNetwork as browserNetwork } from '../browser/network.js';

/**
 * WeChat's network state: assumed online until `wx.getNetworkType` answers, then kept by one
 * `wx.onNetworkStatusChange` listener that fans out to ours (attached once, on first use).
 */
export function wechatNetwork(wx: WechatApi): NetworkStatus {
  let online = true;
  let attached = false;
  const listeners = new Set<(online: boolean) => void>();
  const attach = () => {
    if (attached) return;
    attached = true;
    wx.getNetworkType({ success: ({ networkType }) => (online = networkType !== 'none') });
    wx.onNetworkStatusChange(({ isConnected }) => {
      if (isConnected === online) return;
      online = isConnected;
      for (const listener of [...listeners]) listener(online);
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
      return () => void listeners.delete(listener);
    },
  };
}
