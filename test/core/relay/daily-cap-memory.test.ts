// The daily cap counted in memory (no storeClient): what a relay holds for players with ever-new ids (guests, or a
// hostile client signing in as new players), and for how long. Before, rate-limiter-flexible's memory store held each
// player-day about 1 KB and each kept session ~540 B (a timer each) for 24.8 days from when it was made, without
// bound; and a session sent 25 to 30 days late (within the default 30-day age) found its day's count gone.
// The clock is injected (vi's Date, and DayCounts' `now`): no timing is asserted.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { DAILY_CAP_ERROR, DailyPlaytimeCap } from '../../../core/relay/daily-cap.js';
import { DAY_COUNTS_MARGIN_MS, DayCounts, DayCountsFullError } from '../../../core/relay/day-counts.js';
import { DEFAULT_MAX_SESSION_AGE_MS } from '../../../core/relay/plausibility.js';
import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { read, relayOverFakeService, relayRequest } from './fake-service.js';

const DAY = 86_400_000;
/** Midnight UTC starting 2026-03-10, day 20522. */
const MIDNIGHT = Date.parse('2026-03-10T00:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let next = 0;
function played(start: number, seconds: number, userId: string): BulkPlaytimeItem {
  return { sessionId: `m-${next++}`, userId, durationSeconds: seconds, startedAt: iso(start), endedAt: iso(start + seconds * 1000) };
}

function relayWithCap(cap: { seconds: number; maxKeysInMemory?: number }) {
  const service = relayOverFakeService({ coalesceWindowMs: 0, dailyPlaytimeCap: cap });
  const send = async (sessions: BulkPlaytimeItem[], user: string) => {
    const answer = await read(await service.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions }, user)));
    return { status: answer.status, body: answer.body, retryAfter: answer.headers.get('retry-after'), results: (answer.body.data?.results ?? []).map((r: { status: string }) => r.status) };
  };
  const forwarded = () => service.bulkCalls().flatMap((c) => (c.body as { sessions: BulkPlaytimeItem[] }).sessions.map((s) => s.sessionId));
  return { send, forwarded };
}

