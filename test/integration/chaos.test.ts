/**
 * Chaos: 50 simulated game clients (PlaytimeTracker on the memory platform, each with its own storage)
 * play more than 20 000 sessions through a real relay to the emulator, which fails 20 % of requests, drops
 * 5 % of connections, rate-limits and adds latency. Clients are disposed without flushing, or crash, at
 * random points and come back on the same storage. Once the faults stop and everything has drained, every
 * session a client started was ended, and every ended session is recorded by the emulator exactly once or
 * was reported in a 'dropped' event.
 *
 * Time is simulated (vi.useFakeTimers): one tick is one second of play; all randomness comes from seeds.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createEmulator, type Emulator } from '../../emulator/index.js';
import { createMemoryPlatform, createMemoryStorage, type MemoryPlatform } from '../../core/memory-platform.js';
import { createRelay } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import { PlaytimeTracker } from '../../core/tracker/index.js';
import type { KeyValueStorage } from '../../core/platform.js';

const CLIENTS = 50;
const TARGET_SESSIONS = 20_000;
const TICK_MS = 1_000;
const FAULTS = { errorRate: 0.2, dropRate: 0.05, latencyMs: 20, rateLimitPerSecond: 3 };
const RELAY_URL = 'http://game.local/campaign';

/** mulberry32: a small seeded PRNG, so every run makes the same choices. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Client {
  userId: string;
  storage: KeyValueStorage;
  platform: MemoryPlatform;
  tracker: PlaytimeTracker;
  running: boolean;
  backgroundTicks: number;
  generation: number;
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
    const choose = seeded(7);
    vi.spyOn(Math, 'random').mockImplementation(seeded(11)); // backoff jitter and the relay's Retry-After

    const emu = (emulator = createEmulator({ faults: FAULTS, random: seeded(13) }));
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
      const platform = createMemoryPlatform({ storage: client.storage, fetch: relayFetch, random: seeded(platformSeed++) });
      const tracker = new PlaytimeTracker({
        platform,
        userId: client.userId,
        relay: { url: RELAY_URL, headers: { 'x-player': client.userId } },
        flushIntervalMs: 3_000,
        checkpointMs: 2_000,
        backgroundTimeoutMs: 5_000,
      });
      tracker.on('session:start', ({ sessionId }) => void started.add(sessionId));
      tracker.on('session:end', ({ sessionId }) => void ended.add(sessionId));
      tracker.on('dropped', ({ sessionId, reason }) => void dropped.set(sessionId, reason));
      return { platform, tracker, generation };
    };

    const clients: Client[] = Array.from({ length: CLIENTS }, (_, i) => {
      const base = { userId: `player-${i}`, storage: createMemoryStorage() };
      return { ...base, ...spawn(base, 0), running: false, backgroundTicks: 0 };
    });
    let restarts = 0;
    let crashes = 0;
    let ticks = 0;

    while (ended.size < TARGET_SESSIONS) {
      ticks++;
      for (const client of clients) {
        const roll = choose();
        if (client.backgroundTicks > 0) {
          if (--client.backgroundTicks === 0) client.platform.foreground();
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
        } else if (roll < 0.1) {
          if (client.running) await client.tracker.stop();
          client.running = false;
        } else {
          client.tracker.start({ metadata: { tick: ticks } }); // ends the running session first
          client.running = true;
        }
      }
      await vi.advanceTimersByTimeAsync(TICK_MS);
    }

    // Faults off; every client stops playing; everything drains.
    emu.setFaults({ errorRate: 0, dropRate: 0, latencyMs: 0, rateLimitPerSecond: 0 });
    for (const client of clients) {
      client.platform.foreground();
      await client.tracker.stop();
    }
    const settled = () => {
      const recorded = new Set(emu.state().sessions.map((s: { sessionId: string }) => s.sessionId));
      return [...ended].every((id) => dropped.has(id) || recorded.has(id));
    };
    for (let round = 0; round < 40 && !settled(); round++) {
      await vi.advanceTimersByTimeAsync(30_000);
    }
    for (const client of clients) await client.tracker.flush();
    for (const client of clients) await client.tracker.dispose();

    const counts = new Map<string, number>();
    for (const { sessionId } of emu.state().sessions as Array<{ sessionId: string }>) counts.set(sessionId, (counts.get(sessionId) ?? 0) + 1);
    const lost = [...ended].filter((id) => !counts.has(id) && !dropped.has(id));
    const duplicated = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    const recordedAndDropped = [...ended].filter((id) => counts.has(id) && dropped.has(id));
    const neverEnded = [...started].filter((id) => !ended.has(id));
    const reasons: Record<string, number> = {};
    for (const reason of dropped.values()) reasons[reason] = (reasons[reason] ?? 0) + 1;
    const recordedOnce = [...ended].filter((id) => counts.get(id) === 1).length;
    console.log(
      `chaos: ${CLIENTS} clients, ${ticks} ticks, ${ended.size} sessions ended, ${recordedOnce} recorded exactly once, ` +
        `${dropped.size} dropped ${JSON.stringify(reasons)}, ${lost.length} lost, ${duplicated.length} duplicated, ` +
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
    expect(duplicated).toEqual([]);
    expect(recordedAndDropped).toEqual([]);
    expect(recordedOnce + dropped.size).toBe(ended.size);
    expect([...counts.keys()].filter((id) => !ended.has(id))).toEqual([]); // nothing recorded that no client ended
  }, 120_000);
});
