/**
 * The browser's web view (`Platform.openWebView`): an iframe overlay over the game (default) or a new window.
 * It closes when the player presses its close button, when the page posts the close message, or on `close()`.
 * The platform imports this module when a web view first opens (after PKCE and the token request), so pages
 * that never open one never load it.
 * @see DESIGN sections 4 and 7
 */
import type { WebViewHandle } from '../../core/platform.js';

import type { BrowserWebViewOptions } from './webview-options.js';

export type { BrowserWebViewOptions };

// The constants of ./webview-options.ts (which documents them), repeated rather than imported: a value import of
// that file from this lazily loaded one makes bundlers split it into a chunk the entry loads at start-up.
// test/adapters/browser/webview.test.ts proves both copies equal.
/** What the web view page posts to be closed: the public `WEBVIEW_CLOSE_MESSAGE` of ./webview-options.ts. */
export const WEBVIEW_CLOSE_MESSAGE = 'game-campaign:close';
/** The iframe's sandbox: `WEBVIEW_SANDBOX` of ./webview-options.ts. */
export const WEBVIEW_SANDBOX = 'allow-scripts allow-same-origin';

/** The window the web view is opened from (injectable for tests). */
export type WebViewWindow = Pick<Window, 'document' | 'open' | 'addEventListener' | 'removeEventListener'>;

/**
 * Creates `openWebView` for `window`.
 * @example
 * ```ts
 * const openWebView = createBrowserWebView(window, { mode: 'window' });
 * const handle = await openWebView('https://campaign.example/webview?ott=…');
 * await handle.closed;
 * ```
 */
export function createBrowserWebView(window: WebViewWindow, options: BrowserWebViewOptions = {}): (url: string, open?: { title?: string }) => Promise<WebViewHandle> {
  return async (url, open = {}) => {
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const cleanUps: Array<() => void> = [];
    const finish = () => {
      for (const cleanUp of cleanUps.splice(0)) cleanUp();
      close();
    };
    if (options.mode === 'window') {
      const popup = window.open('', '_blank', 'popup,width=480,height=720');
      if (!popup) throw new Error('The browser blocked the web view window: open it from a click or tap handler');
      popup.opener = null; // the page cannot reach or navigate the game
      popup.location.href = url;
      // A window the game does not own can only be watched (the page cannot message a game it has no opener to).
      const watch = setInterval(() => popup.closed && finish(), 250);
      cleanUps.push(() => clearInterval(watch), () => popup.closed || popup.close());
    } else {
      const { document } = window;
      const overlay = document.createElement('div');
      overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;background:#000b';
      const frame = document.createElement('iframe');
      frame.src = url;
      frame.title = open.title ?? 'Campaign';
      frame.setAttribute('sandbox', WEBVIEW_SANDBOX);
      frame.referrerPolicy = 'no-referrer';
      frame.style.cssText = 'width:100%;height:100%;border:0';
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = '×';
      button.setAttribute('aria-label', 'Close');
      button.style.cssText = 'position:absolute;top:8px;right:8px;font:24px/1 sans-serif;padding:4px 10px;border:0;border-radius:6px';
      button.onclick = finish;
      overlay.append(frame, button);
      (options.container ?? document.body).append(overlay);
      const origin = new URL(url, document.baseURI).origin;
      const onMessage = (event: MessageEvent) => {
        if (event.source && event.source === frame.contentWindow && event.origin === origin && event.data?.type === WEBVIEW_CLOSE_MESSAGE) finish();
      };
      window.addEventListener('message', onMessage);
      cleanUps.push(() => window.removeEventListener('message', onMessage), () => overlay.remove());
    }
    return { closed, close: finish };
  };
}
