/**
 * Connectivity on Cocos builds. `sys.getNetworkType()` is hard-coded on web and mini-games and has no change
 * event, so the web build reads `navigator.onLine` and its events, the WeChat build `wx.getNetworkType` and
 * `wx.onNetworkStatusChange`; native builds report nothing (the tracker then simply tries).
 */
import type { NetworkStatus } from '../../core/platform.js';
import { watchedNetwork } from '../shared/watched-network.js';
import type { WechatApi } from './types.js';

/** `navigator.onLine` and the window's `online`/`offline` events: the browser adapter's. */
export { createBrowserNetwork as browserNetwork } from '../browser/network.js';

/**
 * WeChat's network state: assumed online until `wx.getNetworkType` answers, then kept by one
 * `wx.onNetworkStatusChange` listener, attached on first use and removed with `wx.offNetworkStatusChange`
 * (base library 2.9.3+) when the last listener leaves (the tracker's `dispose()`).
 */
export function wechatNetwork(wx: WechatApi): NetworkStatus {
  return watchedNetwork((update) => {
    const listener = ({ isConnected }: { isConnected: boolean }) => update(isConnected);
    wx.getNetworkType({ success: ({ networkType }) => update(networkType !== 'none') });
    wx.onNetworkStatusChange(listener);
    // The same function object: WeChat removes only the listener it is given.
    return () => wx.offNetworkStatusChange?.(listener);
  });
}
