/**
 * The browser's web view (`Platform.openWebView`): an iframe overlay over the game (default) or a new window.
 * The overlay is a modal dialog in the top layer: its close button sits in a bar above the frame (never over the
 * page's own controls), Escape closes it, the game gets no keys and focus stays inside while it is open, and focus
 * returns to where it was when it closes.
 * It closes when the player presses its close button or Escape, when the page posts the close message, or on
 * `close()`.
 * The platform imports this module when a web view first opens (after PKCE and the token request), so pages
 * that never open one never load it.
 * @see DESIGN sections 4 and 7
 */
import type { WebViewHandle } from '../../core/platform.js';

import { httpPage } from '../shared/http-page.js';
import type { BrowserWebViewOptions } from './webview-options.js';

export type { BrowserWebViewOptions };

// The constants of ./webview-options.ts (which documents them), repeated rather than imported: a value import of
// that file from this lazily loaded one makes bundlers split it into a chunk the entry loads at start-up.
// test/adapters/browser/webview.test.ts proves both copies equal.
/** What the web view page posts to be closed: the public `WEBVIEW_CLOSE_MESSAGE` of ./webview-options.ts. */
export const WEBVIEW_CLOSE_MESSAGE = 'game-campaign:close';
/** The iframe's sandbox: `WEBVIEW_SANDBOX` of ./webview-options.ts. */
export const WEBVIEW_SANDBOX = 'allow-scripts allow-same-origin';

/** The key events the overlay keeps from the game while it is open. */
const KEY_EVENTS = ['keydown', 'keyup', 'keypress'];

