/** The timing pieces of the request path: jittered backoff and reading Retry-After. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backoffDelay, parseRetryAfter } from '../../../core/http/backoff.js';
import { path } from '../../../core/http/environment.js';
import RETRY_AFTER from './retry-after-cases.json' with { type: 'json' };

const NOW = Date.parse('2024-05-01T00:00:00.000Z');

describe('backoffDelay', () => {
  it('is random * min(maxMs, baseMs * 2^attempt), rounded down', () => {
    const options = { baseMs: 500, maxMs: 8000 };
    expect([0, 1, 2, 3, 4, 5].map((n) => backoffDelay(n, options, () => 0.5))).toEqual([250, 500, 1000, 2000, 4000, 4000]);
    expect(backoffDelay(0, options, () => 0)).toBe(0);
    expect(backoffDelay(3, options, () => 0.9999)).toBe(3999);
  });
});

describe('parseRetryAfter', () => {
  const headers = (init: Record<string, string>) => new Headers(init);

  it.each<[Record<string, string>, number | undefined]>([
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '0' }, 0],
    [{ 'retry-after': '1.5' }, 1500],
    [{ 'retry-after-ms': '250' }, undefined], // not the spec's header: ignored
    [{ 'retry-after-ms': '250', 'retry-after': '9' }, 9000],
    [{ 'retry-after': 'Wed, 01 May 2024 00:00:05 GMT' }, 5000],
    [{ 'retry-after': 'Tue, 30 Apr 2024 23:59:00 GMT' }, 0],
    [{ 'retry-after': '-1' }, undefined],
    [{ 'retry-after': 'later' }, undefined],
    [{ 'retry-after': '' }, undefined],
    [{}, undefined],
  ])('%j -> %s ms', (init, expected) => {
    expect(parseRetryAfter(headers(init), NOW)).toBe(expected);
  });

  describe('the table both clients follow (retry-after-cases.json; the Unity tracker: test/adapters/unity/retry-after.test.ts)', () => {
    // A time zone ahead of UTC: an HTTP-date is GMT whatever the device's zone (asctime names none).
    const zone = process.env['TZ'];
    beforeAll(() => void (process.env['TZ'] = 'Pacific/Auckland'));
    afterAll(() => void (zone === undefined ? delete process.env['TZ'] : (process.env['TZ'] = zone)));

    it.each(RETRY_AFTER.cases as [string, number | null][])('%j -> %s ms', (value, expected) => {
      const wait = parseRetryAfter(headers({ 'retry-after': value }), Date.parse(RETRY_AFTER.now));
      expect(wait ?? null).toBe(expected);
    });
  });
});

describe('path', () => {
  it('percent-encodes every interpolated value and nothing else', () => {
    expect(path`/v1/server/coupons/user/${'a/b c'}`).toBe('/v1/server/coupons/user/a%2Fb%20c');
    expect(path`/v1/server/webhooks/${5}/logs`).toBe('/v1/server/webhooks/5/logs');
  });
});
