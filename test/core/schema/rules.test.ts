/** Every rule of the spec's "Limits" and field tables, proved on the shared schemas. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BulkPaymentRequest,
  BulkPlaytimeItem,
  BulkPlaytimeRequest,
  CreateOttRequest,
  CreateWebhookRequest,
  CreatorKey,
  PageQuery,
  PlaytimeSessionRequest,
  RedeemCouponRequest,
  SearchCreatorsQuery,
  Timestamp,
  UpdateWebhookRequest,
  WebhookEventType,
  check,
  checkPlaytimeItem,
} from '../../../core/schema/index.js';
import { isIsoMillis, isUtcDateTime } from '../../../core/schema/rules.js';
import { CHALLENGE, T0, UUID, paymentItem, sessionRequest } from './samples.js';

const CREATOR_KEY_CHARS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const validKey = fc.string({ unit: fc.constantFrom(...CREATOR_KEY_CHARS), minLength: 5, maxLength: 5 });

/** The details of a failed check, or `[]` when the value passed (so a wrong pass shows in the diff). */
function problems(schema: Parameters<typeof check>[0], value: unknown) {
  const result = check(schema, value);
  return result.success ? [] : result.details;
}

describe('creatorKey ^[A-Z0-9]{5}$', () => {
  it('accepts any 5-character string of A-Z and 0-9', () => {
    fc.assert(fc.property(validKey, (key) => check(CreatorKey, key).success && check(PlaytimeSessionRequest, { ...sessionRequest, creatorKey: key }).success));
  });

  it('rejects every other string, naming the field', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 8 }).filter((s) => !/^[A-Z0-9]{5}$/.test(s)),
        (key) => {
          expect(problems(PlaytimeSessionRequest, { ...sessionRequest, creatorKey: key })).toEqual([
            { path: 'creatorKey', message: 'must be exactly 5 uppercase letters or digits' },
          ]);
        },
      ),
    );
  });

  it.each(['abc12', 'ABC1', 'ABC123', 'AB-12', 'ÄBC12', ' ABC1'])('rejects %j', (key) => {
    expect(check(CreatorKey, key).success).toBe(false);
  });
});

describe('durationSeconds: integer >= 1', () => {
  it('accepts every integer from 1 up', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000_000 }), (n) => check(PlaytimeSessionRequest, { ...sessionRequest, durationSeconds: n }).success));
  });

  it.each([
    [0, 'must be a whole number of at least 1'],
    [-5, 'must be a whole number of at least 1'],
    [1.5, 'must be a whole number of at least 1'],
    ['60', 'must be a number'],
  ])('rejects %j', (value, message) => {
    expect(problems(PlaytimeSessionRequest, { ...sessionRequest, durationSeconds: value })).toEqual([{ path: 'durationSeconds', message }]);
  });
});

describe('timestamps: exactly YYYY-MM-DDTHH:mm:ss.sssZ', () => {
  it('accepts any real instant written with toISOString()', () => {
    const instants = fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
    fc.assert(fc.property(instants, (date) => check(Timestamp, date.toISOString()).success));
  });

  it.each([
    '2024-01-01T00:00:00Z', // no milliseconds
    '2024-02-30T00:00:00.000Z', // no such day
    '2024-01-01T00:00:00.000+00:00', // offset instead of Z
    '2024-01-01 00:00:00.000Z',
    '2024-01-01T24:00:00.000Z',
    '2024-01-01T00:00:00.0000Z',
    '2024-01-01',
  ])('rejects %j, naming the field', (value) => {
    expect(problems(PlaytimeSessionRequest, { ...sessionRequest, startedAt: value, endedAt: '2099-01-01T00:00:00.000Z' })).toEqual([
      { path: 'startedAt', message: 'must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ss.sssZ' },
    ]);
  });
});

