/** Fault injection on `/v1` requests: errors, dropped connections, latency. */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.js';
import { fail } from '../respond.js';
import type { Store } from '../store.js';

/** Marks a response that stands for a dropped connection; `emulator.fetch` turns it into `TypeError('fetch failed')`. */
export const DROP_HEADER = 'x-emulator-dropped-connection';

/** True for a response that stands for a dropped connection. */
export function isDropped(response: Response): boolean {
  return response.headers.has(DROP_HEADER);
}

/**
 * Applies `store.faults`. Each `/v1` request draws `random()` once for `errorRate` (when above 0: a draw below it
 * answers 500 `INTERNAL_ERROR` without processing), then once for `dropRate` (when above 0: a draw below
 * `dropRate / 2` drops the connection before processing, one in `[dropRate / 2, dropRate)` after processing, so the
 * service recorded what the client never hears about). Every answer then waits `latencyMs`.
 * Over HTTP a drop destroys the socket; in-process it yields a response marked with {@link DROP_HEADER}.
 */
export function injectFaults(store: Store, random: () => number, latency: LatencyWaits): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const { errorRate, dropRate, latencyMs } = store.faults;
    if (errorRate > 0 && random() < errorRate) {
      await latency.wait(latencyMs);
      return fail(c, 500, 'INTERNAL_ERROR', 'Injected fault: internal error');
    }
    const draw = dropRate > 0 ? random() : 1;
    if (draw < dropRate / 2) return drop(c);
    await next();
    if (draw < dropRate) return drop(c);
    await latency.wait(latencyMs);
  };
}

function drop(c: Parameters<MiddlewareHandler<AppEnv>>[0]): Response {
  c.env?.incoming?.socket?.destroy();
  const response = new Response(null, { status: 499, headers: { [DROP_HEADER]: '1' } });
  c.res = response;
  return response;
}

/**
 * The `latencyMs` waits under way, which closing the emulator ends: a pending one held a test's Node process open
 * after `close()` for up to `latencyMs` (at most 24.8 days). After `close()` nothing waits.
 */
export class LatencyWaits {
  #ends = new Set<() => void>();
  #closed = false;

  wait(ms: number): Promise<void> {
    if (!(ms > 0) || this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const end = () => {
        clearTimeout(timer);
        this.#ends.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.#ends.add(end);
    });
  }

  /** Ends every wait now (each answer goes out at once; over HTTP its connection is already closed). */
  close(): void {
    this.#closed = true;
    for (const end of [...this.#ends]) end();
  }
}