beforeEach(() => {
  vi.useFakeTimers({ now: MIDNIGHT + 12 * 3_600_000, toFake: ['Date'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('the daily cap in memory: how long a day is counted', () => {
  it('still counts a full day for a session sent 29 days later (within the 30-day age); on 94cab877 it was gone after 24.8 days', async () => {
    const { send } = relayWithCap({ seconds: 3600 });
    expect((await send([played(MIDNIGHT + 3_600_000, 3600, 'alice')], 'alice')).results).toEqual(['SUCCESS']);
    // The phone was offline: a session played that day arrives 29 days later; the day's hour is spent.
    vi.setSystemTime(MIDNIGHT + 29 * DAY);
    const late = await send([played(MIDNIGHT + 10 * 3_600_000, 600, 'alice')], 'alice');
    expect(late.body.data.results[0]).toMatchObject({ status: 'FAILED', error: DAILY_CAP_ERROR });
  });

  it("drops a day's counts and marks once no session on it can be accepted, and not before", async () => {
    let now = MIDNIGHT + 3_600_000;
    const cap = new DailyPlaytimeCap({ seconds: 3600 }, DEFAULT_MAX_SESSION_AGE_MS, undefined, () => now);
    const counts = new DayCounts(3600, DEFAULT_MAX_SESSION_AGE_MS, { held: 0, max: 10 }, () => now);
    for (let i = 0; i < 5; i++) await counts.consume(`guest-${i}:2026-03-10`, 60, { day: MIDNIGHT / DAY });
    // The last instant a session started on that day is accepted, plus the margin for a clock stepped back.
    const lastAccepted = MIDNIGHT + DAY - 1 + DEFAULT_MAX_SESSION_AGE_MS;
    now = lastAccepted + DAY_COUNTS_MARGIN_MS;
    await counts.consume('guest-new:2026-04-09', 60, { day: Math.floor(now / DAY) });
    await expect(counts.get('guest-0:2026-03-10', { day: MIDNIGHT / DAY })).resolves.toEqual({ consumedPoints: 60 });
    now += 2; // one ms past the day's end plus the age and margin
    await counts.consume('guest-newer:2026-04-09', 60, { day: Math.floor(now / DAY) });
    await expect(counts.get('guest-0:2026-03-10', { day: MIDNIGHT / DAY })).resolves.toBeNull();
    // The cap itself, through its public calls: a day full at the last accepted instant, empty after.
    now = MIDNIGHT + 3_600_000;
    const full = played(MIDNIGHT + 60_000, 3600, 'alice');
    const taken = await cap.take('alice', full);
    await cap.keepOnce(full.sessionId, taken!);
    now = lastAccepted;
    await expect(cap.take('alice', played(MIDNIGHT + DAY - 2000, 1, 'alice'))).resolves.toBeUndefined();
  });
});

describe('the daily cap in memory: at most maxKeysInMemory keys', () => {
  it('answers a new player 503 when full (kept, retried), lets counted players go on within their cap, and takes new ones once days expire', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    // 4 keys: two guests' day counts and their sessions' marks.
    const { send, forwarded } = relayWithCap({ seconds: 600, maxKeysInMemory: 4 });
    const start = MIDNIGHT + 3_600_000;
    for (const guest of ['g1', 'g2']) expect((await send([played(start, 300, guest)], guest)).results).toEqual(['SUCCESS']);
    const before = forwarded().length;
    const turnedAway = await send([played(start, 60, 'g3')], 'g3');
    expect(turnedAway.status).toBe(503);
    expect(turnedAway.body.message).toMatch(/maxKeysInMemory: 4/);
    expect(Number(turnedAway.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(forwarded().length).toBe(before); // nothing forwarded nor counted for g3
    // g1, counted today, goes on: within the cap recorded (its mark cannot be held: counted all the same), past it FAILED.
    expect((await send([played(start + 600_000, 300, 'g1')], 'g1')).results).toEqual(['SUCCESS']);
    expect((await send([played(start + 1_200_000, 1, 'g1')], 'g1')).results).toEqual(['FAILED']);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/maxKeysInMemory: 4.*storeClient/);
    // Once that day's sessions can no longer come (30 days, the default age), its keys go and g3 is taken.
    vi.setSystemTime(MIDNIGHT + DAY + DEFAULT_MAX_SESSION_AGE_MS + DAY_COUNTS_MARGIN_MS + 1);
    expect((await send([played(Date.now() - 120_000, 60, 'g3')], 'g3')).results).toEqual(['SUCCESS']);
  });

  it("frees the other store's past days too (the marks), so a budget full of them takes new players again", async () => {
    let now = MIDNIGHT + 3_600_000;
    const budget = { held: 0, max: 3 };
    const counts = new DayCounts(3600, DEFAULT_MAX_SESSION_AGE_MS, budget, () => now);
    const marks = new DayCounts(1, DEFAULT_MAX_SESSION_AGE_MS, budget, () => now);
    for (const mark of ['s-1', 's-2', 's-3']) await marks.consume(`${mark}:20522`, 1, { day: 20522 });
    await expect(counts.consume('bob:2026-03-10', 60, { day: 20522 })).rejects.toBeInstanceOf(DayCountsFullError);
    // The marks store gets no call (no session is kept while every take is refused): the counts' sweep frees its days.
    now = MIDNIGHT + DAY + DEFAULT_MAX_SESSION_AGE_MS + DAY_COUNTS_MARGIN_MS + 1;
    const today = Math.floor(now / DAY);
    await expect(counts.consume('bob:today', 60, { day: today })).resolves.toMatchObject({ consumedPoints: 60 });
    expect(budget.held).toBe(1);
  });

  it('never lets a full memory take seconds for a player it cannot count', async () => {
    const counts = new DayCounts(100, DEFAULT_MAX_SESSION_AGE_MS, { held: 0, max: 1 }, () => MIDNIGHT);
    await counts.consume('a:2026-03-10', 100, { day: 20522 });
    await expect(counts.consume('b:2026-03-10', 1, { day: 20522 })).rejects.toBeInstanceOf(DayCountsFullError);
    await expect(counts.get('b:2026-03-10', { day: 20522 })).resolves.toBeNull();
    // Past its points a held key is refused with a result (rate-limiter-flexible's shape), never an Error.
    await expect(counts.consume('a:2026-03-10', 1, { day: 20522 })).rejects.toMatchObject({ consumedPoints: 101, remainingPoints: 0 });
  });

  it('refuses a maxKeysInMemory that is not a whole number >= 1', () => {
    for (const bad of [0, -1, 1.5, Number.NaN, '10' as unknown as number]) {
      expect(() => new DailyPlaytimeCap({ maxKeysInMemory: bad }, DEFAULT_MAX_SESSION_AGE_MS)).toThrow(RangeError);
    }
  });
});
