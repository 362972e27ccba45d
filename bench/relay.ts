/**
 * Relay rows: sessions/s through relay -> emulator over loopback HTTP against a bare proxy on the same
 * server stack that only parses, serialises and forwards to the same emulator endpoint (the floor any relay
 * pays), in interleaved paired rounds; and the relay's own cost per session in front of a service that
 * answers at once, against the floor of parsing and serialising the same batch.
 */
import { Bench } from 'tinybench';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { CampaignServer, createRelay, RELAY_ROUTES, type RelaySession } from '../core/server/index.js';
import { sessionsOf } from './fixtures.js';
import { latency } from './latency.js';
import type { BenchRow } from './report.js';
import { startLoopback, USER_HEADER, type Loopback } from './servers.js';

const SECTION = 'relay';
const BATCH = 1_000;
/** Batches each side sends per round, clients in flight, and paired rounds (after one unrecorded warm-up round). */
const BATCHES_PER_ROUND = 24;
const IN_FLIGHT = 4;
const PAIRED_ROUNDS = 9;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Wall time and this process's CPU time (user + system) of one side of a round, in ms. */
interface RunTime {
  wallMs: number;
  cpuMs: number;
}

type Side = 'relay' | 'bare proxy';

/**
 * One player's batch, as the tracker sends it (with `sentAt`, its clock at sending), POSTed to `url`;
 * fails unless the service recorded all of it. Both sides answer `{ data: BulkPlaytimeResult }`.
 */
async function post(url: string, batch: RelaySession[]): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [USER_HEADER]: batch[0]!.userId },
    body: JSON.stringify({ sessions: batch, sentAt: new Date().toISOString() }),
  });
  const body = (await response.json()) as { data?: { successful: number } };
  if (response.status !== 200 || body.data?.successful !== batch.length) throw new Error(`answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
}

/** Fresh batches, one player each (the relay's default limit is per player, as a real player base spreads it). */
let players = 0;
const freshBatches = () => Array.from({ length: BATCHES_PER_ROUND }, () => sessionsOf(`player-${++players}`, BATCH));

/** `gc()`, which `npm run bench` exposes (node --expose-gc). */
const collectGarbage = (globalThis as { gc?: () => void }).gc;

/**
 * One paired round: a tinybench task per side, run one after the other in `order`, each sending
 * {@link BATCHES_PER_ROUND} fresh batches with {@link IN_FLIGHT} clients in flight (tinybench's task
 * concurrency); the emulator emptied, the heap collected, and the wall and CPU clocks read around each side's
 * iterations. Client, proxies and emulator share this process, so its CPU time is all the work a side took.
 * The collection before each side keeps one side's garbage (and the fixtures', and the emulator's store) off
 * the other's clock: without it, a full collection fell every second side, so on the first side of each
 * round, and the rounds' ratios split into two groups by order rather than by work.
 */
async function pairedRound(loopback: Loopback, order: readonly Side[]): Promise<Record<Side, RunTime>> {
  const bench = new Bench({ concurrency: 'task', threshold: IN_FLIGHT, iterations: BATCHES_PER_ROUND, time: 0, warmup: false, throws: true });
  const times = {} as Record<Side, RunTime>;
  for (const side of order) {
    const url = side === 'relay' ? `${loopback.relayUrl}${RELAY_ROUTES.playtime}` : loopback.bareProxyUrl;
    let batches: RelaySession[][] = [];
    let started = 0;
    let cpuStart = process.cpuUsage();
    bench.add(side, () => post(url, batches.pop()!), {
      beforeAll: () => {
        batches = freshBatches();
        loopback.emulator.reset();
        collectGarbage?.();
        cpuStart = process.cpuUsage();
        started = performance.now();
      },
      afterAll: () => {
        const cpu = process.cpuUsage(cpuStart);
        times[side] = { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
      },
    });
  }
  await bench.run();
  return times;
}

export async function relayThroughputRows(): Promise<BenchRow[]> {
  // assumed: the emulator's per-key limit (50 requests/s by default) is off: it would cap both sides at 50 000/s.
  const loopback = await startLoopback({ faults: { rateLimitPerSecond: 0 } });
  const rounds: Array<Record<Side, RunTime>> = [];
  try {
    await pairedRound(loopback, ['relay', 'bare proxy']); // warm-up: loads and compiles both paths
    for (let round = 0; round < PAIRED_ROUNDS; round++) {
      rounds.push(await pairedRound(loopback, round % 2 === 0 ? ['relay', 'bare proxy'] : ['bare proxy', 'relay']));
    }
  } finally {
    await loopback.close();
  }
  const sessions = BATCHES_PER_ROUND * BATCH;
  const rate = (ms: number) => (sessions / ms) * 1000;
  const spread = (values: number[]) => `${Math.round(Math.min(...values)).toLocaleString('en-US')}-${Math.round(Math.max(...values)).toLocaleString('en-US')}`;
  const how = `median of ${PAIRED_ROUNDS} paired rounds of ${BATCHES_PER_ROUND} x ${BATCH}-session batches (with sentAt), ${IN_FLIGHT} in flight`;
  const rows: BenchRow[] = [];
  for (const clock of ['wall', 'cpu'] as const) {
    const ms = (side: Side) => rounds.map((round) => (clock === 'wall' ? round[side].wallMs : round[side].cpuMs));
    const relayMs = ms('relay');
    const bareMs = ms('bare proxy');
    const ratios = relayMs.map((relay, i) => relay / bareMs[i]!);
    const per = clock === 'wall' ? 'sessions/s' : 'sessions per CPU-second';
    rows.push(
      { section: SECTION, name: `relay -> emulator over loopback, ${per}`, value: rate(median(relayMs)), unit: 'sessions/s', budget: { op: '>=', limit: 20_000 }, detail: `${how}; rounds ${spread(relayMs.map(rate))}` },
      { section: SECTION, name: `bare proxy -> emulator over loopback, ${per}`, value: rate(median(bareMs)), unit: 'sessions/s', detail: `same server stack, fetch and endpoint; parse, stringify, forward; rounds ${spread(bareMs.map(rate))}` },
      {
        section: SECTION,
        name: `${clock === 'wall' ? 'time' : 'CPU time'} ratio relay / bare proxy`,
        value: median(ratios),
        unit: 'x',
        budget: { op: '<=', limit: 1.15 },
        detail: `median of the ${PAIRED_ROUNDS} paired rounds' ratios; rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x`,
      },
    );
  }
  return rows;
}

