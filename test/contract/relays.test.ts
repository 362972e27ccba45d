/**
 * The contract's TS fake relays (relays.ts) answer a player's items as the real relay does (core/relay/playtime.ts
 * `answerPlaytime`, DESIGN section 6: the user is bound from the game's auth): no credentials 401, only another
 * user's items 403 FORBIDDEN, another user's item beside the player's own FAILED with `USER_MISMATCH_ERROR` and never
 * recorded. cs-runner/FakeRelay.cs follows the same rule (proved by kill-recovered-foreign-user.json on both runners).
 */
import { describe, expect, it } from 'vitest';
import { USER_MISMATCH_ERROR } from '../../core/relay/playtime.js';
import { createRelays, relayUrl } from './relays.js';

const session = (sessionId: string, userId: string) => ({
  sessionId,
  userId,
  startedAt: '2026-06-01T12:00:00.000Z',
  endedAt: '2026-06-01T12:00:05.000Z',
  durationSeconds: 5,
});
const ID1 = '11111111-1111-4111-8111-111111111111';
const ID2 = '22222222-2222-4222-8222-222222222222';

async function post(sessions: unknown[], authorization?: string) {
  const relays = createRelays();
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) };
  const body = JSON.stringify({ sessions, isTest: true, sentAt: '2026-06-01T12:00:06.000Z' });
  const response = await relays.fetch(`${relayUrl('g1', 'sandbox')}/playtime/sessions`, { method: 'POST', headers, body });
  return { relays, status: response.status, body: (await response.json()) as Record<string, any> };
}

describe('the contract relays follow the real relay on the player', () => {
  it('no credentials: 401 UNAUTHORIZED, nothing recorded', async () => {
    const { relays, status, body } = await post([session(ID1, 'p1')]);
    expect({ status, code: body['code'], received: relays.received.length, sends: relays.sends() }).toEqual({ status: 401, code: 'UNAUTHORIZED', received: 0, sends: 1 });
  });

  it("only another user's item: 403 FORBIDDEN, as answerPlaytime answers, nothing recorded", async () => {
    const { relays, status, body } = await post([session(ID1, 'p2')], 'Bearer p1');
    expect({ status, code: body['code'], received: relays.received.length, sends: relays.sends() }).toEqual({ status: 403, code: 'FORBIDDEN', received: 0, sends: 1 });
    expect(body['message']).toContain(USER_MISMATCH_ERROR);
  });

  it("another user's item beside the player's own: FAILED with the relay's error, only the player's recorded", async () => {
    const { relays, status, body } = await post([session(ID1, 'p2'), session(ID2, 'p1')], 'Bearer p1');
    expect(status).toBe(200);
    expect(body['data'].results).toEqual([
      { sessionId: ID1, status: 'FAILED', error: USER_MISMATCH_ERROR },
      { sessionId: ID2, status: 'SUCCESS' },
    ]);
    expect(relays.received.map(({ sessionId, player }) => ({ sessionId, player }))).toEqual([{ sessionId: ID2, player: 'p1' }]);
  });

  it('a batch the real relay refuses is answered as it does: over 1000 sessions 400 VALIDATION_ERROR, a body over 1 MiB 413', async () => {
    const many = Array.from({ length: 1001 }, (_, i) => session(`${String(i).padStart(8, '0')}-1111-4111-8111-111111111111`, 'p1'));
    const tooMany = await post(many, 'Bearer p1');
    expect({ status: tooMany.status, code: tooMany.body['code'], received: tooMany.relays.received.length }).toEqual({ status: 400, code: 'VALIDATION_ERROR', received: 0 });
    const large = await post([{ ...session(ID1, 'p1'), metadata: { note: 'x'.repeat(1024 * 1024) } }], 'Bearer p1');
    expect({ status: large.status, received: large.relays.received.length }).toEqual({ status: 413, received: 0 });
  });

  it("another user's item is the relay's own FAILED under a scripted item status too (it never reaches the service)", async () => {
    const relays = createRelays();
    relays.answer({ itemStatus: 'PENDING' });
    const body = JSON.stringify({ sessions: [session(ID1, 'p2'), session(ID2, 'p1')], sentAt: '2026-06-01T12:00:06.000Z' });
    const response = await relays.fetch(`${relayUrl('g1', 'live')}/playtime/sessions`, { method: 'POST', headers: { authorization: 'Bearer p1' }, body });
    expect(((await response.json()) as any).data.results).toEqual([
      { sessionId: ID1, status: 'FAILED', error: USER_MISMATCH_ERROR },
      { sessionId: ID2, status: 'PENDING' },
    ]);
  });
});
