import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { T0, advance, createHarness, eventsOf, iso, settle, useFakeClock } from './harness.js';

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());

describe('listeners', () => {
  it('one that throws stops neither the others nor the tracker; its error is emitted as error (listener)', async () => {
    const { tracker, log } = createHarness();
    const failure = new Error('listener bug');
    const heard: string[] = [];
    tracker.on('session:start', () => {
      throw failure;
    });
    tracker.on('session:start', (event) => void heard.push(event.sessionId));
    const sessionId = tracker.start();
    expect(heard).toEqual([sessionId]);
    expect(eventsOf(log, 'error')).toEqual([{ kind: 'listener', error: failure }]);
    await advance(2_000);
    await tracker.stop();
    expect(eventsOf(log, 'session:end')).toHaveLength(1);
  });

  it('one that rejects is reported the same way', async () => {
    const { tracker, log } = createHarness();
    const failure = new Error('async listener bug');
    tracker.on('session:start', async () => Promise.reject(failure));
    tracker.start();
    await settle();
    expect(eventsOf(log, 'error')).toEqual([{ kind: 'listener', error: failure }]);
  });

  it('an error listener that throws is re-thrown from a timer, not looped back', async () => {
    const { tracker } = createHarness();
    const failure = new Error('error listener bug');
    tracker.on('error', () => {
      throw failure;
    });
    tracker.on('session:start', () => {
      throw new Error('first');
    });
    tracker.start();
    expect(() => vi.advanceTimersByTime(0)).toThrow(failure);
  });

  it('once() hears one event; off() removes a listener', async () => {
    const { tracker } = createHarness();
    const once: string[] = [];
    const always: string[] = [];
    const listener = (event: { sessionId: string }) => void always.push(event.sessionId);
    tracker.once('session:start', (event) => void once.push(event.sessionId));
    tracker.on('session:start', listener);
    const first = tracker.start();
    tracker.off('session:start', listener);
    tracker.start();
    expect(once).toEqual([first]);
    expect(always).toEqual([first]);
  });
});

describe('unload and dispose', () => {
  it('onUnload checkpoints the session and flushes; the session resumes if the page comes back', async () => {
    const { tracker, platform, relay, storage, log } = createHarness({ flushIntervalMs: 10_000_000 });
    const earlier = tracker.start();
    await advance(3_000);
    await tracker.stop();
    const sessionId = tracker.start();
    await advance(4_000);
    platform.unload();
    await settle();
    // Keepalive only where the platform passes a page exit (a web page); this one has none.
    expect(relay.requests.map((r) => [r.keepalive, r.body.sessions.map((s) => s.sessionId)])).toEqual([[false, [earlier]]]);
    expect(storage.snapshot()[`game-campaign:player:player-1:running:${sessionId}`]).toMatchObject({ spanMs: 4_000, playedMs: 4_000 });
    await advance(10_000);
    platform.background();
    platform.foreground();
    await advance(1_000);
    await tracker.stop();
    expect(eventsOf(log, 'session:end').at(-1)).toEqual({
      sessionId,
      reason: 'stop',
      session: { sessionId, userId: 'player-1', durationSeconds: 5, startedAt: iso(T0 + 3_000), endedAt: iso(T0 + 18_000) },
    });
  });

  it('after dispose() the tracker hears no lifecycle or network event and fires no timer', async () => {
    const { tracker, platform, relay, log } = createHarness();
    tracker.start();
    await advance(2_000);
    await tracker.dispose();
    const before = log.length;
    const requests = relay.requests.length;
    platform.background();
    platform.foreground();
    platform.setOnline(false);
    platform.setOnline(true);
    await advance(600_000);
    expect(log.length).toBe(before);
    expect(relay.requests.length).toBe(requests);
    expect(vi.getTimerCount()).toBe(0);
  });
});
