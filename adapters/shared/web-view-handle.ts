/**
 * A {@link WebViewHandle} whose `closed` settles once, on the first of `close()` or the platform's own signal.
 */
import type { WebViewHandle } from '../../core/platform.js';

/** A handle plus `settle`, for the platform to call when the web view went away by itself. */
export function webViewHandle(onClose?: () => void): WebViewHandle & { settle(): void } {
  let settled = false;
  let resolve!: () => void;
  const closed = new Promise<void>((done) => (resolve = done));
  // Resolving again changes nothing: `settled` is there so that close() runs `onClose` once.
  const settle = () => {
    settled = true;
    resolve();
  };
  return {
    closed,
    settle,
    close() {
      if (settled) return;
      onClose?.();
      settle();
    },
  };
}
