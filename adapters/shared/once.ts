/**
 * Loading code or a resource once, where loading can fail: a lazily imported chunk that did not arrive (the page
 * went offline), a `<script>` that did not load. Used by the browser's lazy fallbacks and the IIFE's siblings.
 */

/**
 * `load`, called on first use and its promise kept; a rejected one is forgotten, so the next call tries again.
 * @example
 * ```ts
 * const leaseCode = once(() => import('./lease-lock.js'));
 * ```
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
