/**
 * The browser's {@link Lifecycle}: the page going to the background and coming back, from `visibilitychange`,
 * `pagehide`/`pageshow` and, where the browser has them, `freeze`/`resume` (Chromium's Page Lifecycle).
 * Never `unload`: browsers do not fire it reliably, and listening to it keeps pages out of the back/forward cache.
 * @see DESIGN section 4
 */
import type { Lifecycle } from '../../core/platform.js';
import { pageExit } from '../../core/tracker/page-exit.js';

/** The two objects the lifecycle listens to (injectable for tests). */
export interface LifecycleTarget {
  window: Pick<Window, 'addEventListener' | 'removeEventListener'>;
  document: Pick<Document, 'addEventListener' | 'removeEventListener' | 'visibilityState'>;
}

const WINDOW_EVENTS = ['pagehide', 'pageshow'] as const;
const DOCUMENT_EVENTS = ['visibilitychange', 'freeze', 'resume'] as const;

/**
 * Creates the lifecycle. A change to hidden is told whichever event announces it first (`visibilitychange`, `freeze`,
 * `pagehide`), and told again at each later event of the page while it stays hidden: any may be its last (a tab hidden
 * long ago, then closed or frozen and discarded), and the tracker's exit then sends what an earlier exit request could
 * not. It comes back to the foreground only when it is visible again. The DOM listeners are attached while someone
 * listens. A hidden page may never run again (a closed tab, a discarded one, one evicted from the back/forward cache
 * after `pagehide` with `persisted`), so it passes the tracker's `pageExit`: the tracker sends the session as the
 * page is hidden.
 * @example
 * ```ts
 * const lifecycle = createBrowserLifecycle(window, document);
 * const stop = lifecycle.onBackground(() => saveGame());
 * ```
 */
// Positional parameters, not a { window, document } object: a bundler shortens them, not an object's names.
export function createBrowserLifecycle(window: LifecycleTarget['window'], document: LifecycleTarget['document']): Lifecycle {
  const background = new Set<() => void>();
  const foreground = new Set<() => void>();
  let hidden = false;
  const isHidden = () => document.visibilityState === 'hidden';
  const update = (event: Event) => {
    // pagehide and freeze come before the page stops running, whatever visibilityState says at that moment.
    const nowHidden = event.type === 'freeze' || event.type === 'pagehide' || isHidden();
    // Every event of a hidden page is told again: any may be its last (a tab hidden long ago, then frozen or closed),
    // and its exit then sends what an earlier exit request could not (the relay down at a tab switch).
    if (hidden || nowHidden) {
      hidden = nowHidden;
      for (const listener of [...(hidden ? background : foreground)]) listener();
    }
  };
  const listening = (attach: boolean) => {
    const method = attach ? 'addEventListener' : 'removeEventListener';
    if (attach) hidden = isHidden();
    for (const name of WINDOW_EVENTS) window[method](name, update);
    for (const name of DOCUMENT_EVENTS) document[method](name, update);
  };
  const subscribe = (set: Set<() => void>) => (listener: () => void) => {
    if (background.size + foreground.size === 0) listening(true);
    set.add(listener);
    return () => {
      if (set.delete(listener) && background.size + foreground.size === 0) listening(false);
    };
  };
  // A page loaded in a background tab starts hidden: no event says so until it is shown.
  return { onBackground: subscribe(background), onForeground: subscribe(foreground), isInBackground: isHidden, pageExit };
}
