/**
 * Coalescing end to end: 100 clients each send 5 sessions at once through a real relay to the emulator
 * (in-process); the service sees a handful of bulk calls and each client hears about its own 5 only.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, type Emulator } from '../../emulator/index.js';
import { createRelay, RELAY_ROUTES } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';
import type { BulkPlaytimeItem } from '../../core/schema/playtime.js';
import { at } from '../core/relay/fake-service.js';

const BULK = 'POST /v1/server/playtime/sessions/bulk';
const CLIENTS = 100;
const PER_CLIENT = 5;

let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function clientSessions(user: string): BulkPlaytimeItem[] {
  return Array.from({ length: PER_CLIENT }, (_, i) => ({
    sessionId: `${user}-session-${i}`,
    userId: user,
    durationSeconds: 30 + i,
    startedAt: at(0),
    endedAt: at(30 + i),
  }));
}

describe('relay coalescing against the emulator', () => {
  it('turns 100 clients x 5 sessions sent at once into a handful of bulk calls, answering each client with its own results', async () => {
    const emu = (emulator = createEmulator());
    const server = new CampaignServer({
      serverKey: emu.serverKey,
      environment: { baseUrl: 'http://emulator.local' },
      fetch: emu.fetch,
    });
    // A window wide enough that all 100 in-process requests arrive inside it, even on a busy machine.
    const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get('x-user') ?? '' }), coalesceWindowMs: 200 });
    const users = Array.from({ length: CLIENTS }, (_, i) => `player-${i}`);

    const answers = await Promise.all(
      users.map(async (user) => {
        const response = await relay.fetch(
          new Request(`http://game.local/campaign${RELAY_ROUTES.playtime}`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-user': user },
            body: JSON.stringify({ sessions: clientSessions(user) }),
          }),
        );
        return { user, status: response.status, body: (await response.json()) as { data: { totalRequested: number; successful: number; results: unknown[] } } };
      }),
    );

    const bulkCalls = emu.state().requests[BULK] ?? 0;
    console.log(`coalescing: ${CLIENTS} clients x ${PER_CLIENT} sessions -> ${bulkCalls} upstream bulk call(s)`);
    expect(bulkCalls).toBeGreaterThanOrEqual(1);
    expect(bulkCalls).toBeLessThanOrEqual(5);
    for (const { user, status, body } of answers) {
      expect(status).toBe(200);
      expect(body.data).toEqual({
        totalRequested: PER_CLIENT,
        successful: PER_CLIENT,
        failed: 0,
        skipped: 0,
        results: clientSessions(user).map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' })),
      });
    }
    const recorded = emu.state().sessions.map((s: { sessionId: string }) => s.sessionId).sort();
    expect(recorded).toEqual(users.flatMap((user) => clientSessions(user).map((s) => s.sessionId)).sort());
  });

  it('answers a resent batch SKIPPED, and a client cannot record sessions for another player', async () => {
    const emu = (emulator = createEmulator());
    const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: 'http://emulator.local' }, fetch: emu.fetch });
    const relay = createRelay({ server, authenticate: () => ({ userId: 'player-1' }), coalesceWindowMs: 0 });
    const send = async (sessions: BulkPlaytimeItem[]) =>
      (
        await relay.fetch(
          new Request(`http://game.local/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ sessions }) }),
        )
      ).json() as Promise<{ data: { results: Array<{ sessionId: string; status: string }> } }>;

    const first = await send([...clientSessions('player-1'), ...clientSessions('player-2')]);
    const again = await send(clientSessions('player-1'));
    expect(first.data.results.map((r) => r.status)).toEqual([...Array(PER_CLIENT).fill('SUCCESS'), ...Array(PER_CLIENT).fill('FAILED')]);
    expect(again.data.results.map((r) => r.status)).toEqual(Array(PER_CLIENT).fill('SKIPPED'));
    const recorded = emu.state().sessions.map((s: { userId: string }) => s.userId);
    expect(new Set(recorded)).toEqual(new Set(['player-1']));
    expect(recorded).toHaveLength(PER_CLIENT);
  });
});

/**
 * A player's outcome depends only on its own batch (issue 16): two players send within one merge window,
 * one of them something the service would refuse; the other's sessions are recorded all the same.
 */
