/**
 * Copies of one session id in flight at once (twice in a body, or in overlapping requests inside the coalescing
 * window) under the daily cap: the first is recorded, each other copy is SKIPPED as the service answers a duplicate,
 * the cap is spent once, and a first copy that was not recorded never makes its copy SKIPPED.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { reply } from '../../helpers/fake-fetch.js';
import { read, relayOverFakeService, relayRequest } from './fake-service.js';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const DAY = Date.parse('2026-03-10T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();
const post = (sessions: BulkPlaytimeItem[], user = 'alice') => relayRequest('POST', RELAY_ROUTES.playtime, { sessions }, user);
let next = 0;
function played(seconds: number, userId = 'alice'): BulkPlaytimeItem {
  const start = DAY + 1000 + next * 1000;
  return { sessionId: `c-${next++}`, userId, durationSeconds: seconds, startedAt: iso(start), endedAt: iso(start + seconds * 1000) };
}
const statuses = async (answer: Promise<Response>) => (await read(await answer)).body.data.results.map((r: { status: string }) => r.status);

beforeEach(() => vi.useFakeTimers({ now: NOW, toFake: ['Date'] }));
afterEach(() => vi.useRealTimers());

describe('copies of one session under the daily cap', () => {
  it('answers a copy in the same body SKIPPED and spends the cap once', async () => {
    const service = relayOverFakeService({ coalesceWindowMs: 0, dailyPlaytimeCap: { seconds: 150 } });
    const session = played(100);
    expect(await statuses(service.relay.fetch(post([session, session])))).toEqual(['SUCCESS', 'SKIPPED']);
    expect(await statuses(service.relay.fetch(post([played(50)])))).toEqual(['SUCCESS']); // 100 + 50: the cap
  });

  it('answers a copy in an overlapping request SKIPPED; another player is untouched', async () => {
    const service = relayOverFakeService({ coalesceWindowMs: 30, dailyPlaytimeCap: { seconds: 150 } });
    const session = played(100);
    const bobs = played(100, 'bob'); // bob's own budget: alice's copies never touch it
    const [flush, keepalive, bob] = await Promise.all([
      statuses(service.relay.fetch(post([session]))),
      statuses(service.relay.fetch(post([session]))),
      statuses(service.relay.fetch(post([bobs], 'bob'))),
    ]);
    expect([...flush, ...keepalive].sort()).toEqual(['SKIPPED', 'SUCCESS']);
    expect(bob).toEqual(['SUCCESS']);
    expect(await statuses(service.relay.fetch(post([played(50)])))).toEqual(['SUCCESS']);
  });

  it('never answers a copy SKIPPED when the first copy failed upstream', async () => {
    const service = relayOverFakeService({ coalesceWindowMs: 0, dailyPlaytimeCap: { seconds: 150 } });
    service.fake.push(reply.error(500, 'INTERNAL_ERROR', 'boom'));
    const session = played(100);
    const answer = await read(await service.relay.fetch(post([session, session])));
    expect(answer.status).toBeGreaterThanOrEqual(500);
    expect(JSON.stringify(answer.body)).not.toContain('SKIPPED');
    expect(await statuses(service.relay.fetch(post([session, session])))).toEqual(['SUCCESS', 'SKIPPED']);
  });
});
