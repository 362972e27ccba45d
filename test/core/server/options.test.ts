/**
 * CampaignServer's numeric options, checked when it is made: a value read from an unset environment variable
 * (`Number(process.env.X)`, NaN) must not switch retries off in silence, nor fail only at the first call.
 */
import { describe, expect, it } from 'vitest';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { paymentDetail } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';
const make = (options: { maxRetries?: unknown; timeoutMs?: unknown }) => new CampaignServer({ serverKey: SERVER_KEY, ...(options as object) });

describe('CampaignServer options', () => {
  it.each([Number.NaN, -1, 1.5, '2', -Infinity])('refuses maxRetries %s with a RangeError, before any request', (maxRetries) => {
    expect(() => make({ maxRetries })).toThrow(new RangeError(`maxRetries must be a whole number >= 0 (Infinity: no limit), got ${String(maxRetries)}`));
  });

  it.each([Number.NaN, 0, -5, '1000'])('refuses timeoutMs %s with a RangeError, before any request', (timeoutMs) => {
    expect(() => make({ timeoutMs })).toThrow(new RangeError(`timeoutMs must be a number of ms above 0 (Infinity: none), got ${String(timeoutMs)}`));
  });

  it('takes 0, whole numbers and Infinity as maxRetries, any time-out above 0 and Infinity', () => {
    for (const maxRetries of [0, 2, 10, Infinity, undefined, null]) expect(() => make({ maxRetries })).not.toThrow();
    for (const timeoutMs of [1, 0.5, 30_000, Infinity, undefined, null]) expect(() => make({ timeoutMs })).not.toThrow();
  });

  it('retries as configured once made', async () => {
    const fake = createFakeFetch(reply.error(503, 'INTERNAL_ERROR', 'busy', { headers: { 'retry-after': '0' } }), reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 1 });
    await expect(server.payments.get('tx-1')).resolves.toBeDefined();
    expect(fake.calls).toHaveLength(2);
  });
});

describe("CampaignServer's per-call maxRetries", () => {
  it.each([Number.NaN, -1, 1.5, '2', -Infinity])('refuses { maxRetries: %s } on a call with a RangeError, sending nothing', async (maxRetries) => {
    const fake = createFakeFetch(reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    const options = { maxRetries } as { maxRetries: number };
    const expected = new RangeError(`maxRetries must be a whole number >= 0 (Infinity: no limit), got ${String(maxRetries)}`);
    await expect(server.payments.get('tx-1', options)).rejects.toThrow(expected);
    await expect(server.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' }, options)).rejects.toThrow(expected);
    expect(fake.calls).toHaveLength(0);
  });

  it('takes 0, whole numbers, Infinity and no value on a call, and retries as it says', async () => {
    const fake = createFakeFetch(reply.error(503, 'INTERNAL_ERROR', 'busy', { headers: { 'retry-after': '0' } }), reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0 });
    await expect(server.payments.get('tx-1', { maxRetries: 1 })).resolves.toBeDefined();
    expect(fake.calls).toHaveLength(2);
    for (const maxRetries of [0, 3, Infinity, undefined]) {
      const ok = new CampaignServer({ serverKey: SERVER_KEY, fetch: createFakeFetch(reply.ok(paymentDetail)).fetch });
      await expect(ok.payments.get('tx-1', { maxRetries })).resolves.toBeDefined();
    }
  });
});

describe("CampaignServer's per-call null options", () => {
  // null is "the default" for the constructor's options (row "CampaignServer's maxRetries and timeoutMs"); on a call it
  // was a RangeError for `timeout` (`null > 0` is false) and no retries at all for `maxRetries` (`attempt < null`).
  it('takes { timeout: null } on a call as the client\'s time-out', async () => {
    const fake = createFakeFetch(reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await expect(server.payments.get('tx-1', { timeout: null } as never)).resolves.toBeDefined();
    expect(fake.calls).toHaveLength(1);
  });

  it('takes { maxRetries: null } on a call as the client\'s retries, not as none', async () => {
    const fake = createFakeFetch(reply.error(503, 'INTERNAL_ERROR', 'busy', { headers: { 'retry-after': '0' } }), reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 1 });
    await expect(server.payments.get('tx-1', { maxRetries: null } as never)).resolves.toBeDefined();
    expect(fake.calls).toHaveLength(2);
  });
});

describe("CampaignServer: a path too long for servers", () => {
  const expected = (length: number) =>
    expect.objectContaining({ name: 'ValidationError', code: 'VALIDATION_ERROR', details: [{ path: '(path)', message: `is ${length} characters percent-encoded, over 8100: a path parameter is too long for servers to take` }] });

  it('refuses a path parameter that makes the path longer than 8100 characters with a ValidationError, sending nothing', async () => {
    const fake = createFakeFetch();
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    const long = 'x'.repeat(20_000);
    await expect(server.payments.get(long)).rejects.toEqual(expected('/v1/server/payments/'.length + 20_000));
    await expect(server.coupons.listUsage(long).then((page) => page)).rejects.toEqual(expected('/v1/server/coupons/user/'.length + 20_000));
    await expect(server.sponsors.change(long, { newCreatorKey: 'creator-a' })).rejects.toEqual(expected('/v1/server/sponsors/user/'.length + 20_000));
    // Percent-encoding counts: 3,000 'é' (%C3%A9 each) are 18,000 characters in the path.
    await expect(server.payments.get('é'.repeat(3000))).rejects.toEqual(expected('/v1/server/payments/'.length + 18_000));
    expect(fake.calls).toHaveLength(0);
  });

  it("sends every path the relay lets through (a player id of up to 8000 characters, percent-encoded)", async () => {
    const fake = createFakeFetch().otherwise(reply.ok({ userId: 'u', campaignId: 'c', creatorKey: 'creator-a', creatorName: 'A', isActive: true, sponsoredAt: '2024-05-01T00:00:00.000Z' }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await expect(server.sponsors.change('u'.repeat(8000), { newCreatorKey: 'creator-a' })).resolves.toBeDefined();
    expect(fake.calls).toHaveLength(1);
  });
});

describe('CampaignServer: a base address with credentials', () => {
  // fetch refuses a URL with user:password@ (Fetch standard "Request constructor", step 5.3; undici: "Request cannot be
  // constructed from a URL that includes credentials"): every call was retried and failed as a ConnectionError whose
  // message (logged by the game server, returned by a relay's 503) held the password.
  it.each(['https://proxy-user:hunter2@proxy.example', 'http://hunter2@127.0.0.1:8787/api', 'https://:hunter2@proxy.example'])(
    'refuses %s at construction with a TypeError that does not repeat it',
    (baseUrl) => {
      let error: unknown;
      try {
        new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', environment: { baseUrl } });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(TypeError);
      expect((error as Error).message).toContain('credentials');
      expect((error as Error).message).not.toContain('hunter2');
    },
  );

  it('still takes an @ in the path', async () => {
    const fake = createFakeFetch(reply.json(200, { data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } }));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', environment: { baseUrl: 'https://proxy.example/team@game' }, fetch: fake.fetch });
    await server.campaigns.list();
    expect(fake.last().url).toBe('https://proxy.example/team@game/v1/server/campaigns?page=1');
  });
});
