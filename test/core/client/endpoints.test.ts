/** Every Client API method: the exact request it sends, the typed result, and input refused before sending. */
import { describe, expect, it, vi } from 'vitest';
import { CampaignClient } from '../../../core/client/campaign-client.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { NotFoundError, ValidationError } from '../../../core/http/errors.js';
import { validateResponse } from '../../../core/schema/responses.js';
import { createFakeFetch, reply, type Reply } from '../../helpers/fake-fetch.js';
import { boostRecord, campaignDetail, creator } from '../schema/samples.js';

const CLIENT_KEY = 'ck_test_1:pub1ic';

interface Endpoint {
  call: (client: CampaignClient) => Promise<unknown>;
  answer: Reply;
  sent: { path: string; query?: Record<string, string> };
  result: unknown;
}

const ENDPOINTS: Record<string, Endpoint> = {
  'campaigns.get': {
    call: (c) => c.campaigns.get('camp-1'),
    answer: reply.ok(campaignDetail),
    sent: { path: '/v1/client/campaigns/camp-1' },
    result: campaignDetail,
  },
  'campaigns.listCreators': {
    call: (c) => c.campaigns.listCreators('camp 1/x'),
    answer: reply.ok([creator]),
    sent: { path: '/v1/client/campaigns/camp%201%2Fx/creators' },
    result: [creator],
  },
  'creators.get': {
    call: (c) => c.creators.get('ABC12'),
    answer: reply.ok(creator),
    sent: { path: '/v1/client/creators/ABC12' },
    result: creator,
  },
  'creators.search': {
    call: (c) => c.creators.search({ query: 'star & co', limit: 100, isTest: true }),
    answer: reply.ok([creator]),
    sent: { path: '/v1/client/creators/search', query: { q: 'star & co', limit: '100', isTest: 'true' } },
    result: [creator],
  },
  'sponsors.get': {
    call: (c) => c.sponsors.get('user-1'),
    answer: reply.ok(boostRecord),
    sent: { path: '/v1/client/sponsors/user/user-1' },
    result: boostRecord,
  },
};

describe('CampaignClient endpoints', () => {
  it.each(Object.entries(ENDPOINTS))('%s', async (_, endpoint) => {
    const fake = createFakeFetch(endpoint.answer);
    const client = new CampaignClient({ clientKey: CLIENT_KEY, environment: { baseUrl: 'http://emulator.local' }, fetch: fake.fetch, validateResponses: validateResponse });
    await expect(endpoint.call(client)).resolves.toEqual(endpoint.result);
    expect(fake.calls).toHaveLength(1);
    const sent = fake.last();
    expect(sent.method).toBe('GET');
    expect(sent.path).toBe(endpoint.sent.path);
    expect(sent.query).toEqual(endpoint.sent.query ?? {});
    expect(sent.rawBody).toBeUndefined();
    expect(sent.headers).toEqual({ authorization: `Bearer ${CLIENT_KEY}`, accept: 'application/json' });
  });

  it('covers every method of every resource', () => {
    const client = new CampaignClient({ clientKey: CLIENT_KEY });
    const methods = (['campaigns', 'creators', 'sponsors'] as const).flatMap((resource) =>
      Object.getOwnPropertyNames(Object.getPrototypeOf(client[resource]))
        .filter((name) => name !== 'constructor')
        .map((name) => `${resource}.${name}`),
    );
    expect(methods.sort()).toEqual(Object.keys(ENDPOINTS).sort());
  });

  it('encodes the search text as a query parameter and leaves out what was not given', async () => {
    const fake = createFakeFetch(reply.ok([creator]));
    const client = new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch });
    await client.creators.search({ query: 'a+b=c?' });
    expect(fake.last().url).toBe('https://sandbox-api.game-campaign.com/v1/client/creators/search?q=a%2Bb%3Dc%3F');
  });

  it('writes the query without URLSearchParams (missing on WeChat and Cocos native), and it decodes to what was sent', async () => {
    const queries = ['a b', "it's=~(o)!", 'ü&😀', '/?#+%', '&x=1'];
    const fake = createFakeFetch(...queries.map(() => reply.ok([creator])));
    const client = new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch });
    vi.stubGlobal('URLSearchParams', undefined);
    try {
      for (const query of queries) {
        await client.creators.search({ query, limit: 5 });
        vi.unstubAllGlobals();
        expect(Object.fromEntries(new URL(fake.last().url).searchParams)).toEqual({ q: query, limit: '5' });
        vi.stubGlobal('URLSearchParams', undefined);
      }
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a 404 for an unknown creator is a NotFoundError', async () => {
    const fake = createFakeFetch(reply.error(404, 'NOT_FOUND', 'Creator not found'));
    const client = new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch });
    const error = await client.creators.get('ZZZ99').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ name: 'NotFoundError', code: 'NOT_FOUND', status: 404, message: 'Creator not found' });
  });

  it('validateResponses: true without the validator function is a TypeError in a game client (the schemas stay out of its bundle)', () => {
    expect(() => new CampaignClient({ clientKey: CLIENT_KEY, validateResponses: true })).toThrow('validateResponses: pass validateResponse, not true, in a game client');
  });

  it('an awaited page of a paged list is itself async-iterable over the rest of the list', async () => {
    const campaign = { campaignId: 'c', projectId: 'p', campaignName: { en: 'C' }, description: { en: 'C' }, startDate: '2026-01-01T00:00:00.000Z', endDate: '2026-12-31T00:00:00.000Z' };
    const page = (n: number, ids: string[]) => reply.page(ids.map((campaignId) => ({ ...campaign, campaignId })), { page: n, limit: 2, total: 3, totalPages: 2 });
    const fake = createFakeFetch(page(1, ['a', 'b']), page(2, ['c']));
    const server = new CampaignServer({ serverKey: 'sk_test:secret', fetch: fake.fetch });
    const first = await server.campaigns.list({ limit: 2 });
    const ids: string[] = [];
    for await (const item of first) ids.push(item.campaignId);
    expect(ids).toEqual(['a', 'b', 'c']);
    expect(fake.calls.map((c) => c.url)).toEqual(['https://sandbox-api.game-campaign.com/v1/server/campaigns?page=1&limit=2', 'https://sandbox-api.game-campaign.com/v1/server/campaigns?page=2&limit=2']);
  });
});

