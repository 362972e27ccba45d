/**
 * The relay's one-pass timestamp reading agrees with the shared `Timestamp` rule (`isIsoMillis`) and with
 * `Date.parse` on every string: real instants, near-ISO strings with impossible fields, mangled ones, any text.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { timestampText, timestampTime } from '../../../core/relay/timestamp-time.js';
import { SESSION_RULES } from '../../../core/schema/playtime-rules.js';
import { isIsoMillis, Timestamp } from '../../../core/schema/rules.js';

/** The definition: the rule, then the instant `Date.parse` reads. */
const expected = (value: string) => (isIsoMillis(value) ? Date.parse(value) : NaN);

const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
const nearIso = fc
  .tuple(fc.oneof(digits(4), fc.constantFrom('2000', '1900', '2024', '2100', '0000', '0400', '9999')), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3))
  .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
const instants = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((date) => date.toISOString());
const mangled = fc.tuple(instants, fc.nat(23), fc.string({ maxLength: 2 })).map(([iso, at, text]) => iso.slice(0, at) + text + iso.slice(at + 1));

describe('timestampTime', () => {
  it('is isIsoMillis then Date.parse, for every string', () => {
    fc.assert(fc.property(fc.oneof(instants, nearIso, mangled, fc.string()), (value) => Object.is(timestampTime(value), expected(value))), { numRuns: 30_000 });
  });

  it('agrees in any order of strings that share a date (it keeps the last valid date it read)', () => {
    // Dates a batch shares, valid and not, each with times valid and not: a date read before must not make a wrong
    // time, a wrong date with the same characters, or a later string's own date pass or fail differently.
    const dates = fc.constantFrom('2024-02-29', '2023-02-29', '2024-05-01', '2024-05-0a', '0000-01-01', '9999-12-31', '2024-13-01');
    const times = fc.constantFrom('T10:30:00.123Z', 'T23:59:59.999Z', 'T24:00:00.000Z', 'T10:60:00.000Z', 'T10:30:00.12aZ', 'x10:30:00.123Z', 'T10:30:00.123z');
    const strings = fc.array(fc.oneof(fc.tuple(dates, times).map(([date, time]) => date + time), mangled, nearIso), { minLength: 1, maxLength: 12 });
    fc.assert(fc.property(strings, (values) => values.every((value) => Object.is(timestampTime(value), expected(value)))), { numRuns: 5_000 });
  });

  it.each([
    '0000-01-01T00:00:00.000Z',
    '0000-02-29T12:00:00.000Z',
    '0001-03-01T00:00:00.000Z',
    '0099-12-31T23:59:59.999Z',
    '1969-12-31T23:59:59.999Z',
    '1970-01-01T00:00:00.000Z',
    '1900-02-29T00:00:00.000Z',
    '2000-02-29T00:00:00.000Z',
    '2024-02-29T23:59:59.999Z',
    '2023-02-29T00:00:00.000Z',
    '2024-04-31T00:00:00.000Z',
    '2024-13-01T00:00:00.000Z',
    '2024-00-01T00:00:00.000Z',
    '2024-01-00T00:00:00.000Z',
    '2024-01-01T24:00:00.000Z',
    '2024-01-01T00:60:00.000Z',
    '2024-01-01T00:00:60.000Z',
    '2024-01-01T00:00:00.000+00:00',
    '2024-01-01T00:00:00.0000Z',
    '2024-01-01T00:00:00.00aZ',
    '-2024-01-01T00:00:00.000Z',
    '+002024-01-01T00:00:00.000Z',
    '2024-01-01T00:00:00.000z',
    '9999-12-31T23:59:59.999Z',
    '２０２４-01-01T00:00:00.000Z',
  ])('%j', (value) => {
    expect(timestampTime(value)).toBe(expected(value));
  });

  it('writes an instant as toISOString does, in any order (it keeps the last day it wrote), and throws as it does', () => {
    const written = (ms: number) => {
      try {
        return timestampText(ms);
      } catch (error) {
        return (error as Error).name;
      }
    };
    const iso = (ms: number) => {
      try {
        return new Date(ms).toISOString();
      } catch (error) {
        return (error as Error).name;
      }
    };
    const FIRST = -62_167_219_200_000; // 0000-01-01T00:00:00.000Z
    const LAST = 253_402_300_799_999; // 9999-12-31T23:59:59.999Z
    const instant = fc.oneof(
      fc.integer({ min: FIRST - 86_400_000, max: LAST + 86_400_000 }),
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.constantFrom(FIRST, LAST, FIRST - 1, LAST + 1, 0, -1, 86_399_999, 86_400_000, -86_400_000, 8.64e15, 8.64e15 + 1, NaN, Infinity, 1.5, -0.5),
      fc.double(),
    );
    // A day written before: later instants of the same day and of others must not take its text wrongly.
    fc.assert(fc.property(fc.array(instant, { minLength: 1, maxLength: 8 }), (values) => values.every((ms) => written(ms) === iso(ms))), { numRuns: 20_000 });
  });

  it('reads the fields whose rule is Timestamp (the relay reads startedAt and endedAt with it)', () => {
    expect(SESSION_RULES.startedAt).toBe(Timestamp);
    expect(SESSION_RULES.endedAt).toBe(Timestamp);
  });
});
