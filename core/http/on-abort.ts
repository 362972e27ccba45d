/**
 * Calls `listener` once `signal` aborts, at once when it already has; the returned function stops listening. One
 * helper for the request, its body read and the wait before a retry (each byte of the client bundles counts).
 */
export function onAbort(signal: AbortSignal | undefined, listener: () => void): () => void {
  if (signal?.aborted) listener();
  else signal?.addEventListener('abort', listener, { once: true });
  return () => signal?.removeEventListener('abort', listener);
}
