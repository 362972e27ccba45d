/**
 * `Platform.openWebView` on Cocos: the game's `WebView` component on web, iOS and Android; `sys.openURL`
 * (the system browser) when the game gave no component factory; a typed refusal on mini-games, where
 * `sys.openURL` silently does nothing.
 */
import type { WebViewHandle } from '../../core/platform.js';
import { WebViewUnavailableError } from '../shared/errors.js';
import { webViewHandle } from '../shared/web-view-handle.js';
import type { CocosRuntime, CocosSys, CocosWebViewFactory } from './types.js';

/**
 * The URL scheme a page uses to close the web view on native (`location.href = 'gamecampaign://close'`).
 * assumed: the scheme name; on web the component is an iframe and closes through the handle only.
 */
export const WEBVIEW_CLOSE_SCHEME = 'gamecampaign';

/** The `openWebView` of a Cocos build. */
export function cocosOpenWebView(runtime: CocosRuntime, sys: CocosSys, factory: CocosWebViewFactory | undefined): (url: string) => Promise<WebViewHandle> {
  return async (url) => {
    if (runtime === 'wechat') throw new WebViewUnavailableError('WeChat mini-games cannot show a web view');
    if (!factory) {
      sys.openURL(url);
      // assumed: an external browser cannot be watched, so `closed` settles on close() only.
      return webViewHandle();
    }
    const view = factory(url);
    const handle = webViewHandle(() => view.node.destroy());
    view.setJavascriptInterfaceScheme?.(WEBVIEW_CLOSE_SCHEME);
    // The native callback is `(sender, url)` (cc::WebView's ccWebViewCallback): look for the URL among the arguments.
    view.setOnJSCallback?.((...args: unknown[]) => {
      if (args.some((arg) => typeof arg === 'string' && arg.startsWith(`${WEBVIEW_CLOSE_SCHEME}://close`))) handle.close();
    });
    // A page that failed to load is gone for the player: the launcher hears it as closed.
    view.node.on('error', () => handle.close());
    view.url = url;
    return handle;
  };
}
