/**
 * The relay's rule-table check of a playtime batch (`checkedBatch`) and the zod schema of the same request
 * agree: the same batches pass, with the same sessions (stripped alike), `isTest` and `sentAt`, and the
 * instants it reads are those `Date.parse` gives.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkedBatch } from '../../../core/relay/batch-check.js';
import { RelayPlaytimeRequest } from '../../../core/relay/protocol.js';
import { SESSION_RULES } from '../../../core/schema/playtime-rules.js';
import { check } from '../../../core/schema/validate.js';

const KEY_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const instant = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
const anyValue = fc.oneof(fc.anything(), fc.constantFrom(undefined, null, NaN, Infinity, -0, 0, 1, 1.5, '', [], {}, true, '2024-02-30T00:00:00.000Z', '2024-01-01T00:00:00Z'));

const validSession = fc
  .record(
    {
      sessionId: fc.uuid(),
      userId: fc.string({ minLength: 1, maxLength: 8 }),
      durationSeconds: fc.integer({ min: 1, max: 100_000 }),
      startedAt: instant,
      length: fc.oneof(fc.constant(0), fc.nat(10 * 86_400_000)),
      campaignId: fc.string({ minLength: 1, maxLength: 8 }),
      creatorKey: fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 5, maxLength: 5 }),
      metadata: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
      extra: fc.jsonValue({ maxDepth: 1 }),
    },
    { requiredKeys: ['sessionId', 'userId', 'durationSeconds', 'startedAt', 'length'] },
  )
  .map(({ startedAt, length, ...rest }) => {
    const ended = new Date(Math.min(startedAt.getTime() + length, Date.parse('9999-12-31T23:59:59.999Z')));
    return { ...rest, startedAt: startedAt.toISOString(), endedAt: ended.toISOString() } as Record<string, unknown>;
  });
/** A valid session with one field (a rule's, or `extra`, or the end before the start) set to anything. */
const brokenSession = fc
  .tuple(validSession, fc.constantFrom(...Object.keys(SESSION_RULES), 'extra', 'swap'), anyValue)
  .map(([session, field, value]) => (field === 'swap' ? { ...session, startedAt: session['endedAt'], endedAt: session['startedAt'] } : { ...session, [field]: value }));
const body = fc.record(
  {
    sessions: fc.oneof(fc.array(validSession, { minLength: 1, maxLength: 4 }), fc.array(fc.oneof(validSession, brokenSession), { maxLength: 4 }), anyValue),
    isTest: fc.oneof(fc.boolean(), anyValue),
    sentAt: fc.oneof(instant.map((date) => date.toISOString()), anyValue),
    other: anyValue,
  },
  { requiredKeys: [] },
);

describe('checkedBatch', () => {
  it('takes exactly the batches the zod schema takes, and gives what it gives', () => {
    let taken = 0;
    let refused = 0;
    fc.assert(
      fc.property(fc.oneof(body, anyValue), (value) => {
        const zod = check(RelayPlaytimeRequest, value);
        const batch = checkedBatch(value);
        expect(batch !== undefined).toBe(zod.success);
        if (!batch || !zod.success) return void refused++;
        taken++;
        expect(batch.sessions).toEqual(zod.data.sessions);
        expect(batch.isTest).toBe(zod.data.isTest === true);
        expect(batch.sentAt).toBe(zod.data.sentAt);
        expect(batch.startedMs).toEqual(batch.sessions.map((s) => Date.parse(s.startedAt)));
        expect(batch.endedMs).toEqual(batch.sessions.map((s) => Date.parse(s.endedAt)));
      }),
      { numRuns: 3_000 },
    );
    expect(taken).toBeGreaterThan(100);
    expect(refused).toBeGreaterThan(100);
  });

  it('keeps a session that has only the spec fields as it came, and strips one that has others', () => {
    const session = { sessionId: 's-1', userId: 'alice', durationSeconds: 60, startedAt: '2026-01-01T00:00:00.000Z', endedAt: '2026-01-01T00:01:00.000Z' };
    const extra = { ...session, platform: 'ios' };
    const batch = checkedBatch({ sessions: [session, extra] });
    expect(batch?.sessions[0]).toBe(session);
    expect(batch?.sessions[1]).toEqual(session);
    expect(Object.keys(batch?.sessions[1] ?? {})).toEqual(Object.keys(session));
  });
});
