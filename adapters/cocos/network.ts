/**
 * Connectivity on Cocos builds. `sys.getNetworkType()` is hard-coded on web and mini-games and has no change
 * event, so the web build reads `navigator.onLine` and its events, the WeChat build `wx.getNetworkType` and
 * `wx.onNetworkStatusChange` (./wechat.ts); native builds report nothing (the tracker then simply tries). Both go
 * through ../shared/watched-network.ts, so the host listeners are attached only while the tracker listens.
 * Native's `sys.getNetworkType()` is live but not an offline signal: on Android it answers NONE for any active network
 * that is not mobile or Wi-Fi (Ethernet, a VPN) and when the app lacks ACCESS_NETWORK_STATE (cocos-engine
 * native/cocos/platform/android/java/src/com/cocos/lib/CocosHelper.java `getNetworkType`), where trusting it would
 * send nothing at all.
 */
import type { NetworkStatus } from '../../core/platform.js';
import { watchedNetwork } from '../shared/watched-network.js';
import type { WechatApi } from './types.js';

type Target = { addEventListener(type: string, listener: () => void): void; removeEventListener(type: string, listener: () => void): void };

/**
 * The page's `navigator.onLine`, read when first used and on each `online`/`offline` event of `window` (the
 * browser changes the value before it fires the event). assumed, as the browser adapter: `false` is trusted, `true`
 * only means "maybe" (a captive portal says online too), so a failed flush backs off as usual.
 */
export function browserNetwork(window: Target, navigator: { onLine?: boolean }): NetworkStatus {
  return watchedNetwork((update) => {
    const listener = () => update(navigator.onLine !== false);
    const each = (method: 'addEventListener' | 'removeEventListener') => {
      window[method]('online', listener);
      window[method]('offline', listener);
    };
    listener();
    each('addEventListener');
    return () => each('removeEventListener');
  });
}

/**
 * WeChat's network state: assumed online until `wx.getNetworkType` answers, then kept by one
 * `wx.onNetworkStatusChange` listener, removed with `wx.offNetworkStatusChange` when the last listener leaves (the
 * tracker's `dispose()`). Its code (./wechat.ts) is imported on first use, so the state stays "online" a moment longer.
 */
export function wechatNetwork(wx: WechatApi): NetworkStatus {
  return watchedNetwork((update) => {
    const watching = import('./wechat.js').then((wechat) => wechat.watchWechatNetwork(wx, update));
    return () => void watching.then((unwatch) => unwatch());
  });
}
