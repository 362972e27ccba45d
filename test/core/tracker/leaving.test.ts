// A page being left (DESIGN section 5, "Leaving is an ending too"): where going to the background may be the last
// event (a browser page: Lifecycle.backgroundMayBeFinal), the running session ends and goes out in that same event
// handler: `fetch` is called before the handler returns, before any microtask runs, with keepalive, within the
// 64 KiB keepalive budget and the game's last good headers. Storage still holds it in case the request is lost. A
// page shown again continues as a new session; no play time is lost or counted twice.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createFakeRelay, errorAnswer } from './fake-relay.js';
import { trackerOnPage } from './fake-page.js';
import { RELAY_URL, T0, advance, createHarness, eventsOf, iso, recordEvents, settle, useFakeClock, type Harness } from './harness.js';

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());

const KEEPALIVE_LIMIT = 64 * 1024;
/** A tracker on a page whose background may be its last event (as the browser adapter's lifecycle says). */
const onPage = (options: Parameters<typeof createHarness>[0] = {}, shared: Parameters<typeof createHarness>[1] = {}) => createHarness(options, { ...shared, backgroundMayBeFinal: true });
/**
 * Starts a session, plays `before` ms, hides the page for `hidden` ms (running `whileHidden` at once), shows it,
 * plays `after` ms and stops: resolves what the relay recorded, `[sessionId, durationSeconds]` each, and the first id.
 */
async function hideAndShow(harness: Harness, before: number, hidden: number, after: number, whileHidden: () => void = () => {}) {
  await settle();
  const sessionId = harness.tracker.start();
  await advance(before);
  harness.platform.background();
  whileHidden();
  await advance(hidden);
  harness.platform.foreground();
  await advance(after);
  await harness.tracker.stop();
  await harness.tracker.flush();
  return { sessionId, recorded: [...harness.relay.recorded.values()].map((session) => [session.sessionId, session.durationSeconds]) };
}
const sentIds = (relay: { requests: Array<{ body: { sessions: Array<{ sessionId: string }> } }> }) => relay.requests.map((request) => request.body.sessions.map((session) => session.sessionId));

