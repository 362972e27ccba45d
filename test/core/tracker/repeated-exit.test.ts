// A hidden page's later events (pagehide, freeze, resume or pageshow while still hidden) are each told as a background
// again (adapters/browser/lifecycle.ts, p27) so that the last one sends what an earlier exit request could not. The
// tracker must not end the session twice, start one while hidden, count the hidden time, or send a request per repeat
// when nothing is left to send (p28's review of that change).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBrowserLifecycle } from '../../../adapters/browser/lifecycle.js';
import { createMemoryPlatform } from '../../../core/memory-platform.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { createFakeRelay, errorAnswer } from './fake-relay.js';
import { fakePage, trackerOnPage } from './fake-page.js';
import { RELAY_URL, advance, eventsOf, recordEvents, settle, useFakeClock } from './harness.js';

beforeEach(useFakeClock);
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const sentIds = (relay: { requests: Array<{ keepalive?: boolean; body: { sessions: Array<{ sessionId: string }> } }> }) => relay.requests.map((request) => [request.keepalive, request.body.sessions.map((session) => session.sessionId)]);

describe('a hidden page told again', () => {
  it('visibilitychange, pagehide, freeze, resume and pageshow while hidden, then shown: one end, one continuation, no hidden time, one exit request', async () => {
    const relay = createFakeRelay();
    const { page, tracker } = trackerOnPage(relay.fetch);
    const log = recordEvents(tracker);
    await settle();
    const first = tracker.start();
    await advance(3_500);
    page.document.visibilityState = 'hidden';
    for (const [target, type] of [[page.document, 'visibilitychange'], [page.window, 'pagehide'], [page.document, 'freeze'], [page.document, 'resume'], [page.window, 'pageshow']] as const) {
      target.dispatchEvent(new Event(type));
      await advance(10_000);
    }
    page.document.visibilityState = 'visible';
    page.document.dispatchEvent(new Event('resume'));
    page.document.dispatchEvent(new Event('visibilitychange'));
    page.window.dispatchEvent(new Event('pageshow'));
    await advance(2_200);
    await tracker.stop();
    await tracker.flush();
    expect(eventsOf(log, 'session:end').map((e) => e.reason)).toEqual(['hidden', 'stop']);
    expect(eventsOf(log, 'session:start').map((e) => e.continues)).toEqual([undefined, first]);
    expect([...relay.recorded.values()].map((s) => s.durationSeconds)).toEqual([3, 2]);
    // The exit request of the first event (keepalive), then the continuation stopped in front (an ordinary flush).
    expect(sentIds(relay)).toEqual([[true, [first]], [false, [expect.any(String)]]]);
    await tracker.dispose();
  });

  it('a freeze/resume loop of a hidden page while the relay is down: one exit request per event at most, no storage write', async () => {
    // The flusher's own retries wait a full-jitter backoff (core/http/backoff.ts): with Math.random free, one of them
    // sometimes landed inside the loop below and made a 41st request (3 runs in 20 on main 1539dfc). A fixed draw keeps
    // the count to what the events themselves send.
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const relay = createFakeRelay();
    relay.intercept(() => errorAnswer(503, 'UNAVAILABLE', 'the relay is down'));
    const page = fakePage();
    const memory = createMemoryPlatform({ fetch: relay.fetch });
    let writes = 0;
    const set = memory.storage.set.bind(memory.storage);
    memory.storage.set = (key, value) => (writes++, set(key, value));
    const platform = { ...memory, lifecycle: createBrowserLifecycle(page.window, page.document) };
    const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL } });
    await settle();
    const first = tracker.start();
    await advance(3_500);
    page.document.visibilityState = 'hidden';
    page.document.dispatchEvent(new Event('visibilitychange'));
    await advance(1_000);
    const [requests, written] = [relay.requests.length, writes];
    for (let i = 0; i < 20; i++) {
      page.document.dispatchEvent(new Event('freeze'));
      await advance(100);
      page.document.dispatchEvent(new Event('resume'));
      await advance(100);
    }
    // Each event of the hidden page may be its last: it resends what the failed exit carried, once, and writes nothing.
    const repeats = relay.requests.slice(requests);
    expect(repeats.length).toBeLessThanOrEqual(40);
    expect(repeats.every((request) => request.keepalive && request.body.sessions.map((session) => session.sessionId).join() === first)).toBe(true);
    expect(writes).toBe(written);
    await tracker.dispose();
  });
});
