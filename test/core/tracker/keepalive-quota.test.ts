// A keepalive request the browser refuses (its 64 KiB quota shared with the game's own beacons) is sent again as an ordinary one.
import { describe, expect, it } from 'vitest';
import { KEEPALIVE_BODY_LIMIT } from '../../../core/tracker/body-size.js';
import { withKeepaliveQuota } from '../../../core/tracker/keepalive-quota.js';

/**
 * A fetch with Chromium's keepalive quota: keepalive bodies in flight may total 64 KiB, a body past what is left is
 * refused whole with `TypeError: Failed to fetch` (blink's resource_fetcher.cc, `kKeepaliveInflightBytesQuota`).
 * `beacons`: bytes the game's own keepalive requests hold. Answers are released by the test, one by one.
 */
function quotaFetch(beacons = 0) {
  let inFlight = beacons;
  const calls: Array<{ keepalive: boolean; bytes: number; answer: () => void }> = [];
  const fetch = (_input: string | Request, init?: RequestInit) => {
    const keepalive = init?.keepalive === true;
    const bytes = String(init?.body ?? '').length;
    if (keepalive && inFlight + bytes > KEEPALIVE_BODY_LIMIT) return Promise.reject(new TypeError('Failed to fetch'));
    if (keepalive) inFlight += bytes;
    return new Promise<Response>((resolve) =>
      calls.push({ keepalive, bytes, answer: () => ((inFlight -= keepalive ? bytes : 0), resolve(new Response('{"data":1}'))) })
    );
  };
  return { calls, fetch };
}
const body = (kib: number) => 'x'.repeat(kib * 1024);
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('withKeepaliveQuota', () => {
  it('sends a keepalive request past what the game’s beacons left of the quota again as an ordinary request, answered with its answer', async () => {
    const { calls, fetch } = quotaFetch(KEEPALIVE_BODY_LIMIT - 100);
    const quota = withKeepaliveQuota(fetch);
    const sent = quota('/a', { method: 'POST', body: body(1), keepalive: true });
    await settled();
    expect(calls.map((call) => call.keepalive)).toEqual([false]);
    calls[0]!.answer();
    await expect((await sent).text()).resolves.toBe('{"data":1}');
  });

  it('sends keepalive requests while the quota holds them; a body past it goes again as an ordinary request', async () => {
    const { calls, fetch } = quotaFetch();
    const quota = withKeepaliveQuota(fetch);
    const sent = [30, 30, 30].map((kib, index) => quota(`/${index}`, { method: 'POST', body: body(kib), keepalive: true }));
    await settled();
    expect(calls.map((call) => call.keepalive)).toEqual([true, true, false]);
    calls.forEach((call) => call.answer());
    await Promise.all(sent);
  });

  it('sends a failed keepalive request once more, and an ordinary request that fails not again', async () => {
    const failures: Array<boolean | undefined> = [];
    const offline = withKeepaliveQuota((_input, init) => (failures.push(init?.keepalive), Promise.reject(new TypeError('Failed to fetch'))));
    await expect(offline('/x', { method: 'POST', body: body(1), keepalive: true })).rejects.toThrow(TypeError);
    await expect(offline('/x', { method: 'POST', body: body(1) })).rejects.toThrow(TypeError);
    expect(failures).toEqual([true, false, undefined]);
  });

  // Chromium 150 rejects a keepalive request it delivered when a closed tab's renderer is torn down, the tab's JavaScript
  // still running after `unload` (p65, test/browser/exit-teardown.test.ts): sent again, the relay got a second copy.
  it('sends a failed keepalive request not again while the page is being unloaded, and again once it is not', async () => {
    const failures: Array<boolean | undefined> = [];
    let unloading = true;
    const closing = withKeepaliveQuota((_input, init) => (failures.push(init?.keepalive), Promise.reject(new TypeError('Failed to fetch'))), () => unloading);
    await expect(closing('/x', { method: 'POST', body: body(1), keepalive: true })).rejects.toThrow(TypeError);
    expect(failures).toEqual([true]);
    unloading = false;
    await expect(closing('/x', { method: 'POST', body: body(1), keepalive: true })).rejects.toThrow(TypeError);
    expect(failures).toEqual([true, true, false]);
  });
});
