/**
 * `Platform.openWebView` on Cocos web and native builds: the game's `WebView` component, or `sys.openURL` (the
 * system browser) when the game gave no component factory. Imported by ./platform.ts when a web view first opens
 * (the launcher has awaited PKCE and a token by then), so a game that never opens one never loads it. WeChat
 * mini-games, where `sys.openURL` silently does nothing, are refused in ./platform.ts and never load it.
 * Nothing here may import a module the entry reaches too (./platform.ts): esbuild would split that module into a chunk of its own, one more file every game loads at start.
 */
import type { WebViewHandle } from '../../core/platform.js';
import { httpPage } from '../shared/http-page.js';
import { webViewHandle } from '../shared/web-view-handle.js';
import type { CocosSys, CocosWebViewFactory } from './types.js';

/** {@link WEBVIEW_CLOSE_SCHEME} of ./platform.ts, spelled again: importing it would put both files in one chunk. */
const CLOSE_SCHEME = 'gamecampaign';

/** Opens `url` in the component `factory` builds, else with `sys.openURL`. */
export function openCocosWebView(url: string, sys: CocosSys, factory: CocosWebViewFactory | undefined): WebViewHandle {
  // On the web the component is an iframe and sys.openURL a window.open: both in the game's origin for a javascript: URL.
  httpPage(url);
  if (!factory) {
    sys.openURL(url);
    // assumed: an external browser cannot be watched, so `closed` settles on close() only.
    return webViewHandle();
  }
  const view = factory(url);
  const handle = webViewHandle(() => view.node.destroy());
  // Native only: on web the component just warns "The platform does not support" (cocos/web-view/web-view-impl-web.ts).
  // The component drops both calls until its node is active in the scene (its implementation is made in `__preload`),
  // so they are made again each time it starts loading a URL (`loading`, from then on; ours once `url` is set below).
  // The native callback is `(sender, url)` (cc::WebView's ccWebViewCallback): look for the URL among the arguments.
  const wire = () => {
    view.setJavascriptInterfaceScheme?.(CLOSE_SCHEME);
    view.setOnJSCallback?.((...args: unknown[]) => {
      if (args.some((arg) => typeof arg === 'string' && arg.startsWith(`${CLOSE_SCHEME}://close`))) handle.close();
    });
  };
  if (sys.isNative) {
    wire();
    view.node.on('loading', wire);
  } else {
    // On web the page's Close posts `{ type: 'game-campaign:close' }` to the game's page (the browser adapter's
    // WEBVIEW_CLOSE_MESSAGE; the emulator's page does). assumed: the component's iframe is not reachable, so any
    // frame of the page's origin may close it. Listened to until it closes. A game sandboxed without
    // allow-same-origin (a portal's iframe) passes its sandbox on to the component's iframe (HTML, "determine the
    // creation sandboxing flags"), so the page posts from the opaque origin 'null', as the game's own origin reads.
    const g = globalThis as Record<string, any>;
    const origin = new URL(url).origin;
    const onMessage = (event: MessageEvent) => (event.origin === origin || event.origin === g['origin']) && event.data?.type === 'game-campaign:close' && handle.close();
    g['addEventListener']?.('message', onMessage);
    void handle.closed.then(() => g['removeEventListener']?.('message', onMessage));
  }
  // A page that failed to load is gone for the player: the launcher hears it as closed.
  view.node.on('error', () => handle.close());
  // So is a node the game destroyed (a scene change, its own close button): NodeEventType.NODE_DESTROYED, emitted by
  // each destroyed node (cocos-engine cocos/scene-graph/node.ts `_onPreDestroy`); `closed` settles, nothing more to destroy.
  view.node.on('node-destroyed', handle.settle);
  view.url = url;
  return handle;
}
