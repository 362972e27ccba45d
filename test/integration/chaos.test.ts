/**
 * Chaos: 50 simulated game clients (PlaytimeTracker on the memory platform, each with its own storage)
 * play more than 20 000 sessions through a real relay to the emulator, which fails 20 % of requests, drops
 * 5 % of connections, rate-limits and adds latency. Clients are disposed without flushing, or crash, at
 * random points and come back on the same storage. Once the faults stop and everything has drained, every
 * session a client started was ended, and every ended session is recorded by the emulator exactly once or
 * was reported in a 'dropped' event.
 *
 * Nothing is counted twice. The emulator keeps one row per sessionId (a second copy of an id is SKIPPED), so
 * double counting cannot show as a repeated id; it shows as play time recorded twice under different ids (a
 * recovered copy under a new id, a resumed session re-sent as a new one, background time counted as play).
 * So the test keeps its own account of the play it simulated for each player (the time it advanced while
 * that player's session ran in the foreground) and checks, per player, that the recorded durations add up to
 * no more than that, and that no two recorded sessions of one player overlap in time.
 *
 * Time is simulated (vi.useFakeTimers): one tick is one second of play; all randomness comes from seeds.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, type Emulator } from '../../emulator/index.js';
import { createMemoryPlatform, createMemoryStorage, seededRandom, type MemoryPlatform } from '../../core/memory-platform.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { PlaytimeTracker } from '../../core/tracker/index.js';
import type { KeyValueStorage } from '../../core/platform.js';

const CLIENTS = 50;
const TARGET_SESSIONS = 20_000;
const TICK_MS = 1_000;
const FAULTS = { errorRate: 0.2, dropRate: 0.05, latencyMs: 20, rateLimitPerSecond: 3 };
const RELAY_URL = 'http://game.local/campaign';
const BACKGROUND_TIMEOUT_MS = 5_000;

interface Client {
  userId: string;
  storage: KeyValueStorage;
  platform: MemoryPlatform;
  tracker: PlaytimeTracker;
  /** The test's own model: a session of this player is open (started, not yet stopped, disposed, crashed or timed out in the background). */
  running: boolean;
  /** Ticks left in the background; 0 in the foreground. */
  backgroundTicks: number;
  /** The background time-out ended the open session: the tracker continues it when the player is back. */
  timedOut: boolean;
  generation: number;
  /** Simulated play: ms the test advanced the clock while this player's session ran in the foreground. */
  playedMs: number;
}

interface RecordedSession {
  sessionId: string;
  userId: string;
  durationSeconds: number;
  startedAt: string;
  endedAt: string;
}

let emulator: Emulator | undefined;
afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await emulator?.close();
  emulator = undefined;
});

