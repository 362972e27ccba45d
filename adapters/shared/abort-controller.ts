/**
 * The core builds an `AbortController` for every request and one per tracker; Cocos native (a whatwg-fetch
 * polyfill over XHR) and WeChat mini-games have none, so `new AbortController()` throws there. The Cocos
 * adapter installs this small stand-in when, and only when, the runtime lacks a working one: at
 * `createCocosPlatform`, never at import. Every fetch the adapter uses (whatwg-fetch, our XHR fetch)
 * listens to a signal through `addEventListener('abort')`, which this supports.
 * assumed: patching this one missing global beats forking the core's request path per platform.
 */

type Listener = (event: { type: 'abort'; target: unknown }) => void;

/** The stand-in's signal: `aborted`, `reason`, `onabort`, `add/removeEventListener('abort')` (with `once`), `throwIfAborted()`. */
class SignalStandIn {
  aborted = false;
  reason: unknown;
  onabort: Listener | null = null;
  /** Each listener once (as EventTarget: adding it again changes nothing), with its `once` option. */
  readonly #listeners = new Map<Listener, boolean>();
  addEventListener(type: string, listener: Listener, options?: boolean | { once?: boolean }) {
    if (type === 'abort' && !this.#listeners.has(listener)) this.#listeners.set(listener, typeof options === 'object' && !!options.once);
  }
  removeEventListener(type: string, listener: Listener) {
    if (type === 'abort') this.#listeners.delete(listener);
  }
  throwIfAborted() {
    if (this.aborted) throw this.reason;
  }
  /** Called by the controller's `abort`. */
  fire(reason: unknown) {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason !== undefined ? reason : Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    const event = { type: 'abort' as const, target: this };
    this.onabort?.(event);
    for (const [listener, once] of [...this.#listeners]) {
      if (once) this.#listeners.delete(listener);
      listener(event);
    }
  }
}

/** A minimal `AbortController`: `signal` ({@link SignalStandIn}) and `abort(reason)`. */
export function createAbortControllerClass(): typeof AbortController {
  return class AbortControllerStandIn {
    readonly signal = new SignalStandIn();
    abort = (reason?: unknown) => this.signal.fire(reason);
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
