/**
 * Keeping a webhook listener's work alive after the receiver has answered. The receiver answers 204 as soon as a
 * delivery is verified, without waiting for its listeners' promises (so a listener that fails causes no redelivery).
 * On Node, Bun and Deno that work simply goes on. A Cloudflare Worker cancels what a request still has under way once
 * its answer is sent, unless the Worker handed it to `ctx.waitUntil` (workerd's `IoContext`: found with a listener
 * that awaited a timer, then a `fetch`, on workerd 1.20261117.1, dated 2024-10-14 and 2026-11-01: the `fetch` never
 * left, no error was reported), so a grant written to a database was lost while the service, answered 204, never
 * delivered the event again.
 */
import { isCloudflareWorker } from '../server/runtime.js';

/** Hands a listener's promise (which never rejects: its error goes to `error` listeners) to the runtime to finish. */
export type KeepAlive = (promise: Promise<unknown>) => void;

/**
 * The `waitUntil` of the first of `context` that has one, bound to it: a Worker's `ctx` (`fetch(request, env, ctx)`,
 * so both `receiver.fetch(request, ctx)` and `fetch: receiver.fetch` find it), Hono's `c.executionCtx`, a Service
 * Worker's `FetchEvent`. Read once, as an own or inherited method (workerd's `ExecutionContext` keeps it on its
 * prototype). Bun's `server` and Deno's `info` have none.
 */
export function keepAliveOf(context: readonly unknown[]): KeepAlive | undefined {
  for (const candidate of context) {
    if (typeof candidate !== 'object' || candidate === null) continue;
    const waitUntil = (candidate as { waitUntil?: unknown }).waitUntil;
    if (typeof waitUntil === 'function') return (promise) => void waitUntil.call(candidate, promise);
  }
  return undefined;
}

let warned = false;

/**
 * Without a `waitUntil`: on a Worker, says once (console.warn) that a listener's work may be cut off and how to hand
 * over `ctx`; elsewhere nothing. Called only for a listener that returned a promise.
 */
export const unheldOnWorker: KeepAlive = () => {
  if (warned || !isCloudflareWorker()) return;
  warned = true;
  console.warn(
    'game-campaign-sdk: a webhook listener returned a promise, and this Cloudflare Worker may cancel its work once the ' +
      'receiver has answered 204 (the service will not deliver the event again). Hand the receiver your ctx: ' +
      'receiver.fetch(request, ctx), or mount fetch: receiver.fetch.',
  );
};