describe('a page being left', () => {
  it('sends the running session inside the hide event, before any microtask, with its full play time', async () => {
    const page = onPage({ campaignId: 'camp-1' });
    await settle();
    const sessionId = page.tracker.start({ creatorKey: 'ABCDE', metadata: { level: 3 } });
    await advance(3_600);
    expect(page.relay.requests).toEqual([]);

    page.platform.background();
    // No await since the event: the request was issued synchronously from the listener.
    expect(page.relay.requests).toHaveLength(1);
    const [request] = page.relay.requests;
    expect(request!.keepalive).toBe(true);
    expect(request!.body.sessions).toEqual([
      { sessionId, userId: 'player-1', durationSeconds: 3, startedAt: iso(T0), endedAt: iso(T0 + 3_600), campaignId: 'camp-1', creatorKey: 'ABCDE', metadata: { level: 3 } },
    ]);
    expect(eventsOf(page.log, 'session:end').map((event) => [event.sessionId, event.reason])).toEqual([[sessionId, 'hidden']]);

    // The page lived on: the answer is acted on as a flush's, and storage is left empty.
    await settle();
    expect(eventsOf(page.log, 'flushed')).toEqual([{ results: [{ sessionId, status: 'SUCCESS' }] }]);
    expect(page.storage.snapshot()).toEqual({});
  });

  it('uses the headers of the last successful relay.headers() call, without waiting for the function again', async () => {
    let calls = 0;
    let answer: () => Promise<Record<string, string>> = async () => ({ authorization: `Bearer token-${++calls}` });
    const page = onPage({ relay: { url: RELAY_URL, headers: () => answer() } });
    await settle();
    page.tracker.start();
    await settle();
    await advance(2_000);
    await page.tracker.flush(); // nothing queued yet: the token asked for at the first checkpoint (1 s) is the last good one
    answer = () => new Promise(() => {}); // the game's token refresh hangs as the page goes away
    page.platform.background();
    expect(page.relay.requests).toHaveLength(1);
    expect(page.relay.requests[0]!.headers).toEqual({ authorization: 'Bearer token-2', 'content-type': 'application/json' });
  });

  it('sends nothing at the exit while relay.headers() has never succeeded; storage keeps the session for the next visit', async () => {
    const page = onPage({ relay: { url: RELAY_URL, headers: async () => Promise.reject(new Error('not logged in')) } });
    await settle();
    const sessionId = page.tracker.start();
    await advance(5_000);
    page.platform.background();
    expect(page.relay.requests).toEqual([]);
    await settle();
    page.platform.crash(); // the tab is closed

    const next = createHarness({}, { storage: page.storage, relay: page.relay });
    await next.tracker.flush();
    expect(next.relay.recorded.get(sessionId)?.durationSeconds).toBe(5);
  });

  it('asks relay.headers() again at the checkpoints while its ask at the start failed: a token fetch that failed once does not leave the exit without headers', async () => {
    let calls = 0;
    // The game's token fetch fails once (a flaky network as the level loads), then answers.
    const page = onPage({ relay: { url: RELAY_URL, headers: async () => (++calls === 1 ? Promise.reject(new Error('token fetch failed')) : { authorization: 'Bearer token' }) } });
    await settle();
    const sessionId = page.tracker.start();
    await settle();
    await advance(20_000); // one checkpoint (15 s) passed; nothing queued, so no flush asked for headers
    page.platform.background(); // the tab is closed
    expect(sentIds(page.relay)).toEqual([[sessionId]]);
    expect(page.relay.requests[0]!.headers).toEqual({ authorization: 'Bearer token', 'content-type': 'application/json' });
    expect(page.relay.requests[0]!.body.sessions[0]!.durationSeconds).toBe(20);
  });

  it('asks relay.headers() again at each checkpoint: a long session closed sends the token of its last checkpoint, not one from its start that may have expired', async () => {
    let calls = 0;
    // The game's headers() hands out its current token (a short-lived one, refreshed by the game as it expires).
    const page = onPage({ relay: { url: RELAY_URL, headers: async () => ({ authorization: `Bearer token-${++calls}` }) } });
    await settle();
    page.tracker.start();
    await settle();
    await advance(40 * 60_000); // 40 minutes of play, nothing queued: no flush asks for headers
    const current = calls;
    page.platform.background(); // the tab is closed
    expect(page.relay.requests).toHaveLength(1);
    expect(current).toBeGreaterThan(1);
    expect(page.relay.requests[0]!.headers['authorization']).toBe(`Bearer token-${current}`);
  });

  it('a session whose exit request failed while the page lived on (a tab switch, the relay down) goes out again in the next exit: the tab closed later', async () => {
    const page = onPage();
    let down = true;
    page.relay.intercept(() => (down ? errorAnswer(503, 'UNAVAILABLE', 'the relay is down') : undefined));
    await settle();
    const first = page.tracker.start();
    await advance(3_000);
    page.platform.background(); // a tab switch: the exit request is answered 503
    await settle();
    page.platform.foreground();
    await advance(4_000); // the player plays on; the flush's retries meet the relay still down
    down = false;
    const requests = page.relay.requests.length;
    page.platform.background(); // the tab is closed
    const exit = sentIds({ requests: page.relay.requests.slice(requests) }).flat();
    expect(exit).toHaveLength(2);
    expect(exit).toContain(first);
  });

  it('a session an earlier visit left stored, which this page read for a flush that failed, goes out in this exit: no third visit needed', async () => {
    // The studio's server: overloaded (503, Retry-After 5 min) until `up`.
    let up = false;
    const earlier = onPage();
    earlier.relay.intercept(() => (up ? undefined : errorAnswer(503, 'UNAVAILABLE', 'overloaded', { 'retry-after': '300' })));
    // The earlier visit: its exit request is refused as the tab closes, so storage alone holds its session.
    await settle();
    const left = earlier.tracker.start();
    await advance(2_500);
    earlier.platform.background();
    await settle();
    earlier.platform.crash();

    // This visit: its start-up flush reads that session and is refused too (the retry due in 5 min); the player plays,
    // the server recovers, and the player closes the tab before the retry.
    const page = onPage({}, { storage: earlier.storage, relay: earlier.relay });
    const requests = page.relay.requests.length;
    await settle();
    expect(sentIds({ requests: page.relay.requests.slice(requests) })).toEqual([[left]]);
    const played = page.tracker.start();
    await advance(3_000);
    up = true;
    const before = page.relay.requests.length;
    page.platform.background();
    // The session that just ended leads, alone: a body the game's own beacons left too little room for would be refused whole.
    expect(sentIds({ requests: page.relay.requests.slice(before) })).toEqual([[played], [left]]);
    await settle();
    expect(page.relay.recorded.get(left)?.durationSeconds).toBe(2);
    expect(page.relay.recorded.get(played)?.durationSeconds).toBe(3);
  });

  it('a session read by many flushes that failed is held once: the exit still carries it and the session that just ended', async () => {
    const page = onPage();
    let down = true;
    page.relay.intercept(() => (down ? errorAnswer(503, 'UNAVAILABLE', 'the relay is down') : undefined));
    await settle();
    const waiting = page.tracker.start();
    await advance(2_000);
    await page.tracker.stop();
    // Each manual flush reads it again (and is refused): 1000 reads of its ~150 bytes would pass 64 KiB if each were counted.
    for (let flush = 0; flush < 1_000; flush++) await page.tracker.flush();
    const played = page.tracker.start();
    await advance(2_000);
    down = false;
    const before = page.relay.requests.length;
    page.platform.background();
    expect(sentIds({ requests: page.relay.requests.slice(before) }).flat()).toEqual([played, waiting]);
  });

  it('keeps the session in storage when the request is lost; the next visit sends it, and a repeat is SKIPPED', async () => {
    const page = onPage();
    await settle();
    const sessionId = page.tracker.start();
    await advance(12_300);
    const release = page.relay.hold(); // the request reaches the relay, the page dies before the answer
    page.platform.background();
    await settle(); // the storage writes of the exit are done
    page.platform.crash();
    release();
    await settle();
    expect(page.relay.recorded.get(sessionId)?.durationSeconds).toBe(12);

    const next = createHarness({}, { storage: page.storage, relay: page.relay });
    await next.tracker.flush();
    await settle();
    expect(eventsOf(next.log, 'flushed')).toEqual([{ results: [{ sessionId, status: 'SKIPPED' }] }]);
    expect(next.relay.successes.get(sessionId)).toBe(1);
    expect(next.storage.snapshot()).toEqual({});
  });

  it('keeps each keepalive body, and all of them in flight, within 64 KiB; the session that just ended leads', async () => {
    const page = onPage({ flushAt: 1_000, flushIntervalMs: 10_000_000 });
    await settle();
    for (let i = 0; i < 30; i++) {
      page.tracker.start({ metadata: { notes: 'x'.repeat(3_000), i } });
      await advance(1_000);
      await page.tracker.stop();
    }
    expect(page.relay.requests).toEqual([]); // ~90 KB queued, unsent
    const release = page.relay.hold();
    const first = page.tracker.start({ metadata: { last: 1 } });
    await advance(2_000);
    page.platform.background();
    // The session that just ended alone, then what else fits: together one full keepalive body's worth.
    expect(sentIds(page.relay).map((ids) => ids.length)).toEqual([1, expect.any(Number)]);
    expect(sentIds(page.relay)[0]).toEqual([first]);
    const bytes = () => page.relay.requests.reduce((sum, request) => sum + request.bytes, 0);
    expect(bytes()).toBeLessThan(KEEPALIVE_LIMIT);
    expect(bytes()).toBeGreaterThan(KEEPALIVE_LIMIT / 2);

    // Shown and hidden again while the first exit requests are still in flight: the next fits what is left. The flush
    // after the first exit sent the rest of the backlog, past what keepalive bodies could carry then, as an ordinary
    // request (p61): not on the quota.
    page.platform.foreground();
    await advance(1_500);
    page.platform.background();
    const keepalive = page.relay.requests.filter((request) => request.keepalive);
    expect(keepalive).toHaveLength(3);
    expect(keepalive.reduce((sum, request) => sum + request.bytes, 0)).toBeLessThan(KEEPALIVE_LIMIT);
    expect(page.relay.requests.filter((request) => !request.keepalive)).toHaveLength(1);
    expect(sentIds(page.relay).flat()).toHaveLength(32);
    release();
    await settle();
  });

  it('keeps the two bodies of an exit within 64 KiB together when the held sessions fill one body to its last bytes', async () => {
    // Small sessions filling one body to within a few bytes of 64 KiB: before, the rest was sized as if it shared the
    // newest's envelope, so the two bodies together passed the quota by that envelope and Chromium refused the second.
    const page = onPage({ flushAt: 1_000, flushIntervalMs: 10_000_000 });
    await settle();
    const padded = (length: number) => ({ pad: 'x'.repeat(length) });
    for (let i = 0; i < 200; i++) {
      page.tracker.start({ metadata: padded(100) });
      await advance(1_000);
      await page.tracker.stop();
    }
    const queued = Object.values(page.storage.snapshot()).filter((value) => typeof value === 'object' && value !== null && 'sessionId' in (value as object)) as object[];
    const size = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;
    const each = size(queued[0]);
    const envelope = size({ sessions: [], sentAt: new Date(0).toISOString() });
    // The newest (ended by the exit) sized so that every held session makes one body of 65,530 B.
    const newest = 65_530 - envelope - queued.length * (each + 1) - (each - 100);
    expect(newest).toBeGreaterThan(0);
    const release = page.relay.hold();
    page.tracker.start({ metadata: padded(newest) });
    await advance(1_000);
    page.platform.background();
    const bytes = page.relay.requests.map((request) => request.bytes);
    release();
    expect(bytes).toHaveLength(2);
    expect(bytes[0]! + bytes[1]!).toBeLessThanOrEqual(KEEPALIVE_LIMIT);
    // The second envelope leaves no room for the oldest: it waits in storage, every other session goes in the exit.
    expect(sentIds(page.relay).flat()).toHaveLength(queued.length);
    await settle();
  });

  it('two trackers on one page (two games or players) share the 64 KiB as they leave together: the second sends what fits', async () => {
    const relay = createFakeRelay();
    const pages = [onPage({ flushAt: 1_000, flushIntervalMs: 10_000_000 }, { relay }), onPage({ flushAt: 1_000, flushIntervalMs: 10_000_000, userId: 'player-2' }, { relay })];
    await settle();
    for (const page of pages) {
      for (let i = 0; i < 12; i++) {
        page.tracker.start({ metadata: { notes: 'x'.repeat(3_000), i } });
        await advance(1_000);
        await page.tracker.stop();
      }
    }
    expect(relay.requests).toEqual([]); // ~36 KB queued by each, unsent
    const release = relay.hold();
    for (const page of pages) page.platform.background(); // the page is hidden: each tracker's listener runs
    // Each tracker's exit: its newest session alone, then the rest that fits what the page's quota has left.
    const users = relay.requests.map((request) => request.body.sessions[0]!.userId);
    expect(users).toEqual(['player-1', 'player-1', 'player-2', 'player-2']);
    const bytes = relay.requests.map((request) => request.bytes);
    expect(bytes[0]! + bytes[1]!).toBeGreaterThan(KEEPALIVE_LIMIT / 2);
    expect(bytes[2]! + bytes[3]!).toBeGreaterThan(0);
    expect(bytes.reduce((sum, each) => sum + each)).toBeLessThan(KEEPALIVE_LIMIT);
    expect(relay.requests.every((request) => request.keepalive)).toBe(true);
    release();
    await settle();
  });
});

