/** A request that breaks the spec's rules is refused before it leaves: ValidationError, and fetch never called. */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../core/http/errors.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch } from '../../helpers/fake-fetch.js';
import { CHALLENGE, paymentItem, sessionRequest } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';
type Call = (server: CampaignServer) => PromiseLike<unknown>;
const bad = <T>(value: unknown) => value as T;

const CASES: Array<[string, Call, Array<{ path: string; message: string }>]> = [
  ['playtime.record: creatorKey', (s) => s.playtime.record({ ...sessionRequest, creatorKey: 'abc12' }), [{ path: 'creatorKey', message: 'must be exactly 5 uppercase letters or digits' }]],
  ['playtime.record: durationSeconds 0', (s) => s.playtime.record({ ...sessionRequest, durationSeconds: 0 }), [{ path: 'durationSeconds', message: 'must be a whole number of at least 1' }]],
  [
    'playtime.record: timestamp without milliseconds',
    (s) => s.playtime.record({ ...sessionRequest, endedAt: '2024-05-01T10:30:00Z' }),
    [{ path: 'endedAt', message: 'must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ss.sssZ' }],
  ],
  [
    'playtime.record: endedAt before startedAt',
    (s) => s.playtime.record({ ...sessionRequest, endedAt: '2024-05-01T09:00:00.000Z' }),
    [{ path: 'endedAt', message: 'must be greater than or equal to startedAt' }],
  ],
  ['playtime.record: platform', (s) => s.playtime.record({ ...sessionRequest, platform: bad('PS5') }), [{ path: 'platform', message: 'must be one of "iOS", "Android", "Web", "ThirdPartyGame", "Other"' }]],
  ['playtime.record: missing sessionId', (s) => s.playtime.record(bad({ ...sessionRequest, sessionId: undefined })), [{ path: 'sessionId', message: 'is required' }]],
  ['playtime.recordBulk: no sessions', (s) => s.playtime.recordBulk({ sessions: [] }), [{ path: 'sessions', message: 'must hold at least 1 session' }]],
  [
    'playtime.recordBulk: a bad item',
    (s) => s.playtime.recordBulk({ sessions: [sessionRequest, { ...sessionRequest, durationSeconds: 1.5 }] }),
    [{ path: 'sessions.1.durationSeconds', message: 'must be a whole number of at least 1' }],
  ],
  ['payments.registerBulk: amount as a string', (s) => s.payments.registerBulk({ payments: [{ ...paymentItem, amount: bad('4.99') }] }), [{ path: 'payments.0.amount', message: 'must be a number' }]],
  ['payments.register: purchasedAt', (s) => s.payments.register({ ...paymentItem, purchasedAt: '2024-02-30T00:00:00.000Z' }), [{ path: 'purchasedAt', message: 'must be an ISO 8601 date-time in UTC, such as 2024-05-01T10:30:00Z' }]],
  ['payments.registerBulk: purchasedAt in local time', (s) => s.payments.registerBulk({ payments: [{ ...paymentItem, purchasedAt: '2024-05-01T19:30:00+09:00' }] }), [{ path: 'payments.0.purchasedAt', message: 'must be an ISO 8601 date-time in UTC, such as 2024-05-01T10:30:00Z' }]],
  // As `currency`: an empty one names no currency (a receipt's missing field passed on as '').
  ['payments.registerBulk: empty netCurrency', (s) => s.payments.registerBulk({ payments: [{ ...paymentItem, netAmount: 3.49, netCurrency: '' }] }), [{ path: 'payments.0.netCurrency', message: 'must not be empty' }]],
  ['payments.get: empty transactionId', (s) => s.payments.get(''), [{ path: 'transactionId', message: 'must not be empty' }]],
  // Half an emoji cannot be written in a URL: encodeURIComponent throws a URIError.
  ['payments.get: a lone surrogate', (s) => s.payments.get('tx-\ud83d'), [{ path: '(path)', message: 'must not hold a lone surrogate (half an emoji)' }]],
  ['sponsors.change: a userId with a lone surrogate', (s) => s.sponsors.change('user-\udc00', { newCreatorKey: 'ABCDE' }), [{ path: '(path)', message: 'must not hold a lone surrogate (half an emoji)' }]],
  ['coupons.redeem: gameUserUuid', (s) => s.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1', gameUserUuid: 'user-1' }), [{ path: 'gameUserUuid', message: 'must be a UUID' }]],
  ['coupons.validate: missing couponCode', (s) => s.coupons.validate(bad({})), [{ path: 'couponCode', message: 'is required' }]],
  ['coupons.listUsage: limit 101', (s) => s.coupons.listUsage('user-1', { limit: 101 }), [{ path: 'limit', message: 'must be an integer from 1 to 100' }]],
  ['sponsors.change: empty newCreatorKey (any other key is for the service to find, or answer 404)', (s) => s.sponsors.change('user-1', { newCreatorKey: '' }), [{ path: 'newCreatorKey', message: 'must not be empty' }]],
  ['sponsors.change: empty userId', (s) => s.sponsors.change('', { newCreatorKey: 'ABCDE' }), [{ path: 'userId', message: 'must not be empty' }]],
  ['sponsors.create: creatorKey not a string', (s) => s.sponsors.create({ userId: 'user-1', creatorKey: bad(12345) }), [{ path: 'creatorKey', message: 'must be a string' }]],
  ['sponsors.history: userId not a string', (s) => s.sponsors.history(bad(42)), [{ path: 'userId', message: 'must be a string' }]],
  ['webview.createToken: short codeChallenge', (s) => s.webview.createToken({ userId: 'user-1', codeChallenge: CHALLENGE.slice(1) }), [{ path: 'codeChallenge', message: 'must be at least 43 characters' }]],
  ['webhooks.create: retryCount 11', (s) => s.webhooks.create({ url: 'https://game.example/hooks', eventType: 'coupon.redeemed', retryCount: 11 }), [{ path: 'retryCount', message: 'must be at most 10' }]],
  ['webhooks.create: unknown event type', (s) => s.webhooks.create({ url: 'https://game.example/hooks', eventType: bad('coupon.created') }), [{ path: 'eventType', message: expect.stringContaining('must be one of') }]],
  ['webhooks.create: url', (s) => s.webhooks.create({ url: 'not a url', eventType: 'coupon.redeemed' }), [{ path: 'url', message: 'must be an absolute http or https URL' }]],
  ['webhooks.update: timeoutMs 999', (s) => s.webhooks.update(5, { timeoutMs: 999 }), [{ path: 'timeoutMs', message: 'must be at least 1000' }]],
  ['webhooks.update: id 0', (s) => s.webhooks.update(0, {}), [{ path: 'id', message: 'must be a positive integer' }]],
  ['webhooks.delete: id 1.5', (s) => s.webhooks.delete(1.5), [{ path: 'id', message: 'must be an integer' }]],
  ['webhooks.logs: id as a string', (s) => s.webhooks.logs(bad('5')), [{ path: 'id', message: 'must be a number' }]],
  ['campaigns.list: page 0', (s) => s.campaigns.list({ page: 0 }), [{ path: 'page', message: 'must be a whole number of at least 1' }]],
  ['campaigns.listCreators: empty id', (s) => s.campaigns.listCreators(''), [{ path: 'campaignId', message: 'must not be empty' }]],
];

describe('request validation (Server API)', () => {
  it.each(CASES)('%s', async (_, call, details) => {
    const fake = createFakeFetch();
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    const error = await Promise.resolve(call(server)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ name: 'ValidationError', code: 'VALIDATION_ERROR', status: undefined, details });
    expect((error as Error).message).toMatch(/^Invalid request: /);
    expect(fake.calls).toHaveLength(0);
  });

  it('rejects rather than throwing at the call, so .catch() sees it', async () => {
    const fake = createFakeFetch();
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    let promise: Promise<unknown> | undefined;
    expect(() => (promise = server.playtime.record({ ...sessionRequest, durationSeconds: -1 }))).not.toThrow();
    await expect(promise).rejects.toBeInstanceOf(ValidationError);
  });

  it('names every bad field at once', async () => {
    const fake = createFakeFetch();
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    const error = await server.playtime.record({ ...sessionRequest, durationSeconds: 0, creatorKey: 'x', platform: bad('pc') }).catch((e: unknown) => e);
    expect((error as ValidationError).details?.map((d) => d.path)).toEqual(['durationSeconds', 'creatorKey', 'platform']);
    expect(fake.calls).toHaveLength(0);
  });
});