describe('isIsoMillis: the Date round trip, without the Date', () => {
  /** The definition: Date.parse and back gives the same string. */
  const roundTrip = (value: string) => {
    const time = Date.parse(value);
    return !Number.isNaN(time) && new Date(time).toISOString() === value;
  };
  const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
  // Every field drawn from all its digit strings, so impossible days, months, hours and leap days come up often.
  const nearIso = fc
    .tuple(fc.oneof(digits(4), fc.constantFrom('2000', '1900', '2024', '2100', '0000', '9999')), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3))
    .map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
  const instants = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((date) => date.toISOString());
  const mangled = fc.tuple(instants, fc.nat(23), fc.string({ maxLength: 2 })).map(([iso, at, text]) => iso.slice(0, at) + text + iso.slice(at + 1));

  it('agrees with the round trip on real instants, near-ISO strings, mangled ones and leap days', () => {
    fc.assert(fc.property(fc.oneof(instants, nearIso, mangled, fc.string()), (value) => isIsoMillis(value) === roundTrip(value)), { numRuns: 20_000 });
    for (const value of ['2000-02-29T00:00:00.000Z', '1900-02-29T00:00:00.000Z', '2024-02-29T23:59:59.999Z', '2023-02-29T00:00:00.000Z', '2024-04-31T00:00:00.000Z', '2024-12-31T00:00:00.000Z']) {
      expect(isIsoMillis(value)).toBe(roundTrip(value));
    }
  });
});

describe('isUtcDateTime: the spec\'s general timestamp (ISO 8601 in UTC, any precision)', () => {
  it.each([
    ['2024-05-01T10:30:00Z', true],
    ['2024-05-01T10:30:00.1Z', true],
    ['2024-05-01T10:30:00.123Z', true],
    ['2024-05-01T10:30:00.123456789Z', true],
    ['2024-05-01T10:30:00+00:00', true],
    ['2024-02-29T00:00:00Z', true],
    ['2023-02-29T00:00:00Z', false],
    ['2024-04-31T00:00:00Z', false],
    ['2024-05-01T24:00:00Z', false],
    ['2024-05-01T19:30:00+09:00', false],
    ['2024-05-01T10:30:00', false],
    ['2024-05-01 10:30:00Z', false],
    ['2024-05-01T10:30Z', false],
    ['2024-05-01T10:30:00.Z', false],
    ['+275760-09-13T00:00:00Z', false],
    ['', false],
  ])('%j: %s', (value, expected) => {
    expect(isUtcDateTime(value)).toBe(expected);
  });

  it('takes every millisecond timestamp, and the same instant without its fraction', () => {
    const instants = fc.date({ min: new Date('0000-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((date) => date.toISOString());
    fc.assert(fc.property(instants, (iso) => isUtcDateTime(iso) && isUtcDateTime(iso.replace(/\.\d{3}Z$/, 'Z'))), { numRuns: 5_000 });
  });
});

describe('endedAt >= startedAt', () => {
  it('accepts an end equal to the start', () => {
    expect(check(PlaytimeSessionRequest, { ...sessionRequest, endedAt: sessionRequest.startedAt }).success).toBe(true);
  });

  it('rejects an end before the start, on the endedAt path, single and bulk', () => {
    const backwards = { ...sessionRequest, startedAt: '2024-05-01T10:00:00.001Z', endedAt: '2024-05-01T10:00:00.000Z' };
    expect(problems(PlaytimeSessionRequest, backwards)).toEqual([{ path: 'endedAt', message: 'must be greater than or equal to startedAt' }]);
    expect(problems(BulkPlaytimeRequest, { sessions: [sessionRequest, backwards] })).toEqual([
      { path: 'sessions.1.endedAt', message: 'must be greater than or equal to startedAt' },
    ]);
  });
});

describe('checkPlaytimeItem: the bulk item rules, field by field, for client bundles', () => {
  const anyValue = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 8 }), fc.integer({ min: -3, max: 3 }), fc.double(), fc.boolean(), fc.constant(null), fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 })), fc.array(fc.integer(), { maxLength: 2 }));
  const timestamp = fc.oneof(fc.date({ min: new Date(0), max: new Date(4e12), noInvalidDate: true }).map((d) => d.toISOString()), anyValue);
  const item = fc.record(
    {
      sessionId: fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), anyValue),
      userId: fc.oneof(fc.string({ minLength: 1, maxLength: 8 }), anyValue),
      durationSeconds: fc.oneof(fc.integer({ min: 1, max: 10_000 }), anyValue),
      startedAt: timestamp,
      endedAt: timestamp,
      campaignId: anyValue,
      creatorKey: fc.oneof(validKey, anyValue),
      metadata: anyValue,
    },
    { requiredKeys: [] },
  );

  it('gives exactly the details the BulkPlaytimeItem schema gives, for any item', () => {
    fc.assert(
      fc.property(item, (value) => {
        expect(checkPlaytimeItem(value)).toEqual(problems(BulkPlaytimeItem, value));
      }),
      { numRuns: 2_000 },
    );
  });

  it('passes a valid item and names each broken rule', () => {
    const valid = { sessionId: 's', userId: 'u', durationSeconds: 1, startedAt: T0, endedAt: T0 };
    expect(checkPlaytimeItem(valid)).toEqual([]);
    expect(checkPlaytimeItem({ ...valid, durationSeconds: 0, creatorKey: 'abc', metadata: [] })).toEqual([
      { path: 'durationSeconds', message: 'must be a whole number of at least 1' },
      { path: 'creatorKey', message: 'must be exactly 5 uppercase letters or digits' },
      { path: 'metadata', message: 'must be an object' },
    ]);
  });
});

