// The shared keepalive quota: bodies in flight through one fetch stay under 64 KiB in total.
import { describe, expect, it } from 'vitest';
import { KEEPALIVE_BODY_LIMIT } from '../../../core/tracker/body-size.js';
import { withKeepaliveQuota } from '../../../core/tracker/keepalive-quota.js';

/** A fetch whose answers the test releases one by one, recording what each request asked for. */
function deferredFetch() {
  const calls: Array<{ keepalive: boolean; bytes: number; answer: () => void }> = [];
  const fetch = (_input: string | Request, init?: RequestInit) =>
    new Promise<Response>((resolve) => calls.push({ keepalive: init?.keepalive === true, bytes: String(init?.body ?? '').length, answer: () => resolve(new Response('{}')) }));
  return { calls, fetch };
}
const body = (kib: number) => 'x'.repeat(kib * 1024);

describe('withKeepaliveQuota', () => {
  it('sends keepalive requests while their bodies in flight total under 64 KiB, the next one as an ordinary request', async () => {
    const { calls, fetch } = deferredFetch();
    const quota = withKeepaliveQuota(fetch);
    const first = quota('/a', { method: 'POST', body: body(30), keepalive: true });
    const second = quota('/b', { method: 'POST', body: body(30), keepalive: true });
    const third = quota('/c', { method: 'POST', body: body(30), keepalive: true });
    await Promise.resolve();
    expect(calls.map((call) => call.keepalive)).toEqual([true, true, false]);
    const inFlight = calls.filter((call) => call.keepalive).reduce((sum, call) => sum + call.bytes, 0);
    expect(inFlight).toBeLessThan(KEEPALIVE_BODY_LIMIT);
    calls.forEach((call) => call.answer());
    await Promise.all([first, second, third]);
  });

  it('gives the quota back when an answer arrives (or the request fails)', async () => {
    const { calls, fetch } = deferredFetch();
    const quota = withKeepaliveQuota(fetch);
    const first = quota('/a', { method: 'POST', body: body(60), keepalive: true });
    await Promise.resolve();
    calls[0]!.answer();
    await first;
    void quota('/b', { method: 'POST', body: body(60), keepalive: true });
    await Promise.resolve();
    expect(calls.map((call) => call.keepalive)).toEqual([true, true]);
    const failedWith: boolean[] = [];
    const failing = withKeepaliveQuota((_input, init) => (failedWith.push(init?.keepalive === true), Promise.reject(new TypeError('Failed to fetch'))));
    await expect(failing('/x', { body: body(60), keepalive: true })).rejects.toThrow(TypeError);
    await expect(failing('/x', { body: body(60), keepalive: true })).rejects.toThrow(TypeError);
    // Each keepalive failure is sent once more as an ordinary request (below), and the quota is whole for the next one.
    expect(failedWith).toEqual([true, false, true, false]);
  });

  it('sends a keepalive request the browser refused once more as an ordinary request, and answers with its answer; an ordinary request that fails is not sent again', async () => {
    // Chromium refuses a keepalive body past what the page's other keepalive requests (the game's beacons) left of
    // its 64 KiB with `TypeError: Failed to fetch`, at once: not evidence that the relay is unreachable.
    const sent: Array<boolean | undefined> = [];
    const refusingKeepalive = withKeepaliveQuota((_input, init) => {
      sent.push(init?.keepalive);
      return init?.keepalive ? Promise.reject(new TypeError('Failed to fetch')) : Promise.resolve(new Response('{"data":1}'));
    });
    await expect((await refusingKeepalive('/x', { method: 'POST', body: body(1), keepalive: true })).text()).resolves.toBe('{"data":1}');
    expect(sent).toEqual([true, false]);
    const failures: Array<boolean | undefined> = [];
    const offline = withKeepaliveQuota((_input, init) => (failures.push(init?.keepalive), Promise.reject(new TypeError('Failed to fetch'))));
    await expect(offline('/x', { method: 'POST', body: body(1) })).rejects.toThrow(TypeError);
    await expect(offline('/x', { method: 'POST', body: '', keepalive: true })).rejects.toThrow(TypeError); // no body to count: as it is
    expect(failures).toEqual([undefined, true]);
  });

  it('counts UTF-8 bytes and leaves ordinary requests alone', async () => {
    const { calls, fetch } = deferredFetch();
    const quota = withKeepaliveQuota(fetch);
    void quota('/a', { body: 'é'.repeat(32 * 1024), keepalive: true }); // 32 Ki characters, 64 KiB in UTF-8: at the quota
    void quota('/b', { body: 'x'.repeat(100) });
    await Promise.resolve();
    expect(calls.map((call) => call.keepalive)).toEqual([false, false]);
  });
});