describe('a page shown again', () => {
  it('continues as a new session with the same campaign, creator and metadata; no play time lost or counted twice', async () => {
    const page = onPage();
    await settle();
    const first = page.tracker.start({ campaignId: 'camp-1', creatorKey: 'ABCDE', metadata: { level: 3 } });
    await advance(3_600);
    page.platform.background();
    await advance(20_000); // background time is not play time
    page.platform.foreground();
    const starts = eventsOf(page.log, 'session:start');
    expect(starts).toHaveLength(2);
    const second = starts[1]!;
    expect(second).toEqual({ sessionId: expect.any(String), continues: first, startedAt: iso(T0 + 23_600), campaignId: 'camp-1', creatorKey: 'ABCDE' });
    await advance(2_600);
    await page.tracker.stop();
    await page.tracker.flush();

    const recorded = [...page.relay.recorded.values()];
    expect(recorded.map((session) => [session.sessionId, session.durationSeconds, session.startedAt, session.endedAt, session.metadata])).toEqual([
      [first, 3, iso(T0), iso(T0 + 3_600), { level: 3 }],
      // 0.6 s of the first part carried over: 3.6 + 2.6 = 6.2 s played, 6 s recorded in all (as one session would be).
      [second.sessionId, 3, iso(T0 + 23_600), iso(T0 + 26_200), { level: 3 }],
    ]);
    expect(eventsOf(page.log, 'session:end').map((event) => event.reason)).toEqual(['hidden', 'stop']);
    expect([...page.relay.successes.values()]).toEqual([1, 1]);
  });

  it('continues however long the page was hidden (past backgroundTimeoutMs too): the player is back', async () => {
    const page = onPage({ backgroundTimeoutMs: 60_000 });
    await settle();
    page.tracker.start();
    await advance(5_000);
    page.platform.background();
    await advance(3_600_000);
    page.platform.foreground();
    await advance(5_000);
    expect(eventsOf(page.log, 'session:start')).toHaveLength(2);
    await page.tracker.stop();
    await page.tracker.flush();
    expect([...page.relay.recorded.values()].map((session) => session.durationSeconds)).toEqual([5, 5]);
  });

  it('does not continue a session the game stopped while hidden', async () => {
    const page = onPage();
    await settle();
    page.tracker.start();
    await advance(5_000);
    page.platform.background();
    await page.tracker.stop();
    page.platform.foreground();
    expect(eventsOf(page.log, 'session:start')).toHaveLength(1);
  });

  it('does not continue a session after the player switched recording off while away, even on again before the return (as Unity)', async () => {
    for (const page of [onPage(), createHarness({ backgroundTimeoutMs: 60_000 })]) {
      await settle();
      page.tracker.start();
      await advance(5_000);
      page.platform.background();
      await advance(61_000); // on a page the session ended as it was hidden; elsewhere the background time-out ends it
      await page.tracker.setOptOut(true);
      await page.tracker.setOptOut(false);
      page.platform.foreground();
      await settle();
      expect(eventsOf(page.log, 'session:start')).toHaveLength(1);
      expect(eventsOf(page.log, 'dropped')).toEqual([]);
    }
  });

  it('keeps a part under the 1 s minimum unsent and lets it continue as itself (a tab switched for a moment)', async () => {
    const page = onPage();
    const { sessionId, recorded } = await hideAndShow(page, 600, 5_000, 1_000, () => {
      expect(page.relay.requests).toEqual([]);
      expect(eventsOf(page.log, 'session:end')).toEqual([]);
      expect(eventsOf(page.log, 'dropped')).toEqual([]);
    });
    expect(recorded).toEqual([[sessionId, 1]]); // 0.6 + 1 s
    expect(eventsOf(page.log, 'session:start')).toHaveLength(1);
  });
});

