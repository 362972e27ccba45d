/**
 * Relay rows: sessions/s through relay -> emulator over loopback HTTP against a direct `recordBulk` of the
 * same batches (interleaved A/B rounds, medians), with one batch in flight and with four; and the relay's
 * own cost per session in front of a service that answers at once, against the floor of parsing and
 * serialising the same batch.
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
/** Batches each side sends per round, and rounds per concurrency (after one unrecorded warm-up round). */
const BATCHES_PER_ROUND = 16;
const ROUNDS = 7;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

/** Wall time and this process's CPU time (user + system) of one run, in ms. */
interface RunTime {
  wallMs: number;
  cpuMs: number;
}

/**
 * Sends every batch with `inFlight` of them outstanding at a time. Client, relay and emulator share this
 * process, so its CPU time is all the work a run took: on a machine other processes load, sessions per
 * CPU-second stays what the code costs while sessions per wall second falls with the share of CPU we got.
 */
async function timed(batches: RelaySession[][], inFlight: number, send: (batch: RelaySession[]) => Promise<void>): Promise<RunTime> {
  let next = 0;
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < batches.length) await send(batches[next++]!);
    }),
  );
  const cpu = process.cpuUsage(cpuStart);
  return { wallMs: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 };
}

/** One player's batch through the relay over HTTP, as the tracker sends it; fails unless all were recorded. */
async function viaRelay(relayUrl: string, batch: RelaySession[]): Promise<void> {
  const response = await fetch(`${relayUrl}${RELAY_ROUTES.playtime}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [USER_HEADER]: batch[0]!.userId },
    body: JSON.stringify({ sessions: batch }),
  });
  const body = (await response.json()) as { data?: { successful: number } };
  if (response.status !== 200 || body.data?.successful !== batch.length) throw new Error(`relay answered ${response.status}: ${JSON.stringify(body).slice(0, 300)}`);
}

async function direct(server: CampaignServer, batch: RelaySession[]): Promise<void> {
  const result = await server.playtime.recordBulk({ sessions: batch });
  if (result.successful !== batch.length) throw new Error(`recordBulk recorded ${result.successful} of ${batch.length}`);
}

/** Fresh batches, one player each (the relay's default limit is per player, as a real player base spreads it). */
let players = 0;
const freshBatches = () => Array.from({ length: BATCHES_PER_ROUND }, () => sessionsOf(`player-${++players}`, BATCH));

/** Interleaved rounds at one concurrency: relay then direct, direct then relay, ...; the emulator emptied before each run. */
async function throughputAt(loopback: Loopback, inFlight: number): Promise<BenchRow[]> {
  const { emulator, server, relayUrl } = loopback;
  const run = async (side: 'relay' | 'direct') => {
    const batches = freshBatches();
    emulator.reset();
    return timed(batches, inFlight, side === 'relay' ? (batch) => viaRelay(relayUrl, batch) : (batch) => direct(server, batch));
  };
  await run('relay');
  await run('direct');
  const relayRuns: RunTime[] = [];
  const directRuns: RunTime[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? (['relay', 'direct'] as const) : (['direct', 'relay'] as const);
    for (const side of order) (side === 'relay' ? relayRuns : directRuns).push(await run(side));
  }
  const sessions = BATCHES_PER_ROUND * BATCH;
  const rate = (ms: number) => (sessions / ms) * 1000;
  const spread = (values: number[]) => `${Math.round(Math.min(...values)).toLocaleString('en-US')}-${Math.round(Math.max(...values)).toLocaleString('en-US')}`;
  const how = `median of ${ROUNDS} interleaved rounds of ${BATCHES_PER_ROUND} x ${BATCH}-session batches`;
  const label = inFlight === 1 ? 'one batch in flight' : `${inFlight} batches in flight`;
  const rows: BenchRow[] = [];
  for (const clock of ['wall', 'cpu'] as const) {
    const relayMs = relayRuns.map((r) => (clock === 'wall' ? r.wallMs : r.cpuMs));
    const directMs = directRuns.map((r) => (clock === 'wall' ? r.wallMs : r.cpuMs));
    const ratios = relayMs.map((ms, i) => ms / directMs[i]!);
    const per = clock === 'wall' ? 'sessions/s' : 'sessions per CPU-second';
    rows.push(
      { section: SECTION, name: `relay -> emulator over loopback, ${label}, ${per}`, value: rate(median(relayMs)), unit: 'sessions/s', budget: { op: '>=', limit: 20_000 }, detail: `${how}; rounds ${spread(relayMs.map(rate))}` },
      { section: SECTION, name: `direct recordBulk -> emulator, ${label}, ${per}`, value: rate(median(directMs)), unit: 'sessions/s', detail: `same batches; rounds ${spread(directMs.map(rate))}` },
      {
        section: SECTION,
        name: `${clock === 'wall' ? 'time' : 'CPU time'} ratio relay / direct, ${label}`,
        value: median(ratios),
        unit: 'x',
        budget: { op: '<=', limit: 1.3 },
        detail: `median of per-round ratios; rounds ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}x`,
      },
    );
  }
  return rows;
}

export async function relayThroughputRows(): Promise<BenchRow[]> {
  // assumed: the emulator's per-key limit (50 requests/s by default) is off: it would cap both sides at 50 000/s.
  const loopback = await startLoopback({ faults: { rateLimitPerSecond: 0 } });
  try {
    return [...(await throughputAt(loopback, 1)), ...(await throughputAt(loopback, 4))];
  } finally {
    await loopback.close();
  }
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