describe('request validation (Client API)', () => {
  const bad = <T>(value: unknown) => value as T;
  it.each<[string, (c: CampaignClient) => Promise<unknown>, Array<{ path: string; message: string }>]>([
    ['creators.get: lowercase key', (c) => c.creators.get('abc12'), [{ path: 'creatorKey', message: 'must be exactly 5 uppercase letters or digits' }]],
    ['creators.get: 6 characters', (c) => c.creators.get('ABC123'), [{ path: 'creatorKey', message: 'must be exactly 5 uppercase letters or digits' }]],
    ['creators.search: empty text', (c) => c.creators.search({ query: '' }), [{ path: 'q', message: 'must be 1 to 10 characters' }]],
    ['creators.search: isTest not a boolean', (c) => c.creators.search({ query: 'ab', isTest: bad('yes') }), [{ path: 'isTest', message: 'must be a boolean' }]],
    ['campaigns.get: a dot-segment id', (c) => c.campaigns.get('..'), [{ path: '(path)', message: '".." cannot be a path parameter' }]],
    ['sponsors.get: a dot userId', (c) => c.sponsors.get('.'), [{ path: '(path)', message: '"." cannot be a path parameter' }]],
    ['creators.search: 11 characters', (c) => c.creators.search({ query: 'abcdefghijk' }), [{ path: 'q', message: 'must be 1 to 10 characters' }]],
    ['creators.search: limit 101', (c) => c.creators.search({ query: 'a', limit: 101 }), [{ path: 'limit', message: 'must be an integer from 1 to 100' }]],
    ['creators.search: limit 0', (c) => c.creators.search({ query: 'a', limit: 0 }), [{ path: 'limit', message: 'must be an integer from 1 to 100' }]],
    ['creators.search: every problem at once', (c) => c.creators.search({ query: '', limit: 0 }), [{ path: 'q', message: 'must be 1 to 10 characters' }, { path: 'limit', message: 'must be an integer from 1 to 100' }]],
    ['creators.search: text cut inside an emoji', (c) => c.creators.search({ query: 'abcdefghi😀'.slice(0, 10) }), [{ path: 'q', message: 'must not hold a lone surrogate (half an emoji)' }]],
    ['campaigns.get: a lone surrogate', (c) => c.campaigns.get('\udc00'), [{ path: '(path)', message: 'must not hold a lone surrogate (half an emoji)' }]],
    ['creators.search: no argument at all', (c) => c.creators.search(bad(undefined)), [{ path: 'q', message: 'is required' }]],
    ['creators.search: null', (c) => c.creators.search(bad(null)), [{ path: 'q', message: 'is required' }]],
    ['campaigns.get: empty id', (c) => c.campaigns.get(''), [{ path: 'campaignId', message: 'must not be empty' }]],
    ['campaigns.listCreators: not a string', (c) => c.campaigns.listCreators(bad(7)), [{ path: 'campaignId', message: 'must be a string' }]],
    ['sponsors.get: empty userId', (c) => c.sponsors.get(''), [{ path: 'userId', message: 'must not be empty' }]],
  ])('%s', async (_, call, details) => {
    const fake = createFakeFetch();
    const client = new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch });
    const error = await call(client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: undefined, details });
    expect(fake.calls).toHaveLength(0);
  });
});