describe('a game that disposes as its page is left', () => {
  // A dispose in `beforeunload`, in a Quit button's handler before it navigates, in a `pagehide` listener the game
  // added before the SDK's (the SDK's listener, removed by the dispose, then never runs), or a single-page app
  // unmounting the game: the page's own exit never comes, so the dispose is the exit.
  it('dispose() sends the session it ends, with what the tracker holds, in one keepalive request before it returns', async () => {
    const page = onPage({ campaignId: 'camp-1' });
    await settle();
    const sessionId = page.tracker.start();
    await advance(4_200);
    const disposed = page.tracker.dispose();
    // No await since the call: the request was issued synchronously.
    expect(page.relay.requests).toHaveLength(1);
    expect(page.relay.requests[0]!.keepalive).toBe(true);
    expect(page.relay.requests[0]!.body.sessions.map((session) => [session.sessionId, session.durationSeconds, session.campaignId])).toEqual([[sessionId, 4, 'camp-1']]);
    await disposed;
    expect(eventsOf(page.log, 'session:end').map((event) => [event.sessionId, event.reason])).toEqual([[sessionId, 'dispose']]);
    expect(page.relay.recorded.get(sessionId)?.durationSeconds).toBe(4);

    // Storage still holds it (the answer may never be read): the next visit's copy is answered SKIPPED.
    const next = createHarness({}, { storage: page.storage, relay: page.relay });
    await next.tracker.flush();
    await settle();
    expect(next.relay.successes.get(sessionId)).toBe(1);
    expect(next.storage.snapshot()).toEqual({});
  });

  it.each([
    ['its own', false],
    // The game's own pagehide listener disposing right after the SDK's.
    ["the page's, a dispose in the same event right after it", true],
  ])('no dispose cancels an exit request (%s): a relay that answers later records it, and a page that lives on clears it from storage', async (_which, exitFirst) => {
    const page = onPage();
    await settle();
    const sessionId = page.tracker.start();
    await advance(3_000);
    const release = page.relay.hold(); // the relay answers only later; a request aborted meanwhile never reaches it
    if (exitFirst) page.platform.background();
    const disposed = page.tracker.dispose();
    release();
    await disposed;
    await settle();
    expect(page.relay.recorded.get(sessionId)?.durationSeconds).toBe(3);
    expect(page.storage.snapshot()).toEqual({});
  });

  it('sends nothing while the player is opted out', async () => {
    const page = onPage({ optOut: true });
    await settle();
    page.tracker.start();
    await advance(4_000);
    await page.tracker.dispose();
    expect(page.relay.requests).toEqual([]);
  });
});

