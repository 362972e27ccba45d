// Campaigns and creators: the paged Server list without status, creators per campaign on both surfaces, the Client
// campaign detail with status, creator by key and the creator search (q, limit, isTest).
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { Campaign, CampaignDetail, Creator, SearchCreatorsQuery } from '../../core/schema/campaigns.js';
import { dataOf, PageQuery, pageOf } from '../../core/schema/primitives.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_CREATOR_KEYS, DEMO_PENDING_CAMPAIGN_ID, demoFixtures, MOCK_CREATORS } from '../../emulator/index.js';
import { caller, emulatorAtT0, problemsOf, T0 } from './helpers.js';

describe('emulator campaigns and creators', () => {
  const emulator = emulatorAtT0();
  const call = caller(emulator);
  const fixtures = demoFixtures(T0);
  const client = { key: emulator.clientKey };

  it('lists campaigns paged, without status', async () => {
    const answer = await call('GET', '/v1/server/campaigns');
    expect(answer.status).toBe(200);
    const page = pageOf(Campaign).parse(answer.body);
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    expect(page.data.map((c) => c.campaignId)).toEqual([DEMO_ACTIVE_CAMPAIGN_ID, DEMO_PENDING_CAMPAIGN_ID]);
    for (const campaign of answer.body.data) expect(Object.keys(campaign).sort()).toEqual(['campaignId', 'campaignName', 'description', 'endDate', 'projectId', 'startDate']);
    const second = await call('GET', '/v1/server/campaigns?page=2&limit=1');
    expect(second.body.data.map((c: { campaignId: string }) => c.campaignId)).toEqual([DEMO_PENDING_CAMPAIGN_ID]);
    expect(second.body.pagination).toEqual({ page: 2, limit: 1, total: 2, totalPages: 2 });
    const bad = await call('GET', '/v1/server/campaigns?limit=0');
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual(problemsOf(PageQuery, { limit: 0 }));
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(['limit']);
  });

  it('takes page and limit only as decimal numerals: hex, exponents, blanks and Infinity are refused, not read as numbers', async () => {
    for (const query of ['limit=0x10', 'limit=1e1', 'limit=%205', 'limit=5%20', 'page=0b1', 'page=Infinity', 'page=%2B1']) {
      const answer = await call('GET', `/v1/server/campaigns?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.code).toBe('VALIDATION_ERROR');
      expect(answer.body.details).toEqual([{ path: query.split('=')[0], message: 'must be a number' }]);
    }
    const whole = await call('GET', '/v1/server/campaigns?page=1.5');
    expect(whole.body.details).toEqual([{ path: 'page', message: 'must be a whole number of at least 1' }]);
    expect((await call('GET', '/v1/server/campaigns?page=01&limit=020')).body.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
  });

  it('lists the creators of a campaign on the Server and the Client API, 404 for an unknown campaign', async () => {
    const server = await call('GET', `/v1/server/campaigns/${DEMO_PENDING_CAMPAIGN_ID}/creators`);
    expect(dataOf(z.array(Creator)).parse(server.body).data.map((c) => c.creatorKey)).toEqual(DEMO_CREATOR_KEYS.slice(0, 3));
    const viaClient = await call('GET', `/v1/client/campaigns/${DEMO_ACTIVE_CAMPAIGN_ID}/creators`, client);
    expect(viaClient.body).toEqual({ data: fixtures.creators });
    for (const path of ['/v1/server/campaigns/cmp_missing/creators', '/v1/client/campaigns/cmp_missing/creators']) {
      const missing = await call('GET', path, path.startsWith('/v1/client') ? client : {});
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual({ status: 404, error: 'Not Found', message: 'Campaign cmp_missing not found', code: 'NOT_FOUND' });
    }
  });

  it('reads a campaign with its status on the Client API, 404 when unknown', async () => {
    const answer = await call('GET', `/v1/client/campaigns/${DEMO_PENDING_CAMPAIGN_ID}`, client);
    const { creatorKeys: _keys, ...pending } = fixtures.campaigns[1]!;
    expect(dataOf(CampaignDetail).parse(answer.body)).toEqual({ data: pending });
    expect(answer.body.data.status).toBe('PENDING_EXPOSURE');
    expect((await call('GET', '/v1/client/campaigns/cmp_missing', client)).status).toBe(404);
  });

  it('reads a creator by key, 404 when unknown', async () => {
    const answer = await call('GET', '/v1/client/creators/NOVA1', client);
    expect(answer.body).toEqual({ data: { creatorId: 3, creatorName: 'Nova One', genre: 'Strategy', creatorKey: 'NOVA1', status: 'ACTIVE' } });
    const missing = await call('GET', '/v1/client/creators/ZZZZZ', client);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, error: 'Not Found', message: 'Creator ZZZZZ not found', code: 'NOT_FOUND' });
  });

  it('searches creators by name or key, case-insensitively, up to limit', async () => {
    const search = async (query: string) => (await call('GET', `/v1/client/creators/search?${query}`, client)).body.data.map((c: { creatorKey: string }) => c.creatorKey);
    expect(await search('q=luna')).toEqual(['LUNA7']);
    expect(await search('q=pixel')).toEqual(['PIXEL']);
    expect(await search('q=N')).toEqual(['LUNA7', 'NOVA1', 'KAIZN', 'RIVER']);
    expect(await search('q=n&limit=2')).toEqual(['LUNA7', 'NOVA1']);
    expect(await search('q=nobody')).toEqual([]);
  });

  it('answers mock creators for isTest=true', async () => {
    const answer = await call('GET', '/v1/client/creators/search?q=luna&isTest=true', client);
    expect(answer.body).toEqual({ data: MOCK_CREATORS });
  });

  it('answers bad search queries with 400 VALIDATION_ERROR', async () => {
    const empty = await call('GET', '/v1/client/creators/search?q=', client);
    expect(empty.status).toBe(400);
    expect(empty.body.details).toEqual(problemsOf(SearchCreatorsQuery, { q: '' }));
    expect(empty.body.details.map((d: { path: string }) => d.path)).toEqual(['q']);
    const long = await call('GET', '/v1/client/creators/search?q=abcdefghijk&limit=101&isTest=maybe', client);
    expect(long.body.details).toEqual(problemsOf(SearchCreatorsQuery, { q: 'abcdefghijk', limit: 101, isTest: 'maybe' }));
    expect(long.body.details.map((d: { path: string }) => d.path)).toEqual(['q', 'limit', 'isTest']);
    const missing = await call('GET', '/v1/client/creators/search', client);
    expect(missing.body.details).toEqual(problemsOf(SearchCreatorsQuery, {}));
  });

  it('takes a search of 10 characters however many UTF-16 units they are (emoji), and refuses 11', async () => {
    const ten = await call('GET', `/v1/client/creators/search?q=${encodeURIComponent('🎮'.repeat(10))}`, client);
    expect(ten.status).toBe(200);
    expect(ten.body).toEqual({ data: [] });
    const eleven = await call('GET', `/v1/client/creators/search?q=${encodeURIComponent('🎮'.repeat(11))}`, client);
    expect(eleven.status).toBe(400);
    expect(eleven.body.details).toEqual([{ path: 'q', message: 'must be 1 to 10 characters' }]);
  });
});
