/**
 * The plain client checks (core/schema/rules.ts, what game clients run) and the zod schemas built from the same
 * rule table (what the server, relay and emulator run) agree on pass/fail, and on the message, for generated
 * valid and invalid values of every rule the client checks.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { check } from '../../../core/schema/validate.js';
import { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { checkPlaytimeItem, SESSION_RULES } from '../../../core/schema/playtime-rules.js';
import { schemaOf, shapeOf } from '../../../core/schema/primitives.js';
import * as rules from '../../../core/schema/rules.js';
import type * as z from 'zod/mini';

const KEY_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const instant = fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });

/** Any JSON-ish value, and the values on either side of each rule's edges. */
const anyValue = fc.oneof(fc.anything(), fc.constantFrom(undefined, null, NaN, Infinity, -Infinity, -0, 0, '', [], {}, true, false));
const strings = fc.oneof(fc.string({ maxLength: 14 }), fc.string({ unit: fc.constantFrom(...KEY_CHARS, 'a', '-', ' '), maxLength: 7 }));
const numbers = fc.oneof(fc.integer({ min: -5, max: 120 }), fc.double(), fc.constantFrom(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 0.5, 100, 101, 1));
const timestamps = fc.oneof(
  instant.map((date) => date.toISOString()),
  instant.map((date) => date.toISOString().replace('.000Z', 'Z').replace(/\.\d{3}Z$/, 'Z')),
  instant.map((date) => date.toISOString().replace('Z', '+00:00')),
  fc.constantFrom('2024-02-30T00:00:00.000Z', '2024-01-01 00:00:00.000Z', '+012345-01-01T00:00:00.000Z'),
);

/** Every rule a game client checks, with values meant to pass and values meant to fail it. */
const CLIENT_RULES: Array<[string, rules.Rule<never>, fc.Arbitrary<unknown>]> = [
  ['Id', rules.Id as rules.Rule<never>, fc.oneof(strings, anyValue)],
  ['CreatorKey', rules.CreatorKey as rules.Rule<never>, fc.oneof(fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 5, maxLength: 5 }), strings, anyValue)],
  ['SearchText', rules.SearchText as rules.Rule<never>, fc.oneof(strings, anyValue)],
  ['PositiveInt', rules.PositiveInt as rules.Rule<never>, fc.oneof(numbers, anyValue)],
  ['Limit', rules.Limit as rules.Rule<never>, fc.oneof(numbers, anyValue)],
  ['Flag', rules.Flag as rules.Rule<never>, anyValue],
  ['Metadata', rules.Metadata as rules.Rule<never>, fc.oneof(fc.dictionary(fc.string(), fc.jsonValue()), anyValue)],
  ['Timestamp', rules.Timestamp as rules.Rule<never>, fc.oneof(timestamps, strings, anyValue)],
];

/** What zod says about `value`: its message, or undefined when it passes. */
function zodSays(schema: z.ZodMiniType, value: unknown): string | undefined {
  const result = check(schema, value);
  return result.success ? undefined : result.details.map((detail) => detail.message).join('; ');
}

describe.each(CLIENT_RULES)('rule %s', (_, rule, values) => {
  it('the client check and the zod schema agree on pass/fail and on the message', () => {
    let passed = 0;
    let failed = 0;
    fc.assert(
      fc.property(values, (value) => {
        const client = rules.broken(rule, value);
        expect(client).toBe(zodSays(schemaOf(rule), value));
        if (client === undefined) passed++;
        else failed++;
      }),
      { numRuns: 400 },
    );
    // The generators reach both sides of the rule, so agreement is shown for valid and invalid values.
    expect(passed).toBeGreaterThan(0);
    expect(failed).toBeGreaterThan(0);
  });

  it('its optional form lets undefined through and judges the rest alike', () => {
    fc.assert(
      fc.property(values, (value) => {
        expect(rules.broken(rules.optional(rule), value)).toBe(zodSays(schemaOf(rules.optional(rule)), value));
      }),
    );
    expect(rules.broken(rules.optional(rule), undefined)).toBeUndefined();
  });
});

describe('a playtime session (the tracker drops a session that breaks these)', () => {
  const validSession = fc.record(
    {
      sessionId: fc.uuid(),
      userId: fc.string({ minLength: 1 }),
      durationSeconds: fc.integer({ min: 1, max: 100_000 }),
      startedAt: fc.constant('2026-01-01T00:00:00.000Z'),
      endedAt: instant.map((date) => date.toISOString()),
      campaignId: fc.string({ minLength: 1 }),
      creatorKey: fc.string({ unit: fc.constantFrom(...KEY_CHARS), minLength: 5, maxLength: 5 }),
      metadata: fc.dictionary(fc.string(), fc.jsonValue()),
    },
    { requiredKeys: ['sessionId', 'userId', 'durationSeconds', 'startedAt', 'endedAt'] },
  );
  const broken = fc.tuple(validSession, fc.constantFrom(...Object.keys(SESSION_RULES)), anyValue).map(([session, field, value]) => ({ ...session, [field]: value }));

  it('checkPlaytimeItem gives exactly the details of the BulkPlaytimeItem schema', () => {
    let valid = 0;
    fc.assert(
      fc.property(fc.oneof(validSession, broken), (session) => {
        const result = check(BulkPlaytimeItem, session);
        const details = checkPlaytimeItem(session);
        expect(details).toEqual(result.success ? [] : result.details);
        if (details.length === 0) valid++;
      }),
      { numRuns: 500 },
    );
    expect(valid).toBeGreaterThan(0);
  });

  it('the zod object is built from the same table (every field, optional where the table says so)', () => {
    const shape = shapeOf(SESSION_RULES);
    expect(Object.keys(shape)).toEqual(Object.keys(SESSION_RULES));
    for (const [name, rule] of Object.entries(SESSION_RULES)) expect(check(shape[name as keyof typeof shape], undefined).success).toBe('optional' in rule);
  });
});