describe('where the background is not the last event (apps, engines, the memory platform)', () => {
  it('a short background pauses and resumes the same session, sending it only when it ends', async () => {
    const app = createHarness();
    const { sessionId, recorded } = await hideAndShow(app, 4_000, 10_000, 2_000, () => expect(app.relay.requests).toEqual([]));
    expect(eventsOf(app.log, 'session:end').map((event) => event.reason)).toEqual(['stop']);
    expect(recorded).toEqual([[sessionId, 6]]);
  });

  it('dispose() sends nothing: the session is queued for the next start-up (an app is not left by disposing)', async () => {
    const app = createHarness();
    await settle();
    const sessionId = app.tracker.start();
    await advance(4_000);
    await app.tracker.dispose();
    expect(app.relay.requests).toEqual([]);
    const next = createHarness({}, { storage: app.storage, relay: app.relay });
    await next.tracker.flush();
    expect(next.relay.recorded.get(sessionId)?.durationSeconds).toBe(4);
  });
});

describe('the back/forward cache', () => {
  const pageEvent = (type: string, persisted: boolean) => Object.assign(new Event(type), { persisted });

  it('counts pagehide (persisted) as left: the session goes out in that event; pageshow continues it as a new session', async () => {
    const relay = createFakeRelay();
    const { page, tracker } = trackerOnPage(relay.fetch);
    const log = recordEvents(tracker);
    await settle();
    const first = tracker.start();
    await advance(7_000);
    page.window.dispatchEvent(pageEvent('pagehide', true));
    expect(sentIds(relay)).toEqual([[first]]);
    expect(relay.requests[0]!.body.sessions[0]!.durationSeconds).toBe(7);
    await advance(30_000); // in the cache: may be evicted now without another event, nothing is waiting
    page.window.dispatchEvent(pageEvent('pageshow', true));
    const starts = eventsOf(log, 'session:start');
    expect(starts.map((event) => event.continues)).toEqual([undefined, first]);
    await advance(3_000);
    await tracker.stop();
    await tracker.flush();
    expect([...relay.recorded.values()].map((session) => session.durationSeconds)).toEqual([7, 3]);
    await tracker.dispose();
  });
});

