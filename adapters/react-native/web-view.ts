/**
 * Web views on React Native: a small host over `react-native-webview` that the app renders once, or
 * `Linking.openURL` (the browser) when there is none.
 */
import type { Platform, WebViewHandle } from '../../core/platform.js';
import { WebViewUnavailableError } from '../shared/errors.js';
import { webViewHandle } from '../shared/web-view-handle.js';
import type { LinkingLike, WebViewOpener } from './types.js';

/**
 * `scheme://host[:port]` of an http(s) URL, lower-cased (the page's URL as the relay wrote it; a navigation's as
 * the web view parsed it), `'null'` for another scheme.
 */
const originOf = (url: string) => String(/^https?:\/\/[^/?#]*/.exec(url.toLowerCase()));

/**
 * The message a page posts to close the web view (`window.ReactNativeWebView.postMessage('close')`; the
 * bridge exists only because the host sets `onMessage`). assumed: the message text.
 */
export const WEBVIEW_CLOSE_MESSAGE = 'close';

/**
 * The few React calls the host uses, so the package imports no React (not even its types). `Element` is what
 * `createElement` returns, inferred from the `React` passed in (`ReactElement` with React's own types), so
 * `Host` is a function component React's types accept: `<webView.Host />` compiles under React 19.
 */
export interface ReactLike<Element = unknown> {
  createElement(type: any, props?: any, ...children: any[]): Element;
  useSyncExternalStore<T>(subscribe: (onChange: () => void) => () => void, getSnapshot: () => T): T;
}

/** What {@link createWebViewHost} returns: pass it as `modules.WebView`, render `Host` once near the root. */
export interface WebViewHost<Element = unknown> extends WebViewOpener {
  /** Renders the open web view over the app (nothing when none is open): a function component. */
  Host(props: { style?: unknown }): Element | null;
}

/** `BackHandler` from `react-native` (0.65+: `addEventListener` returns the subscription). */
export interface BackHandlerLike {
  addEventListener(type: 'hardwareBackPress', handler: () => boolean): { remove(): void };
}

/**
 * A web view host over `react-native-webview`'s `WebView`: `open(url)` shows it, the page's `close`
 * message, a load failure or HTTP error status, `handle.close()`, the last `Host` unmounting or, with `BackHandler`, Android's back button removes it. One
 * web view at a time: opening another closes the first. A link that leaves the page's origin (`target=_blank` ones
 * too) goes to the system browser through `Linking` (not followed without it) and the page stays: on iOS nothing
 * would lead back to it. assumed: the campaign page does not redirect itself to another origin.
 * @throws from `open`: {@link WebViewUnavailableError} while no `Host` is rendered (nothing would show, and the
 * handle would never settle)
 * @example
 * ```tsx
 * import React from 'react';
 * import { BackHandler } from 'react-native';
 * import { WebView } from 'react-native-webview';
 * const webView = createWebViewHost({ React, WebView, BackHandler });
 * const gc = createGameCampaign({ ..., modules: { AsyncStorage, AppState, WebView: webView } });
 * // in App: <><Game /><webView.Host /></>
 * ```
 */
export function createWebViewHost<Element>({ React, WebView, BackHandler, Linking }: { React: ReactLike<Element>; WebView: unknown; BackHandler?: BackHandlerLike; Linking?: LinkingLike }): WebViewHost<Element> {
  // The open web view's handle (a new one for each page opened: what the Host's store reports) and its page.
  let current: WebViewHandle | undefined;
  let page = '';
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    // The last Host unmounted (the game left its screen): the page shows no more and its one-time link is spent, so it
    // is closed (its handle settles, the back button goes to the app again) rather than kept open unseen.
    return () => void (listeners.delete(listener) && !listeners.size && current?.close());
  };
  const fill = { position: 'absolute', top: 0, left: 0, right: 0, bottom: 0 };
  // Opens `url` in the browser (its refusal, no app to open it, is dropped): the web view does not follow it.
  const away = (url: string) => (Linking?.openURL(url).catch(String), false);
  // Only a rendered Host subscribes (React's useSyncExternalStore, once mounted).
  const unavailable = () => (listeners.size ? undefined : new WebViewUnavailableError('createWebViewHost: <webView.Host /> is not rendered'));
  return {
    unavailable,
    async open(url) {
      // Asked again: the Host may have unmounted while the relay made the token (the player left the screen).
      if (!listeners.size) throw unavailable();
      current?.close();
      // Android's back button closes the page (as players expect of an overlay), not the screen or the app under it.
      const back = BackHandler?.addEventListener('hardwareBackPress', () => (handle.close(), true));
      const handle = webViewHandle(() => {
        back?.remove();
        if (current === handle) current = undefined;
        changed();
      });
      current = handle;
      page = url;
      changed();
      return handle;
    },
    Host({ style }) {
      const open = React.useSyncExternalStore(subscribe, () => current);
      if (!open) return null;
      return React.createElement(WebView, {
        source: { uri: page },
        style: style ?? fill,
        onMessage: (event: { nativeEvent: { data: string } }) => event.nativeEvent.data === WEBVIEW_CLOSE_MESSAGE && open.close(),
        // The page failed to load (offline, DNS, TLS): react-native-webview 16.0.0 would show its "Error loading page"
        // view over the game (src/WebViewShared.tsx onLoadingError, defaultRenderError) with no way out on iOS and a
        // `closed` that never settles. Called for the main frame only (apple/RNCWebViewImpl.m didFailProvisionalNavigation;
        // android/.../RNCWebViewClient.java onReceivedError), so it closes, as a Cocos web view's `error` does.
        onError: open.close,
        // An HTTP error status (a proxy's 502, a 404): the server's page has no close message, and no way out on iOS.
        // Main frame only, 400 and up (apple/RNCWebViewImpl.m decidePolicyForNavigationResponse; android/.../
        // RNCWebViewClient.java onReceivedHttpError, `isForMainFrame()`).
        onHttpError: open.close,
        // react-native-webview (16.0.0 src/WebViewShared.tsx createOnShouldStartLoadWithRequest, lines 38-66): asked, and
        // answered at once, for each load its default originWhitelist passes (http, https, about:blank; other schemes it
        // hands to Linking itself), iframes included on iOS (`isTopFrame` false: apple/RNCWebViewImpl.m
        // decidePolicyForNavigationAction, lines 1316-1370). A new window (`target=_blank`) needs no prop: without
        // `onOpenWindow`, iOS loads it in this web view (createWebViewWithConfiguration, lines 382-395), so it comes here,
        // and Android's new WebView has no client (android/.../RNCWebChromeClient.java onCreateWindow, lines 86-112), so
        // Android opens the browser. A top-level about:blank is not followed either.
        onShouldStartLoadWithRequest: (request: { url: string; isTopFrame?: boolean }) =>
          request.isTopFrame === false || originOf(request.url) === originOf(page) || away(request.url),
      });
    },
  };
}

/**
 * The platform's `openWebView`: the host when given, else `Linking.openURL`, else a typed refusal; and its
 * `webViewUnavailable` (the host's `unavailable()`, or, with neither, that refusal), so that `gc.webview.open` refuses
 * before it asks the relay for a token (offline too).
 * @throws TypeError when `webView` has no `open` (the `WebView` component itself)
 */
export function reactNativeWebView(webView: WebViewOpener | undefined, linking: LinkingLike | undefined): Pick<Platform, 'openWebView' | 'webViewUnavailable'> {
  // react-native-webview's own `WebView` given by its name would fail only as a page opens, its one-time token spent.
  if (webView && typeof webView.open !== 'function') throw new TypeError('modules.WebView: pass createWebViewHost({ React, WebView }), not the WebView component');
  // The host's own refusal (no Host rendered) is asked as `gc.webview.open` is called, before the token too.
  const unavailable = () => (webView ? webView.unavailable?.() : linking ? undefined : new WebViewUnavailableError('no web view: pass modules.WebView (createWebViewHost) or modules.Linking'));
  return {
    async openWebView(url) {
      if (webView) return webView.open(url);
      if (!linking) throw unavailable();
      try {
        await linking.openURL(url);
      } catch (error) {
        // Nothing can open the URL, and React Native's message names it ("Could not open URL '…'"): its one-time token
        // and verifier, for a game's crash report to carry. The message drops it.
        throw (((error as Error).message = (error as Error).message.replace(url, '')), error);
      }
      // assumed: the browser cannot be watched, so `closed` settles on close() only.
      return webViewHandle();
    },
    webViewUnavailable: unavailable,
  };
}
