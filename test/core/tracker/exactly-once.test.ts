/**
 * Property: whatever the interleaving of start/stop, background/foreground, crashes, restarts, network
 * changes, flushes and relay failures, every session that was started ends exactly once, and is then either
 * recorded by the service exactly once or reported in `dropped` exactly once, never both.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage } from '../../../core/memory-platform.js';
import { PlaytimeTracker, type TrackerEventMap } from '../../../core/tracker/index.js';
import { createFakeRelay, errorAnswer } from './fake-relay.js';
import { RELAY_URL, T0, advance, settle } from './harness.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

type Failure = 'network' | '503' | '429' | '401' | '413';
type Action =
  | { type: 'start'; kind: 'ok' | 'bad' | 'fail'; playMs: number }
  | { type: 'stop' }
  | { type: 'advance'; ms: number }
  | { type: 'background' }
  | { type: 'foreground' }
  | { type: 'crash' }
  | { type: 'restart' }
  | { type: 'flush' }
  | { type: 'fail-next'; failure: Failure }
  | { type: 'network'; online: boolean };

const action: fc.Arbitrary<Action> = fc.oneof(
  {
    arbitrary: fc.record({ type: fc.constant('start' as const), kind: fc.constantFrom('ok' as const, 'ok' as const, 'ok' as const, 'bad' as const, 'fail' as const), playMs: fc.integer({ min: 0, max: 30_000 }) }),
    weight: 4,
  },
  { arbitrary: fc.constant({ type: 'stop' as const }), weight: 3 },
  { arbitrary: fc.record({ type: fc.constant('advance' as const), ms: fc.integer({ min: 100, max: 45_000 }) }), weight: 5 },
  { arbitrary: fc.constant({ type: 'background' as const }), weight: 1 },
  { arbitrary: fc.constant({ type: 'foreground' as const }), weight: 1 },
  { arbitrary: fc.constant({ type: 'crash' as const }), weight: 1 },
  { arbitrary: fc.constant({ type: 'restart' as const }), weight: 1 },
  { arbitrary: fc.constant({ type: 'flush' as const }), weight: 2 },
  { arbitrary: fc.record({ type: fc.constant('fail-next' as const), failure: fc.constantFrom<Failure>('network', '503', '429', '401', '413') }), weight: 2 },
  { arbitrary: fc.record({ type: fc.constant('network' as const), online: fc.boolean() }), weight: 1 },
);

interface Observed {
  started: string[];
  ended: string[];
  acknowledged: string[];
  dropped: Array<{ sessionId: string; reason: string; kind: unknown }>;
}

async function play(actions: Action[], seed: number) {
  vi.useFakeTimers();
  vi.setSystemTime(T0);
  let state = seed >>> 0;
  vi.spyOn(Math, 'random').mockImplementation(() => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32));

  const storage = createMemoryStorage();
  const failures: Failure[] = [];
  const relay = createFakeRelay()
    .invalidIf((session) => (session.metadata?.['kind'] === 'bad' ? 'is not accepted' : undefined))
    .rejectIf((session) => (session.metadata?.['kind'] === 'fail' ? 'refused by the service' : undefined))
    .intercept(() => {
      const failure = failures.shift();
      if (failure === 'network') throw new TypeError('connection dropped');
      if (failure === '503') return errorAnswer(503, 'INTERNAL_ERROR', 'down', { 'retry-after': '3' });
      if (failure === '429') return errorAnswer(429, 'RATE_LIMITED', 'slow down', { 'retry-after': '2' });
      if (failure === '401') return errorAnswer(401, 'UNAUTHORIZED', 'expired');
      if (failure === '413') return errorAnswer(413, 'BAD_REQUEST', 'too large');
      return undefined;
    });
  const observed: Observed = { started: [], ended: [], acknowledged: [], dropped: [] };
  let online = true;

  const boot = () => {
    const platform = createMemoryPlatform({ storage, fetch: relay.fetch, online });
    const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL }, flushAt: 5, checkpointMs: 5_000, backgroundTimeoutMs: 20_000 });
    let alive = true;
    const on = <K extends keyof TrackerEventMap>(name: K, record: (event: TrackerEventMap[K]) => void) => tracker.on(name, (event) => void (alive && record(event)));
    on('session:start', (event) => observed.started.push(event.sessionId));
    on('session:end', (event) => observed.ended.push(event.sessionId));
    on('flushed', (event) => observed.acknowledged.push(...event.results.map((result) => result.sessionId)));
    on('dropped', (event) => observed.dropped.push({ sessionId: event.sessionId, reason: event.reason, kind: event.session?.metadata?.['kind'] }));
    return { platform, tracker, kill: () => (alive = false) };
  };

  let current = boot();
  for (const step of actions) {
    switch (step.type) {
      case 'start':
        current.tracker.start({ metadata: { kind: step.kind } });
        await advance(step.playMs);
        break;
      case 'stop':
        await current.tracker.stop();
        break;
      case 'advance':
        await advance(step.ms);
        break;
      case 'background':
        current.platform.background();
        break;
      case 'foreground':
        current.platform.foreground();
        break;
      case 'crash':
        current.platform.crash();
        current.kill();
        current = boot();
        break;
      case 'restart':
        await current.tracker.dispose();
        current = boot();
        break;
      case 'flush':
        await current.tracker.flush();
        break;
      case 'fail-next':
        failures.push(step.failure);
        break;
      case 'network':
        online = step.online;
        current.platform.setOnline(step.online);
        break;
    }
    await settle();
  }

  // Calm weather: the game stops, the next start-up drains everything.
  failures.length = 0;
  online = true;
  current.platform.setOnline(true);
  current.platform.foreground();
  await current.tracker.stop();
  await current.tracker.dispose();
  current = boot();
  for (let round = 0; round < 8 && (await storage.keys()).length > 0; round++) {
    await advance(400_000);
    await current.tracker.flush();
    await settle();
  }
  const leftInStorage = await storage.keys();
  await current.tracker.dispose();
  return { observed, relay, leftInStorage };
}

const count = (list: string[]) => list.reduce((map, id) => map.set(id, (map.get(id) ?? 0) + 1), new Map<string, number>());

describe('exactly once', () => {
  it('every started session ends once and is recorded once or dropped once, never both', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 60, size: 'medium' }), fc.integer(), async (actions, seed) => {
        const { observed, relay, leftInStorage } = await play(actions, seed);
        expect(leftInStorage).toEqual([]);
        const ended = count(observed.ended);
        expect([...ended.keys()].sort()).toEqual([...observed.started].sort());
        expect([...ended.values()].every((n) => n === 1)).toBe(true);
        const dropped = count(observed.dropped.map((d) => d.sessionId));
        for (const sessionId of observed.started) {
          const recorded = relay.successes.get(sessionId) ?? 0;
          const drops = dropped.get(sessionId) ?? 0;
          expect({ sessionId, outcome: recorded + drops }).toEqual({ sessionId, outcome: 1 });
          if (drops) expect(observed.acknowledged).not.toContain(sessionId);
        }
        expect(relay.recorded.size).toBe([...relay.successes.keys()].length);
        for (const drop of observed.dropped) {
          const expected = drop.reason === 'too-short' || drop.reason === 'too-large' ? true : drop.reason === 'invalid' ? drop.kind === 'bad' : drop.reason === 'rejected' ? drop.kind === 'fail' : false;
          expect({ ...drop, expected }).toEqual({ ...drop, expected: true });
        }
        expect(relay.maxInFlight).toBeLessThanOrEqual(1);
        vi.restoreAllMocks();
        vi.useRealTimers();
      }),
      { numRuns: 300 },
    );
  });
});