describe('a page whose device sleeps with the game in front', () => {
  // A laptop's lid closed on a visible tab: no background is announced, and on Windows the monotonic clock counts the
  // sleep. The memory platform's monotonic clock is Date.now(): moving the system time jumps it with no timer run.
  const sleep = (ms: number) => vi.setSystemTime(Date.now() + ms);
  const ends = (harness: Harness) => eventsOf(harness.log, 'session:end').map((event) => [event.reason, event.session.durationSeconds]);

  it('a sleep longer than backgroundTimeoutMs is not play: the session ends at the last checkpoint and continues at once', async () => {
    const page = onPage();
    await settle();
    const first = page.tracker.start();
    await advance(30_000); // checkpoints at 15 s and 30 s
    sleep(8 * 3_600_000);
    await advance(15_000); // the first tick after waking finds 8 h since the last
    const starts = eventsOf(page.log, 'session:start');
    expect(starts).toHaveLength(2);
    expect(starts[1]!.continues).toBe(first);
    await advance(30_000);
    await page.tracker.stop();
    expect(ends(page)).toEqual([
      ['background-timeout', 30],
      ['stop', 30],
    ]);
    await page.tracker.dispose();
  });

  it('a shorter sleep is not play either: the same session, paused from the last checkpoint to the waking tick', async () => {
    const page = onPage();
    await settle();
    page.tracker.start();
    await advance(30_000);
    sleep(40_000);
    await advance(15_000); // 55 s since the last tick: more than two intervals
    await advance(15_000);
    await page.tracker.stop();
    expect(ends(page)).toEqual([['stop', 45]]);
    await page.tracker.dispose();
  });

  it('timers that run late by less than an interval change nothing', async () => {
    const page = onPage();
    await settle();
    page.tracker.start();
    await advance(30_000);
    sleep(14_000);
    await advance(15_000);
    await page.tracker.stop();
    expect(ends(page)).toEqual([['stop', 59]]);
    await page.tracker.dispose();
  });
});