describe('platform enum', () => {
  it.each(['iOS', 'Android', 'Web', 'ThirdPartyGame', 'Other'])('accepts %s', (platform) => {
    expect(check(PlaytimeSessionRequest, { ...sessionRequest, platform }).success).toBe(true);
  });

  it('rejects anything else', () => {
    fc.assert(
      fc.property(
        fc.string().filter((s) => !['iOS', 'Android', 'Web', 'ThirdPartyGame', 'Other'].includes(s)),
        (platform) => {
          const details = problems(PlaytimeSessionRequest, { ...sessionRequest, platform });
          expect(details.map((d) => d.path)).toEqual(['platform']);
        },
      ),
    );
    expect(problems(PlaytimeSessionRequest, { ...sessionRequest, platform: 'ios' })).toEqual([
      { path: 'platform', message: 'must be one of "iOS", "Android", "Web", "ThirdPartyGame", "Other"' },
    ]);
  });
});

describe('bulk requests carry 1 to 1000 sessions, up to 1000 payments', () => {
  const sessions = (n: number) => Array.from({ length: n }, (_, i) => ({ ...sessionRequest, sessionId: `s-${i}` }));
  const payments = (n: number) => Array.from({ length: n }, (_, i) => ({ ...paymentItem, transactionId: `tx-${i}` }));

  it.each([1, 1000])('accepts %i sessions and %i payments', (n) => {
    expect(check(BulkPlaytimeRequest, { sessions: sessions(n) }).success).toBe(true);
    expect(check(BulkPaymentRequest, { payments: payments(n) }).success).toBe(true);
  });

  it('rejects 0 sessions, and accepts 0 payments (the spec gives payments no minimum)', () => {
    expect(problems(BulkPlaytimeRequest, { sessions: [] })).toEqual([{ path: 'sessions', message: 'must hold at least 1 session' }]);
    expect(problems(BulkPaymentRequest, { payments: [] })).toEqual([]);
  });

  it('rejects 1001 of either', () => {
    expect(problems(BulkPlaytimeRequest, { sessions: sessions(1001) })).toEqual([{ path: 'sessions', message: 'must hold at most 1000 sessions' }]);
    expect(problems(BulkPaymentRequest, { payments: payments(1001) })).toEqual([{ path: 'payments', message: 'must hold at most 1000 payments' }]);
  });
});

describe('codeChallenge: 43 to 128 characters', () => {
  const body = (codeChallenge: string) => ({ userId: 'user-1', codeChallenge });
  it('accepts every length from 43 to 128', () => {
    fc.assert(fc.property(fc.integer({ min: 43, max: 128 }), (n) => check(CreateOttRequest, body('a'.repeat(n))).success));
    expect(check(CreateOttRequest, body(CHALLENGE)).success).toBe(true);
  });

  it.each([
    [42, 'must be at least 43 characters'],
    [129, 'must be at most 128 characters'],
  ])('rejects length %i', (n, message) => {
    expect(problems(CreateOttRequest, body('a'.repeat(n)))).toEqual([{ path: 'codeChallenge', message }]);
  });
});

describe('gameUserUuid is a UUID', () => {
  const body = (gameUserUuid: unknown) => ({ couponCode: 'WELCOME', userId: 'user-1', gameUserUuid });
  it('accepts UUIDs', () => {
    fc.assert(fc.property(fc.uuid({ version: [1, 2, 3, 4, 5, 7] }), (uuid) => check(RedeemCouponRequest, body(uuid)).success));
    expect(check(RedeemCouponRequest, body(UUID)).success).toBe(true);
  });

  it.each(['not-a-uuid', '3f1c2b7e8d4a4c5b9e6f1a2b3c4d5e6f', '3f1c2b7e-8d4a-4c5b-9e6f-1a2b3c4d5e6', ''])('rejects %j', (value) => {
    expect(problems(RedeemCouponRequest, body(value))).toEqual([{ path: 'gameUserUuid', message: 'must be a UUID' }]);
  });
});