describe('chaos: many clients, a failing service, crashing clients', () => {
  it('records every ended session exactly once or reports it dropped', async () => {
    vi.useFakeTimers({ now: new Date('2024-05-01T00:00:00.000Z') });
    const choose = seededRandom(7);
    vi.spyOn(Math, 'random').mockImplementation(seededRandom(11)); // backoff jitter and the relay's Retry-After

    const emu = (emulator = createEmulator({ faults: FAULTS, random: seededRandom(13) }));
    const upstream: Record<string, number> = {};
    const relayAnswers: Record<string, number> = {};
    const tally = (counts: Record<string, number>, key: string | number) => void (counts[key] = (counts[key] ?? 0) + 1);
    const serviceFetch = async (input: string | Request, init?: RequestInit) => {
      try {
        const response = await emu.fetch(input, init);
        tally(upstream, response.status);
        return response;
      } catch (error) {
        tally(upstream, 'dropped');
        throw error;
      }
    };
    const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: 'http://emulator.local' }, fetch: serviceFetch, maxRetries: 0, timeoutMs: 5_000 });
    const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get('x-player') ?? '' }) });
    const relayFetch = async (input: string | Request, init?: RequestInit) => {
      const response = await relay.fetch(new Request(input, init));
      tally(relayAnswers, response.status);
      return response;
    };

    const started = new Set<string>();
    const ended = new Set<string>();
    const dropped = new Map<string, string>();
    let platformSeed = 1000;

    const spawn = (client: Pick<Client, 'userId' | 'storage'>, generation: number) => {
      const platform = createMemoryPlatform({ storage: client.storage, fetch: relayFetch, random: seededRandom(platformSeed++) });
      const tracker = new PlaytimeTracker({
        platform,
        userId: client.userId,
        relay: { url: RELAY_URL, headers: { 'x-player': client.userId } },
        flushIntervalMs: 3_000,
        checkpointMs: 2_000,
        backgroundTimeoutMs: BACKGROUND_TIMEOUT_MS,
      });
      tracker.on('session:start', ({ sessionId }) => void started.add(sessionId));
      tracker.on('session:end', ({ sessionId }) => void ended.add(sessionId));
      tracker.on('dropped', ({ sessionId, reason }) => void dropped.set(sessionId, reason));
      return { platform, tracker, generation };
    };

    const clients: Client[] = Array.from({ length: CLIENTS }, (_, i) => {
      const base = { userId: `player-${i}`, storage: createMemoryStorage() };
      return { ...base, ...spawn(base, 0), running: false, backgroundTicks: 0, timedOut: false, playedMs: 0 };
    });
    let restarts = 0;
    let crashes = 0;
    let ticks = 0;
    /** Moves the clock, crediting the time as play to every player whose session runs in the foreground. */
    const advance = async (ms: number) => {
      for (const client of clients) if (client.running && client.backgroundTicks === 0) client.playedMs += ms;
      await vi.advanceTimersByTimeAsync(ms);
    };

    while (ended.size < TARGET_SESSIONS) {
      ticks++;
      for (const client of clients) {
        const roll = choose();
        if (client.backgroundTicks > 0) {
          if (--client.backgroundTicks === 0) {
            client.platform.foreground();
            // Back after a background that ended the session: the tracker continues it as a new one by itself.
            client.running ||= client.timedOut;
            client.timedOut = false;
          }
          continue;
        }
        if (roll < 0.01) {
          // Disposed without flushing: the running session is ended and queued for the next start-up.
          await client.tracker.dispose();
          Object.assign(client, spawn(client, client.generation + 1), { running: false });
          restarts++;
        } else if (roll < 0.02) {
          // Crash: storage and network die mid-flight; the next tracker recovers the session from its checkpoint.
          client.platform.crash();
          await client.tracker.dispose();
          Object.assign(client, spawn(client, client.generation + 1), { running: false });
          crashes++;
        } else if (roll < 0.05) {
          client.platform.background();
          client.backgroundTicks = 1 + Math.floor(choose() * 8); // sometimes beyond backgroundTimeoutMs
          // A background of the timeout or longer ends the session while in the background (no play either way);
          // the return continues it.
          if (client.backgroundTicks * TICK_MS >= BACKGROUND_TIMEOUT_MS) {
            client.timedOut = client.running;
            client.running = false;
          }
        } else if (roll < 0.1) {
          if (client.running) await client.tracker.stop();
          client.running = false;
        } else {
          client.tracker.start({ metadata: { tick: ticks } }); // ends the running session first
          client.running = true;
        }
      }
      await advance(TICK_MS);
    }

    // Faults off; every client stops playing; everything drains.
    emu.setFaults({ errorRate: 0, dropRate: 0, latencyMs: 0, rateLimitPerSecond: 0 });
    for (const client of clients) {
      client.platform.foreground();
      await client.tracker.stop();
      Object.assign(client, { running: false, backgroundTicks: 0, timedOut: false });
    }
    const settled = () => {
      const recorded = new Set(emu.state().sessions.map((s: { sessionId: string }) => s.sessionId));
      return [...ended].every((id) => dropped.has(id) || recorded.has(id));
    };
    for (let round = 0; round < 40 && !settled(); round++) {
      await advance(30_000);
    }
    for (const client of clients) await client.tracker.flush();
    for (const client of clients) await client.tracker.dispose();

    const recordedSessions = emu.state().sessions as RecordedSession[];
    const counts = new Map<string, number>();
    for (const { sessionId } of recordedSessions) counts.set(sessionId, (counts.get(sessionId) ?? 0) + 1);
    const lost = [...ended].filter((id) => !counts.has(id) && !dropped.has(id));
    const recordedAndDropped = [...ended].filter((id) => counts.has(id) && dropped.has(id));
    const neverEnded = [...started].filter((id) => !ended.has(id));
    const reasons: Record<string, number> = {};
    for (const reason of dropped.values()) reasons[reason] = (reasons[reason] ?? 0) + 1;
    const recordedOnce = [...ended].filter((id) => counts.get(id) === 1).length;

    // Play time per player: recorded (each session floor(played / 1000) s, so never above the play) against simulated.
    const byUser = new Map<string, RecordedSession[]>(clients.map((client) => [client.userId, []]));
    for (const session of recordedSessions) byUser.get(session.userId)?.push(session);
    const strangers = recordedSessions.filter((session) => !byUser.has(session.userId)).map((s) => s.sessionId);
    const playtime = clients.map((client) => ({
      userId: client.userId,
      simulatedMs: client.playedMs,
      recordedMs: (byUser.get(client.userId) ?? []).reduce((sum, s) => sum + s.durationSeconds * 1000, 0),
    }));
    const overcounted = playtime.filter((p) => p.recordedMs > p.simulatedMs);
    // Overlaps: sorted by start, each session must start no earlier than every earlier one of that player ended.
    const overlaps: Array<[string, string]> = [];
    for (const list of byUser.values()) {
      const sorted = list.map((s) => ({ ...s, from: Date.parse(s.startedAt), to: Date.parse(s.endedAt) })).sort((a, b) => a.from - b.from || a.to - b.to);
      let latest: (typeof sorted)[number] | undefined;
      for (const session of sorted) {
        if (latest && session.from < latest.to) overlaps.push([latest.sessionId, session.sessionId]);
        if (!latest || session.to > latest.to) latest = session;
      }
    }
    const simulatedSeconds = playtime.reduce((sum, p) => sum + p.simulatedMs, 0) / 1000;
    const recordedSeconds = playtime.reduce((sum, p) => sum + p.recordedMs, 0) / 1000;
    const tightest = Math.max(...playtime.map((p) => (p.recordedMs === 0 ? 0 : p.recordedMs / p.simulatedMs)));
    console.log(
      `chaos: ${CLIENTS} clients, ${ticks} ticks, ${ended.size} sessions ended, ${recordedOnce} recorded exactly once, ` +
        `${dropped.size} dropped ${JSON.stringify(reasons)}, ${lost.length} lost, ` +
        `play ${recordedSeconds} s recorded of ${simulatedSeconds} s simulated (highest player ratio ${tightest.toFixed(3)}), ` +
        `${overcounted.length} players over their play time, ${overlaps.length} overlapping session pairs, ` +
        `${restarts} disposals, ${crashes} crashes; service answers ${JSON.stringify(upstream)}, relay answers ${JSON.stringify(relayAnswers)}`,
    );

    // The faults really happened: failures, dropped connections and rate limiting, answered 503 by the relay.
    expect(upstream['500']).toBeGreaterThan(0);
    expect(upstream['dropped']).toBeGreaterThan(0);
    expect(upstream['429']).toBeGreaterThan(0);
    expect(relayAnswers['503']).toBeGreaterThan(0);
    expect(crashes).toBeGreaterThan(0);
    expect(restarts).toBeGreaterThan(0);

    expect(ended.size).toBeGreaterThanOrEqual(TARGET_SESSIONS);
    expect(neverEnded).toEqual([]);
    expect(lost).toEqual([]);
    expect(recordedAndDropped).toEqual([]);
    expect(recordedOnce + dropped.size).toBe(ended.size);
    expect([...counts.keys()].filter((id) => !ended.has(id))).toEqual([]); // nothing recorded that no client ended

    // Nothing counted twice: no player has more recorded play than the test simulated, no two sessions overlap.
    expect(strangers).toEqual([]);
    expect(simulatedSeconds).toBeGreaterThan(0);
    expect(overcounted).toEqual([]);
    expect(overlaps).toEqual([]);
  }, 120_000);
});
