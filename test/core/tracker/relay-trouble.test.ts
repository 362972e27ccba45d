// A relay the game cannot use while the device is online: `fetch` rejecting every time (a CORS refusal, mixed
// content, a blocked host, a wrong URL), or a 200 that is not the relay's answer (a captive portal's login page).
// Each is reported once as `error` (kind `relay`) with what to check, again only after a success in between; the
// sessions stay queued and go out once the relay answers.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createMemoryStorage } from '../../../core/memory-platform.js';
import { UNREACHABLE_AFTER } from '../../../core/tracker/flusher.js';
import { createFakeRelay, errorAnswer, type RelayAnswer } from './fake-relay.js';
import { RELAY_URL, createHarness, eventsOf, item, key, settle, useFakeClock } from './harness.js';

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());

/** What a browser's fetch rejects with when CORS, mixed content or an ad blocker stops the request. */
const blocked = { networkError: 'Failed to fetch' } as const;
const captivePortal = () => new Response('<html><body>Log in to the hotel Wi-Fi</body></html>', { status: 200, headers: { 'content-type': 'text/html' } });

/**
 * A tracker with one session queued by a previous run, whose relay answers `answers` first (start-up's flush the first);
 * `page`: on a web page (the platform supplies the page exit), not in an app.
 */
async function queued(...answers: RelayAnswer[]) {
  return queuedOn(false, ...answers);
}
async function queuedOn(page: boolean, ...answers: RelayAnswer[]) {
  const storage = createMemoryStorage();
  await storage.set(key(0, 'a'), item('a'));
  const harness = createHarness({}, { storage, relay: createFakeRelay().next(...answers), backgroundMayBeFinal: page });
  await settle();
  return harness;
}

const relayErrors = (log: Parameters<typeof eventsOf>[0]) => eventsOf(log, 'error').filter((event) => event.kind === 'relay');

describe('a relay that cannot be reached while online', () => {
  it(`is reported once, after ${UNREACHABLE_AFTER} failures in a row, naming the likely causes; the session stays queued`, async () => {
    const harness = await queued(...Array.from({ length: 6 }, () => blocked));
    await harness.tracker.flush();
    expect(relayErrors(harness.log)).toEqual([]);
    await harness.tracker.flush(); // the start-up flush failed too: 3 in a row
    expect(harness.relay.requests).toHaveLength(3);
    expect(relayErrors(harness.log)).toHaveLength(1);
    const [event] = relayErrors(harness.log);
    const message = (event!.error as Error).message;
    expect(message).toContain(RELAY_URL);
    for (const cause of ['cleartext http://', 'blocked host', 'wrong URL']) expect(message).toContain(cause);
    // An app (React Native, Cocos native, a mini-game) has no CORS and no mixed content: it was told of both.
    for (const cause of ['CORS', 'mixed content']) expect(message).not.toContain(cause);
    await harness.tracker.flush();
    await harness.tracker.flush();
    expect(relayErrors(harness.log)).toHaveLength(1);
    expect(harness.storage.snapshot()).toEqual({ [key(0, 'a')]: item('a') });
  });

  it('on a web page names its causes (CORS, mixed content), not an app\'s cleartext http://', async () => {
    const harness = await queuedOn(true, ...Array.from({ length: 6 }, () => blocked));
    await harness.tracker.flush();
    await harness.tracker.flush();
    const [event] = relayErrors(harness.log);
    const message = (event!.error as Error).message;
    for (const cause of ['CORS', 'mixed content', 'blocked host', 'wrong URL']) expect(message).toContain(cause);
    expect(message).not.toContain('cleartext');
  });

  // A firewall that drops the relay's packets: no answer, so every request ends at the time-out (30 s). On 4320f9f
  // only a rejected fetch counted, and such a relay was never reported (Unity's managed flusher counted it).
  it(`is reported once after ${UNREACHABLE_AFTER} time-outs in a row too (a host that never answers); the session stays queued`, async () => {
    const silent = () => new Promise<Response>(() => {});
    const harness = await queued(...Array.from({ length: 6 }, () => silent));
    await vi.advanceTimersByTimeAsync(30_000); // the start-up flush times out
    for (let i = 0; i < 2; i++) {
      const flushed = harness.tracker.flush();
      await vi.advanceTimersByTimeAsync(30_000);
      await flushed;
    }
    expect(harness.relay.requests).toHaveLength(3);
    expect(relayErrors(harness.log)).toHaveLength(1);
    const [event] = relayErrors(harness.log);
    expect((event!.error as Error).message).toContain(RELAY_URL);
    expect(((event!.error as Error).cause as Error).name).toBe('TimeoutError');
    expect(harness.storage.snapshot()).toEqual({ [key(0, 'a')]: item('a') });
  });

  it('is not reported while the device is offline, nor for one or two failures (a flaky network)', async () => {
    const harness = await queued(blocked, blocked);
    await harness.tracker.flush();
    expect(harness.relay.requests).toHaveLength(2); // start-up's and this one
    expect(relayErrors(harness.log)).toEqual([]);
    harness.platform.setOnline(false);
    for (let i = 0; i < 5; i++) await harness.tracker.flush();
    expect(relayErrors(harness.log)).toEqual([]);
  });

  it('is reported again only after the relay answered in between', async () => {
    const harness = await queued(blocked, blocked, blocked);
    for (let i = 0; i < 3; i++) await harness.tracker.flush();
    expect(relayErrors(harness.log)).toHaveLength(1);
    expect(eventsOf(harness.log, 'flushed')).toHaveLength(1); // the relay came back: sent

    harness.tracker.start();
    await vi.advanceTimersByTimeAsync(2_000);
    await harness.tracker.stop();
    harness.relay.next(blocked, blocked, blocked);
    for (let i = 0; i < 3; i++) await harness.tracker.flush();
    expect(relayErrors(harness.log)).toHaveLength(2);
  });
});

describe('a relay answering 200 with a body that is not its answer (a captive portal login page)', () => {
  it('keeps the queue, reports once (kind relay, status 200), and sends once the relay answers', async () => {
    const harness = await queued(captivePortal(), captivePortal(), captivePortal());
    for (let i = 0; i < 2; i++) await harness.tracker.flush();
    expect(harness.relay.requests).toHaveLength(3);
    expect(harness.storage.snapshot()).toEqual({ [key(0, 'a')]: item('a') });
    expect(relayErrors(harness.log).map((event) => [event.status, (event.error as Error).message])).toEqual([[200, 'the relay answered with an unexpected body']]);
    await harness.tracker.flush();
    expect(eventsOf(harness.log, 'flushed')).toEqual([{ results: [{ sessionId: 'a', status: 'SUCCESS' }] }]);
    expect(harness.storage.snapshot()).toEqual({});
  });
});

describe('Retry-After', () => {
  it('is honoured when the relay exposes it: no automatic retry before it', async () => {
    const harness = await queued();
    harness.relay.requests.length = 0;
    harness.relay.next(errorAnswer(503, 'INTERNAL_ERROR', 'busy', { 'retry-after': '20' }));
    harness.tracker.start();
    await vi.advanceTimersByTimeAsync(1_000);
    await harness.tracker.stop();
    await harness.tracker.flush();
    expect(harness.relay.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(19_000);
    await harness.tracker.flush(); // asked before the relay's time: waits
    expect(harness.relay.requests).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    await settle();
    expect(harness.relay.requests).toHaveLength(2);
  });
});
