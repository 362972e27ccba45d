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
