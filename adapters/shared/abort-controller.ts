/**
 * The core builds an `AbortController` for every request and one per tracker; Cocos native (a whatwg-fetch
 * polyfill over XHR) and WeChat mini-games have none, so `new AbortController()` throws there. The Cocos
 * adapter installs this small stand-in when, and only when, the runtime lacks a working one: at
 * `createCocosPlatform`, never at import. Every fetch the adapter uses (whatwg-fetch, our XHR fetch)
 * listens to a signal through `addEventListener('abort')`, which this supports.
 * assumed: patching this one missing global beats forking the core's request path per platform.
 */

type Listener = (event: { type: 'abort'; target: unknown }) => void;

/**
 * A minimal `AbortController`: `abort(reason)` (bound) and a `signal` with `aborted`, `reason`, `onabort`,
 * `add/removeEventListener('abort')` (each listener once, as EventTarget). Not `throwIfAborted()`: neither the core
 * nor the fetches it serves (whatwg-fetch, the XHR fetch) call it, and every byte here is in every Cocos game. A signal aborts
 * once, so every listener is heard at most once and `{ once: true }` needs no bookkeeping. One closure per
 * controller: smaller than a signal class once minified.
 */
export function createAbortControllerClass(): typeof AbortController {
  return function AbortControllerStandIn(this: { signal: unknown; abort(reason?: unknown): void }) {
    const listeners = new Set<Listener>();
    const signal = {
      aborted: false,
      reason: undefined as unknown,
      onabort: null as Listener | null,
      addEventListener(type: string, listener: Listener) {
        if (type === 'abort') listeners.add(listener);
      },
      removeEventListener(type: string, listener: Listener) {
        if (type === 'abort') listeners.delete(listener);
      },
    };
    this.signal = signal;
    this.abort = (reason) => {
      if (signal.aborted) return;
      signal.aborted = true;
      signal.reason = reason !== undefined ? reason : Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
      const event = { type: 'abort' as const, target: signal };
      signal.onabort?.(event);
      for (const listener of [...listeners]) listener(event);
      listeners.clear();
    };
  } as unknown as typeof AbortController;
}

/** Installs {@link createAbortControllerClass} on `globalThis` when `new AbortController()` is missing or throws; true when it did. */
export function ensureAbortController(): boolean {
  const g = globalThis as { AbortController?: typeof AbortController };
  try {
    if (new g.AbortController!().signal) return false;
  } catch {
    // missing, or a constructor that throws: as good as none
  }
  g.AbortController = createAbortControllerClass();
  return true;
}