/**
 * The relay's own work per session: `relay.fetch` of one 1000-session batch in process, in front of a
 * Server API whose fetch answers at once with the batch's results (prepared beforehand), against
 * `JSON.stringify(JSON.parse(body))` of the same body: the least any relay that reads and forwards JSON does.
 */
export async function relayOwnCostRows(): Promise<BenchRow[]> {
  const batch = sessionsOf('player-own-cost', BATCH);
  const body = JSON.stringify({ sessions: batch });
  const answer = JSON.stringify({ data: { totalRequested: BATCH, successful: BATCH, failed: 0, skipped: 0, results: batch.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } });
  const server = new CampaignServer({
    serverKey: 'sk_bench:ss_bench_secret',
    environment: { baseUrl: 'http://stub.local' },
    fetch: async () => new Response(answer, { status: 200, headers: { 'content-type': 'application/json' } }),
    maxRetries: 0,
  });
  // One player sends every batch here: a limit it never meets, so every request does the full work.
  const rateLimiter = new RateLimiterMemory({ points: 1e9, duration: 1 });
  const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get(USER_HEADER) ?? '' }), rateLimiter });
  const send = async () => {
    const response = await relay.fetch(
      new Request(`http://game.local/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json', [USER_HEADER]: 'player-own-cost' }, body }),
    );
    const text = await response.text();
    if (response.status !== 200) throw new Error(`relay answered ${response.status}: ${text.slice(0, 300)}`);
  };
  const bench = new Bench({ time: 2_000, warmupTime: 500, throws: true });
  bench.add('relay', send, { async: true });
  bench.add('floor', () => JSON.stringify(JSON.parse(body)));
  await bench.run();
  const relayCost = latency(bench.tasks[0]!);
  const floor = latency(bench.tasks[1]!);
  const perSession = (ms: number) => (ms * 1000) / BATCH;
  return [
    {
      section: SECTION,
      name: "relay's own cost per session (stub service, in process)",
      value: perSession(relayCost.p50),
      unit: 'µs',
      detail: `p50 of ${relayCost.samples} requests of ${BATCH} sessions (${relayCost.p50.toFixed(2)} ms each); p99 ${perSession(relayCost.p99).toFixed(2)} µs/session`,
    },
    { section: SECTION, name: 'floor: JSON.parse + JSON.stringify of the same batch, per session', value: perSession(floor.p50), unit: 'µs', detail: `p50 of ${floor.samples} runs` },
    { section: SECTION, name: "relay's own cost / floor", value: relayCost.p50 / floor.p50, unit: 'x', detail: 'how far the relay is from the least work a JSON relay does' },
  ];
}
