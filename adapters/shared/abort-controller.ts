/**
 * The core builds an `AbortController` for every request and one per tracker; Cocos native (a whatwg-fetch
 * polyfill over XHR) and WeChat mini-games have none, so `new AbortController()` throws there. The Cocos
 * adapter installs this small stand-in when, and only when, the runtime lacks a working one: at
 * `createCocosPlatform`, never at import. Every fetch the adapter uses (whatwg-fetch, our XHR fetch)
 * listens to a signal through `addEventListener('abort')`, which this supports.
 * assumed: patching this one missing global beats forking the core's request path per platform.
 */

type Listener = (event: { type: 'abort'; target: unknown }) => void;
interface Signal {
  aborted: boolean;
  reason?: unknown;
  addEventListener(type: string, listener: Listener): void;
  removeEventListener(type: string, listener: Listener): void;
}

/**
 * A minimal `AbortController`: `abort(reason)` (bound) and a `signal` with `aborted`, `reason` and
 * `add/removeEventListener('abort')` (each listener once, as EventTarget). Not `onabort` nor `throwIfAborted()`:
 * neither the core nor the fetches it serves (whatwg-fetch, the XHR fetch) use them, and every byte here is in
 * every Cocos game. A signal aborts once, so every listener is heard at most once and `{ once: true }` needs no
 * bookkeeping. One closure per controller: smaller than a signal class once minified.
 */
export function AbortControllerStandIn(this: { signal: Signal; abort(reason?: unknown): void }): void {
  const listeners = new Set<Listener>();
  const signal: Signal = (this.signal = {
    aborted: false,
    addEventListener: (type, listener) => type == 'abort' && listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
  });
  this.abort = (reason) => {
    if (signal.aborted) return;
    signal.aborted = true;
    signal.reason = reason === undefined ? Object.assign(new Error('This operation was aborted'), { name: 'AbortError' }) : reason;
    // A copy: a listener added while the signal aborts is not heard (as EventTarget).
    for (const listener of [...listeners]) listener({ type: 'abort', target: signal });
  };
}

/** Installs {@link AbortControllerStandIn} on `globalThis` when `new AbortController()` is missing or throws. */
export function ensureAbortController(): void {
  const g = globalThis as { AbortController?: unknown };
  try {
    if (new (g.AbortController as typeof AbortController)().signal) return;
  } catch {
    // missing, or a constructor that throws: as good as none
  }
  g.AbortController = AbortControllerStandIn;
}