describe('one player cannot fail another merged with it', () => {
  const SERVICE_BODY_LIMIT = 1024 * 1024;

  /** A relay in front of the emulator; `refuse` lets the test play a service rule the relay does not know. */
  function setUp(refuse?: (body: string) => boolean) {
    const emu = (emulator = createEmulator());
    const bulkBodies: string[] = [];
    const fetchThrough: typeof fetch = async (input, init) => {
      const request = new Request(input, init);
      if (new URL(request.url).pathname.endsWith('/bulk')) {
        const body = await request.clone().text();
        bulkBodies.push(body);
        if (refuse?.(body)) return Response.json({ status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: 'refused by a service rule' }, { status: 400 });
      }
      return emu.fetch(request);
    };
    const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: 'http://emulator.local' }, fetch: fetchThrough, maxRetries: 0 });
    const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get('x-user') ?? '' }), coalesceWindowMs: 200 });
    const send = async (user: string, body: string) => {
      const response = await relay.fetch(new Request(`http://game.local/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body }));
      return { status: response.status, body: (await response.json()) as { code?: string; details?: Array<{ path: string }>; data?: { successful: number } } };
    };
    const recorded = (user: string) => emu.state().sessions.filter((s: { userId: string }) => s.userId === user).length;
    return { send, recorded, bulkBodies };
  }
  const honest = (user: string) => JSON.stringify({ sessions: clientSessions(user) });

  it('a batch of 300 KB of 1e20 (1.32 MB re-serialized): the offender gets its own 400, the other is recorded', async () => {
    const { send, recorded, bulkBodies } = setUp();
    const numbers = Array.from({ length: 60_000 }, () => '1e20').join(',');
    const offending = honest('mallory').replace(/}\]}$/, `,"metadata":{"n":[${numbers}]}}]}`);
    const [mine, theirs] = await Promise.all([send('mallory', offending), send('alice', honest('alice'))]);
    expect([mine.status, mine.body.code, mine.body.details?.map((d) => d.path)]).toEqual([400, 'VALIDATION_ERROR', [`sessions.${PER_CLIENT - 1}`]]);
    expect([theirs.status, theirs.body.data?.successful]).toEqual([200, PER_CLIENT]);
    expect([recorded('alice'), recorded('mallory')]).toEqual([PER_CLIENT, 0]);
    for (const body of bulkBodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(SERVICE_BODY_LIMIT);
  });

  it('metadata nested 100 levels: the offender gets its own 400, the other is recorded', async () => {
    const { send, recorded } = setUp();
    const offending = honest('mallory').replace(/}\]}$/, `,"metadata":${'{"a":'.repeat(100)}1${'}'.repeat(100)}}]}`);
    const [mine, theirs] = await Promise.all([send('mallory', offending), send('alice', honest('alice'))]);
    expect([mine.status, mine.body.code, mine.body.details?.map((d) => d.path)]).toEqual([400, 'VALIDATION_ERROR', [`sessions.${PER_CLIENT - 1}.metadata`]]);
    expect([theirs.status, theirs.body.data?.successful]).toEqual([200, PER_CLIENT]);
    expect([recorded('alice'), recorded('mallory')]).toEqual([PER_CLIENT, 0]);
  });

  it('a batch the service refuses: the merged call is retried per player, the offender alone gets the refusal', async () => {
    const { send, recorded, bulkBodies } = setUp((body) => body.includes('"cheat"'));
    const offending = honest('mallory').replace(/}\]}$/, ',"metadata":{"cheat":true}}]}');
    const [mine, theirs] = await Promise.all([send('mallory', offending), send('alice', honest('alice'))]);
    expect([mine.status, mine.body.code]).toEqual([400, 'BAD_REQUEST']);
    expect([theirs.status, theirs.body.data?.successful]).toEqual([200, PER_CLIENT]);
    expect([recorded('alice'), recorded('mallory')]).toEqual([PER_CLIENT, 0]);
    expect(bulkBodies).toHaveLength(3); // merged, then each player alone
  });

  it('two honest ~600 KB batches in one window: both recorded, in calls under the service limit', async () => {
    const { send, recorded, bulkBodies } = setUp();
    const big = (user: string) =>
      JSON.stringify({ sessions: Array.from({ length: 500 }, (_, i) => ({ ...clientSessions(user)[0], sessionId: `${user}-big-${i}`, metadata: { note: 'x'.repeat(1000) } })) });
    const [a, b] = [big('alice'), big('bob')];
    expect(a.length).toBeGreaterThan(550_000);
    const answers = await Promise.all([send('alice', a), send('bob', b)]);
    expect(answers.map((answer) => [answer.status, answer.body.data?.successful])).toEqual([
      [200, 500],
      [200, 500],
    ]);
    expect([recorded('alice'), recorded('bob')]).toEqual([500, 500]);
    expect(bulkBodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bulkBodies) expect(new TextEncoder().encode(body).length).toBeLessThanOrEqual(SERVICE_BODY_LIMIT);
  });
});

describe('the same sessionId from two users', () => {
  it('is recorded for the first and SKIPPED for the second; the row stays the first user\'s (the spec\'s uniqueness rule)', async () => {
    const emu = (emulator = createEmulator());
    const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: 'http://emulator.local' }, fetch: emu.fetch });
    const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get('x-user') ?? '' }), coalesceWindowMs: 0 });
    const send = async (user: string) => {
      const session = { ...clientSessions(user)[0], sessionId: 'shared-session' };
      const response = await relay.fetch(
        new Request(`http://game.local/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify({ sessions: [session] }) }),
      );
      return ((await response.json()) as { data: { results: Array<{ status: string }> } }).data.results[0]?.status;
    };
    expect(await send('player-1')).toBe('SUCCESS');
    expect(await send('player-2')).toBe('SKIPPED');
    expect(emu.state().sessions.filter((s: { sessionId: string }) => s.sessionId === 'shared-session').map((s: { userId: string }) => s.userId)).toEqual(['player-1']);
  });
});