/** The window the web view is opened from (injectable for tests). */
export type WebViewWindow = Pick<Window, 'document' | 'open' | 'addEventListener' | 'removeEventListener'> & { crossOriginIsolated?: boolean; origin?: string };

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
    httpPage(url);
    let close!: () => void;
    const closed = new Promise<void>((resolve) => (close = resolve));
    const cleanUps: Array<() => void> = [];
    const finish = () => {
      for (const cleanUp of cleanUps.splice(0)) cleanUp();
      close();
    };
    if (options.mode === 'window') {
      // Opened at its address, not blank then navigated: a game frame under a page with Cross-Origin-Opener-Policy
      // same-origin gets no handle (HTML, "the rules for choosing a navigable": noopener for a cross-origin frame),
      // and a blank window would stay open, empty, out of reach.
      const popup = window.open(url, '_blank', 'popup,width=480,height=720');
      // A frame sandboxed without allow-popups (a portal's iframe) blocks it even from a click: say every cause.
      if (!popup) throw new Error('The browser blocked the web view window or gave no handle to it: open it from a click; a sandboxed iframe needs allow-popups allow-popups-to-escape-sandbox; under Cross-Origin-Opener-Policy: same-origin it is out of reach. Use the overlay');
      popup.opener = null; // the page cannot reach or navigate the game (cleared before its navigation commits)
      // A window the game does not own can only be watched (the page cannot message a game it has no opener to).
      const watch = setInterval(() => popup.closed && finish(), 250);
      cleanUps.push(() => clearInterval(watch), () => popup.closed || popup.close());
    } else {
      const { document } = window;
      // A modal dialog: a bar with the close control ABOVE the frame, never over the page (whose own controls,
      // such as a Close button top right, stay where the page put them and stay clickable).
      // A <dialog> shown modal goes to the browser's top layer: over a fullscreen canvas, over whatever z-index the
      // game gives its elements, and sized by the viewport even in a transformed body. Where showModal is missing
      // (Safari before 15.4) it is a fixed box at the highest z-index, as before.
      const overlay = document.createElement('dialog');
      overlay.setAttribute('role', 'dialog');
      overlay.setAttribute('aria-modal', 'true');
      overlay.setAttribute('aria-label', open.title ?? 'Campaign');
      overlay.style.cssText = 'position:fixed;inset:0;z-index:2147483647;display:flex;flex-direction:column;width:auto;height:auto;max-width:none;max-height:none;margin:0;padding:0;border:0;background:#000';
      const bar = document.createElement('div');
      bar.style.cssText = 'display:flex;justify-content:flex-end;padding:4px;background:#222';
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = '×';
      button.setAttribute('aria-label', 'Close');
      // Its own colours: a game's reset CSS (`* { all: unset }`) would leave the game's text colour on the dark bar.
      button.style.cssText = 'font:24px/1 sans-serif;padding:4px 12px;border:0;border-radius:6px;color:#fff;background:#444;cursor:pointer';
      button.onclick = finish;
      bar.append(button);
      const frame = document.createElement('iframe');
      frame.src = url;
      frame.title = open.title ?? 'Campaign';
      frame.setAttribute('sandbox', WEBVIEW_SANDBOX);
      frame.referrerPolicy = 'no-referrer';
      // A cross-origin isolated game (COEP, as Unity WebGL with threads and Godot 4 need) blocks a frame from an
      // origin that does not opt in, as the campaign page does not: a credentialless frame loads it (its token is
      // in its address; its cookies and storage last as long as the frame).
      if (window.crossOriginIsolated) frame.setAttribute('credentialless', '');
      frame.style.cssText = 'flex:1;width:100%;border:0;background:#fff';
      // Tab past either end lands on a sentinel that sends focus round to the other end (after the frame's last
      // control there may be nothing focusable in the game's document, and focus would leave the page).
      const wrapTo = (target: HTMLElement) => {
        const sentinel = document.createElement('span');
        sentinel.tabIndex = 0;
        sentinel.onfocus = () => target.focus();
        return sentinel;
      };
      overlay.append(wrapTo(frame), bar, frame, wrapTo(button));
      // Focus goes to the close control, stays in the dialog while it is open, and returns where it was.
      const before = document.activeElement as HTMLElement | null;
      (options.container ?? document.body).append(overlay);
      overlay.showModal?.();
      button.focus();
      const origin = new URL(url, document.baseURI).origin;
      // A game sandboxed without allow-same-origin (a portal's iframe) passes its sandbox on to the frame (HTML,
      // "determine the creation sandboxing flags"), so the page's origin is opaque like the game's: 'null' both.
      const onMessage = (event: MessageEvent) => {
        if (event.source && event.source === frame.contentWindow && (event.origin === origin || event.origin === window.origin) && event.data?.type === WEBVIEW_CLOSE_MESSAGE) finish();
      };
      // Escape while focus is in the game's document (the bar); inside the frame, keys go to the page, which
      // closes by posting the close message. Keys pressed in the dialog are not the game's: they stop here, before
      // the game's own listeners, and Enter or Space on the close control closes it itself, since a game that
      // prevents every key's default (Unity WebGL's captureAllKeyboardInput) would cancel the button's own press.
      const onKey = (event: KeyboardEvent) => {
        if (overlay.contains(event.target as Node)) event.stopPropagation();
        if (event.type === 'keydown' && (event.key === 'Escape' || (event.target === button && (event.key === 'Enter' || event.key === ' ')))) {
          event.preventDefault();
          finish();
        }
      };
      // Focus that reaches the game anyway (a click, the game's own code) comes back to the dialog.
      const onFocus = (event: FocusEvent) => overlay.contains(event.target as Node) || button.focus();
      // The browser closes a modal dialog itself on Escape (its cancel); the web view closes with it.
      overlay.onclose = finish;
      window.addEventListener('message', onMessage);
      // On the window, capturing: before any listener of the game's document or elements.
      for (const type of KEY_EVENTS) window.addEventListener(type, onKey as EventListener, true);
      document.addEventListener('focusin', onFocus, true);
      cleanUps.push(
        () => window.removeEventListener('message', onMessage),
        () => KEY_EVENTS.forEach((type) => window.removeEventListener(type, onKey as EventListener, true)),
        () => document.removeEventListener('focusin', onFocus, true),
        () => overlay.remove(),
        () => before?.isConnected && before.focus?.(),
      );
    }
    return { closed, close: finish };
  };
}
