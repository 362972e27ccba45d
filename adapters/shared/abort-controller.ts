/**
 * The core builds an `AbortController` for every request and one per tracker; Cocos native (a whatwg-fetch
 * polyfill over XHR) and WeChat mini-games have none, so `new AbortController()` throws there. The Cocos
 * adapter installs this small stand-in when, and only when, the runtime lacks a working one: at
 * `createCocosPlatform`, never at import. Every fetch the adapter uses (whatwg-fetch, our XHR fetch)
 * listens to a signal through `addEventListener('abort')`, which this supports.
 * assumed: patching this one missing global beats forking the core's request path per platform.
 */

type Listener = (event: { type: 'abort'; target: unknown }) => void;

/** A minimal `AbortController`: `signal.aborted/reason/onabort/addEventListener/removeEventListener/throwIfAborted`, `abort(reason)`. */
export function createAbortControllerClass(): typeof AbortController {
  return class AbortControllerStandIn {
    readonly signal: AbortSignal;
    abort: (reason?: unknown) => void;
    constructor() {
      const listeners: Array<{ listener: Listener; once: boolean }> = [];
      const signal = {
        aborted: false,
        reason: undefined as unknown,
        onabort: null as Listener | null,
        addEventListener(type: string, listener: Listener, options?: boolean | { once?: boolean }) {
          if (type === 'abort' && !listeners.some((entry) => entry.listener === listener)) listeners.push({ listener, once: typeof options === 'object' && !!options.once });
        },
        removeEventListener(type: string, listener: Listener) {
          const index = listeners.findIndex((entry) => entry.listener === listener);
          if (type === 'abort' && index >= 0) listeners.splice(index, 1);
        },
        throwIfAborted() {
          if (signal.aborted) throw signal.reason;
        },
      };
      this.signal = signal as unknown as AbortSignal;
      this.abort = (reason?: unknown) => {
        if (signal.aborted) return;
        signal.aborted = true;
        signal.reason = reason !== undefined ? reason : Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
        const event = { type: 'abort' as const, target: signal };
        signal.onabort?.(event);
        for (const entry of listeners.slice()) {
          if (entry.once) signal.removeEventListener('abort', entry.listener);
          entry.listener(event);
        }
      };
    }
  } as unknown as typeof AbortController;
}

/** Installs {@link createAbortControllerClass} on `globalThis` when `new AbortController()` is missing or throws; true when it did. */
export function ensureAbortController(): boolean {
  const g = globalThis as { AbortController?: typeof AbortController };
  try {
    if (typeof g.AbortController === 'function' && new g.AbortController().signal) return false;
  } catch {
    // a constructor that throws is as good as none
  }
  g.AbortController = createAbortControllerClass();
  return true;
}
