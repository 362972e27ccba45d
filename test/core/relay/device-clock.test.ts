/**
 * Play dated by the relay's clock: a batch carries the device's wall clock at sending (`sentAt`), and the relay
 * moves every session by (its now - sentAt) before judging and forwarding it. Durations never change.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { TRANSIT_ALLOWANCE_MS } from '../../../core/relay/device-clock.js';
import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { read, relayOverFakeService, relayRequest } from './fake-service.js';

const NOW = Date.parse('2026-03-10T12:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** A 20-minute session of alice that ended 10 minutes ago by the true clock, as a device `offsetMs` off stamped it. */
function playedOn(offsetMs: number, sessionId = `s-${offsetMs}`): BulkPlaytimeItem {
  return { sessionId, userId: 'alice', durationSeconds: 1200, startedAt: iso(NOW - 30 * MINUTE + offsetMs), endedAt: iso(NOW - 10 * MINUTE + offsetMs) };
}

async function send(body: Record<string, unknown>) {
  const service = relayOverFakeService({ coalesceWindowMs: 0 });
  const answer = await read(await service.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice')));
  const forwarded = service.bulkCalls().flatMap((c) => (c.body as { sessions: BulkPlaytimeItem[] }).sessions);
  return { status: answer.status, body: answer.body, results: answer.body.data?.results as Array<{ status: string; error?: string }>, forwarded };
}

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('sentAt: the device clock corrected by the relay', () => {
  for (const [label, offset] of [
    ['10 min ahead', 10 * MINUTE],
    ['2 h ahead', 2 * HOUR],
    ['3 days ahead', 3 * DAY],
    ['9 h behind', -9 * HOUR],
    ['40 days behind', -40 * DAY],
  ] as const) {
    it(`records a session of a device ${label} at the true time, its duration unchanged`, async () => {
      const sent = playedOn(offset);
      const { results, forwarded } = await send({ sessions: [sent], sentAt: iso(NOW + offset) });
      expect(results.map((r) => r.status)).toEqual(['SUCCESS']);
      expect(forwarded).toEqual([{ ...sent, startedAt: iso(NOW - 30 * MINUTE), endedAt: iso(NOW - 10 * MINUTE) }]);
    });
  }

  it('without sentAt, judges the times as sent (a device 2 h ahead is in the future, as before)', async () => {
    const { results, forwarded } = await send({ sessions: [playedOn(2 * HOUR)] });
    expect(results[0]?.status).toBe('FAILED');
    expect(results[0]?.error).toMatch(/in the future/);
    expect(forwarded).toEqual([]);
  });

  it('leaves the times as sent when the difference is transit time, and moves them from the allowance on', async () => {
    const sent = playedOn(0);
    const small = await send({ sessions: [sent], sentAt: iso(NOW - (TRANSIT_ALLOWANCE_MS - 1)) });
    expect(small.forwarded).toEqual([sent]);
    const moved = await send({ sessions: [sent], sentAt: iso(NOW - TRANSIT_ALLOWANCE_MS) });
    expect(moved.forwarded[0]?.startedAt).toBe(iso(Date.parse(sent.startedAt) + TRANSIT_ALLOWANCE_MS));
  });

  it('still refuses play inflated after the correction, and what is too old or in the future by the relay clock', async () => {
    const offset = 3 * DAY;
    const inflated = { ...playedOn(offset, 'inflated'), durationSeconds: 1202 };
    const stale = { ...playedOn(offset, 'stale'), startedAt: iso(NOW - 31 * DAY + offset), endedAt: iso(NOW - 31 * DAY + offset + 1000), durationSeconds: 1 };
    const future = { ...playedOn(offset, 'future'), startedAt: iso(NOW + HOUR + offset), endedAt: iso(NOW + HOUR + offset + 1000), durationSeconds: 1 };
    const { results, forwarded } = await send({ sessions: [inflated, stale, future], sentAt: iso(NOW + offset) });
    expect(results.map((r) => r.status)).toEqual(['FAILED', 'FAILED', 'FAILED']);
    expect(results.map((r) => r.error)).toEqual([expect.stringMatching(/exceeds/), expect.stringMatching(/older than/), expect.stringMatching(/in the future/)]);
    expect(forwarded).toEqual([]);
  });

  it('refuses a sentAt that is not a timestamp with a VALIDATION_ERROR naming it, forwarding nothing', async () => {
    for (const sentAt of ['yesterday', 1_700_000_000_000, '2026-03-10T12:00:00Z', null]) {
      const { status, body, forwarded } = await send({ sessions: [playedOn(0)], sentAt });
      expect([status, body.code, forwarded]).toEqual([400, 'VALIDATION_ERROR', []]);
      expect(body.details).toEqual([expect.objectContaining({ path: 'sentAt' })]);
    }
  });

  it('a sentAt far from now cannot carry a session outside the window: moved to the year -10000, it is too old', async () => {
    const ancient = { ...playedOn(0, 'ancient'), startedAt: '0000-01-01T00:00:00.000Z', endedAt: '0000-01-01T00:00:01.000Z', durationSeconds: 1 };
    const { results } = await send({ sessions: [ancient], sentAt: '9999-12-31T23:59:59.999Z' });
    expect(results[0]?.status).toBe('FAILED');
  });
});
