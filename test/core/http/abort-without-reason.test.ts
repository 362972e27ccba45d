/**
 * React Native 0.70 installs the `abort-controller` 3 polyfill as `AbortController` (Libraries/Core/setUpXHR.js):
 * `abort()` takes no reason and its signal has no `reason`. A request that times out there must still be reported
 * as a time-out, with its message, by the API transport and by the relay sender alike (core/http/exchange.ts).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CampaignClient } from '../../../core/client/campaign-client.js';
import { TimeoutError } from '../../../core/http/errors.js';
import type { FetchLike } from '../../../core/platform.js';
import { sendToRelay } from '../../../core/relay/sender.js';

/** The polyfill's shape: `aborted`, `onabort` and listeners; `abort()` ignores its argument. */
class AbortControllerWithoutReason {
  readonly signal = new EventTarget() as EventTarget & { aborted: boolean; onabort: ((event: Event) => void) | null };
  constructor() {
    this.signal.aborted = false;
    this.signal.onabort = null;
  }
  abort(): void {
    if (this.signal.aborted) return;
    this.signal.aborted = true;
    const event = new Event('abort');
    this.signal.onabort?.(event);
    this.signal.dispatchEvent(event);
  }
}

/** A fetch that never answers and ignores its signal (as an XHR polyfill may), keeping the signal it got. */
function silentFetch() {
  const signals: Array<{ aborted: boolean; reason?: unknown }> = [];
  const fetch: FetchLike = (_input, init) => {
    signals.push(init!.signal as unknown as { aborted: boolean });
    return new Promise(() => undefined);
  };
  return { fetch, signals };
}

beforeEach(() => {
  vi.stubGlobal('AbortController', AbortControllerWithoutReason);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('a time-out where the AbortController keeps no reason (React Native 0.70)', () => {
  it('a Client API read rejects with TimeoutError "No response within 1000 ms"', async () => {
    const { fetch, signals } = silentFetch();
    const client = new CampaignClient({ clientKey: 'ck_test_1:secret', fetch, timeoutMs: 1000, maxRetries: 0 });
    const outcome = client.campaigns.get('spring-event').then(
      () => 'resolved',
      (error: unknown) => error,
    );
    await vi.advanceTimersByTimeAsync(1000);
    const error = await outcome;
    expect(signals[0]).toMatchObject({ aborted: true });
    expect(signals[0]!.reason).toBeUndefined(); // the polyfill's signal: nothing to read the cause from
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toMatchObject({ code: 'TIMEOUT', message: 'No response within 1000 ms' });
  });

  it('the relay sender reports the time-out as the reason of a transient failure', async () => {
    const { fetch } = silentFetch();
    const sent = sendToRelay({ fetch, now: () => Date.UTC(2026, 2, 1) }, { url: 'https://game.example/campaign' }, [], undefined, undefined, undefined, undefined, 5000);
    await vi.advanceTimersByTimeAsync(5000);
    expect(await sent).toMatchObject({ kind: 'transient', reason: 'No response within 5000 ms' });
  });
});
