/**
 * A {@link Lifecycle} fed by several host signals at once (Cocos's game events and the page's
 * `visibilitychange` both say "hidden" on web): listeners hear each change once. The host sources are
 * attached when the first listener arrives and detached when the last one leaves.
 */
import type { Lifecycle } from '../../core/platform.js';

/** Attaches host listeners that call `hidden(true | false)` / `unload()`; returns the detach function. */
export type LifecycleSource = (signal: { hidden(isHidden: boolean): void; unload(): void }) => () => void;

/** A lifecycle over `sources`, deduplicating repeated hide/show signals. */
export function lifecycleHub(sources: LifecycleSource[]): Lifecycle {
  const [background, foreground, unload] = [new Set<() => void>(), new Set<() => void>(), new Set<() => void>()];
  let hidden = false;
  let detach: Array<() => void> = [];
  const emit = (set: Set<() => void>) => {
    for (const listener of [...set]) listener();
  };
  const signal = {
    hidden(isHidden: boolean) {
      if (isHidden === hidden) return;
      hidden = isHidden;
      emit(isHidden ? background : foreground);
    },
    unload: () => emit(unload),
  };
  const listened = () => background.size + foreground.size + unload.size > 0;
  const subscribe = (set: Set<() => void>) => (listener: () => void) => {
    if (!listened()) detach = sources.map((source) => source(signal));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (!listened()) for (const off of detach.splice(0)) off();
    };
  };
  return { onBackground: subscribe(background), onForeground: subscribe(foreground), onUnload: subscribe(unload) };
}

/** The page's `visibilitychange` (hidden/visible) and `pagehide` (unload): the browser's reliable signals. */
export function pageVisibilitySource(doc: { visibilityState?: string; addEventListener(type: string, fn: () => void): void; removeEventListener(type: string, fn: () => void): void }, win?: { addEventListener(type: string, fn: () => void): void; removeEventListener(type: string, fn: () => void): void }): LifecycleSource {
  return (signal) => {
    const onVisibility = () => signal.hidden(doc.visibilityState === 'hidden');
    const onPageHide = () => signal.unload();
    doc.addEventListener('visibilitychange', onVisibility);
    win?.addEventListener('pagehide', onPageHide);
    return () => {
      doc.removeEventListener('visibilitychange', onVisibility);
      win?.removeEventListener('pagehide', onPageHide);
    };
  };
}