describe('paging: page >= 1, limit 1 to 100', () => {
  it('accepts the ranges', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1e6 }), fc.integer({ min: 1, max: 100 }), (page, limit) => check(PageQuery, { page, limit }).success));
  });

  it.each([
    [{ page: 0 }, 'page', 'must be a whole number of at least 1'],
    [{ limit: 0 }, 'limit', 'must be an integer from 1 to 100'],
    [{ limit: 101 }, 'limit', 'must be an integer from 1 to 100'],
  ])('rejects %j', (query, path, message) => {
    expect(problems(PageQuery, query)).toEqual([{ path, message }]);
  });
});

describe('webhooks: retryCount 0 to 10, timeoutMs 1000 to 30000, seven event types', () => {
  const create = (fields: object) => ({ url: 'https://game.example/hooks', eventType: 'coupon.redeemed', ...fields });

  it('accepts the ranges on create and update', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 1000, max: 30000 }), (retryCount, timeoutMs) => {
        return check(CreateWebhookRequest, create({ retryCount, timeoutMs })).success && check(UpdateWebhookRequest, { retryCount, timeoutMs }).success;
      }),
    );
  });

  it.each([
    [{ retryCount: -1 }, 'retryCount', 'must be at least 0'],
    [{ retryCount: 11 }, 'retryCount', 'must be at most 10'],
    [{ timeoutMs: 999 }, 'timeoutMs', 'must be at least 1000'],
    [{ timeoutMs: 30001 }, 'timeoutMs', 'must be at most 30000'],
  ])('rejects %j on create and update', (fields, path, message) => {
    expect(problems(CreateWebhookRequest, create(fields))).toEqual([{ path, message }]);
    expect(problems(UpdateWebhookRequest, fields)).toEqual([{ path, message }]);
  });

  it.each(['coupon.redeemed', 'payment.created', 'payment.refunded', 'payment.bulk_created', 'sponsor.created', 'sponsor.changed', 'sponsor.ended'])(
    'accepts event type %s',
    (eventType) => {
      expect(check(CreateWebhookRequest, create({ eventType })).success).toBe(true);
    },
  );

  it('rejects any other event type', () => {
    const seven = new Set<string>(WebhookEventType.options);
    expect(seven.size).toBe(7);
    fc.assert(fc.property(fc.string().filter((s) => !seven.has(s)), (eventType) => !check(CreateWebhookRequest, create({ eventType })).success));
    expect(problems(CreateWebhookRequest, create({ eventType: 'payment.*' })).map((d) => d.path)).toEqual(['eventType']);
  });
});

describe('creator search text: 1 to 10 characters', () => {
  it('accepts 1 to 10 characters', () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 10 }), (q) => check(SearchCreatorsQuery, { q }).success));
  });

  it('counts characters as the spec\'s string length does (code points): an emoji is one, not its two UTF-16 units', () => {
    expect(check(SearchCreatorsQuery, { q: '🎮'.repeat(10) }).success).toBe(true);
    expect(check(SearchCreatorsQuery, { q: 'ab😀cd😀ef😀g' }).success).toBe(true);
    expect(problems(SearchCreatorsQuery, { q: '🎮'.repeat(11) })).toEqual([{ path: 'q', message: 'must be 1 to 10 characters' }]);
    fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 10 }), (q) => check(SearchCreatorsQuery, { q }).success));
    fc.assert(fc.property(fc.string({ unit: 'binary', minLength: 11, maxLength: 20 }), (q) => !check(SearchCreatorsQuery, { q }).success));
  });

  it.each([
    ['', 'must be 1 to 10 characters'],
    ['abcdefghijk', 'must be 1 to 10 characters'],
  ])('rejects %j', (q, message) => {
    expect(problems(SearchCreatorsQuery, { q })).toEqual([{ path: 'q', message }]);
  });

  it('caps the search limit at 100', () => {
    expect(problems(SearchCreatorsQuery, { q: 'a', limit: 101 })).toEqual([{ path: 'limit', message: 'must be an integer from 1 to 100' }]);
  });
});
