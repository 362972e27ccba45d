/** `validateResponses`: off by default; on, a success body that breaks the spec is a ResponseValidationError. */
import { describe, expect, it } from 'vitest';
import { CampaignClient } from '../../../core/client/campaign-client.js';
import { ResponseValidationError } from '../../../core/http/errors.js';
import { validateResponse } from '../../../core/schema/responses.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { campaign, creator, paymentDetail } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';
const CLIENT_KEY = 'ck_test_1:pub1ic';
// A local time with an offset is not the spec's UTC.
const malformed = { ...paymentDetail, amount: '4.99', createdAt: '2024-05-01T19:30:00+09:00' };

describe('validateResponses', () => {
  it('is off by default: a malformed body comes back as sent', async () => {
    const fake = createFakeFetch(reply.ok(malformed));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await expect(server.payments.get('tx-1')).resolves.toEqual(malformed);
  });

  it('takes any ISO 8601 date-time in UTC (spec: all timestamps), not only the millisecond form of playtime requests', async () => {
    const body = { ...paymentDetail, purchasedAt: '2024-05-01T10:30:00Z', createdAt: '2024-05-01T10:30:00.123456+00:00' };
    const fake = createFakeFetch(reply.ok(body));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, validateResponses: true });
    await expect(server.payments.get('tx-1')).resolves.toEqual(body);
  });

  it('rejects a malformed success body, naming each bad field', async () => {
    const fake = createFakeFetch(reply.ok(malformed));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, validateResponses: true });
    const error = await server.payments.get('tx-1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseValidationError);
    expect(error).toMatchObject({
      name: 'ResponseValidationError',
      code: 'INVALID_RESPONSE',
      status: 200,
      message: 'The response does not match the PaymentDetail schema',
      details: [
        { path: 'data.amount', message: 'must be a number' },
        { path: 'data.createdAt', message: 'must be an ISO 8601 date-time in UTC, such as 2024-05-01T10:30:00Z' },
      ],
    });
  });

  it('accepts a good body', async () => {
    const fake = createFakeFetch(reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, validateResponses: true });
    await expect(server.payments.get('tx-1')).resolves.toEqual(paymentDetail);
  });

  it('checks the envelope of pages and lists too', async () => {
    const fake = createFakeFetch(reply.ok([campaign(1)]), reply.ok([{ ...creator, creatorId: 'one' }]));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, validateResponses: true });
    await expect(server.campaigns.list()).rejects.toMatchObject({ code: 'INVALID_RESPONSE', details: [{ path: 'pagination', message: 'is required' }] });
    await expect(server.campaigns.listCreators('camp-1')).rejects.toMatchObject({ details: [{ path: 'data.0.creatorId', message: 'must be a number' }] });
  });

  it('is not retried: the service answered, and would answer the same', async () => {
    const fake = createFakeFetch(reply.ok(malformed), reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, validateResponses: true });
    await expect(server.payments.get('tx-1')).rejects.toBeInstanceOf(ResponseValidationError);
    expect(fake.calls).toHaveLength(1);
  });

  it('rejects a success body that is not a JSON object even when off', async () => {
    const fake = createFakeFetch(reply.text(200, '<html>maintenance</html>', { 'content-type': 'text/html' }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await expect(server.payments.get('tx-1')).rejects.toMatchObject({
      name: 'ResponseValidationError',
      code: 'INVALID_RESPONSE',
      status: 200,
      message: 'The 200 response has no PaymentDetail data',
    });
  });

  it('rejects a 204 or a body without data on a method that returns data, even when off', async () => {
    const fake = createFakeFetch(reply.noContent(), reply.json(200, { ok: true }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0 });
    await expect(server.webhooks.update(1, { isActive: false })).rejects.toMatchObject({
      name: 'ResponseValidationError',
      status: 204,
      message: 'The 204 response has no WebhookConfig data',
    });
    await expect(server.payments.get('tx-1')).rejects.toMatchObject({ name: 'ResponseValidationError', status: 200, message: 'The 200 response has no PaymentDetail data' });
  });

  it.each([
    ['a list read whose data is null', (client: CampaignClient) => client.campaigns.listCreators('camp-1'), { data: null }, 'Creator'],
    ['a list read whose data is one object', (client: CampaignClient) => client.creators.search({ query: 'star' }), { data: creator }, 'Creator'],
    ['an item read whose data is null', (client: CampaignClient) => client.campaigns.get('camp-1'), { data: null }, 'CampaignDetail'],
    ['an item read whose data is a list', (client: CampaignClient) => client.creators.get('ABC12'), { data: [creator] }, 'Creator'],
  ])('rejects %s even when off, rather than resolving it typed as the method says', async (_title, read, body, name) => {
    // Before: resolved as sent, so a game's `creators.map(...)` or `campaign.campaignName` threw a TypeError of its
    // own, far from the read (a proxy's or another version's answer, with validateResponses off as in every game).
    const fake = createFakeFetch(reply.json(200, body));
    const client = new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch });
    await expect(read(client)).rejects.toMatchObject({ name: 'ResponseValidationError', code: 'INVALID_RESPONSE', status: 200, message: `The 200 response has no ${name} data` });
    expect(fake.calls).toHaveLength(1);
  });

  it('takes the validator as a function in game clients', async () => {
    const fake = createFakeFetch(reply.ok({ ...creator, creatorKey: 7 }), reply.ok(creator));
    const client = new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch, validateResponses: validateResponse });
    await expect(client.creators.get('ABC12')).rejects.toMatchObject({ code: 'INVALID_RESPONSE', details: [{ path: 'data.creatorKey', message: 'must be a string' }] });
    await expect(client.creators.get('ABC12')).resolves.toEqual(creator);
  });
});
