/** Every CampaignClient method against the emulator, in-process, with response validation on. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CampaignClient } from '../../core/client/campaign-client.js';
import { ForbiddenError, NotFoundError, UnauthorizedError } from '../../core/http/errors.js';
import { validateResponse } from '../../core/schema/responses.js';
import { createEmulator, type Emulator } from '../../emulator/index.js';
import {
  DEMO_ACTIVE_CAMPAIGN_ID,
  DEMO_BOOSTED_CREATORS,
  DEMO_CREATOR_KEYS,
  DEMO_PENDING_CAMPAIGN_ID,
  DEMO_USERS,
  MOCK_CREATORS,
} from '../../emulator/fixtures.js';

const BASE_URL = 'http://emulator.local';
let emulator: Emulator;
let client: CampaignClient;

beforeEach(() => {
  emulator = createEmulator({ faults: { rateLimitPerSecond: 0 } });
  client = new CampaignClient({ clientKey: emulator.clientKey, environment: { baseUrl: BASE_URL }, fetch: emulator.fetch, validateResponses: validateResponse });
});
afterEach(async () => {
  await emulator.close();
});

describe('campaigns', () => {
  it('gets a campaign with its status', async () => {
    await expect(client.campaigns.get(DEMO_ACTIVE_CAMPAIGN_ID)).resolves.toMatchObject({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, status: 'ACTIVE' });
    await expect(client.campaigns.get(DEMO_PENDING_CAMPAIGN_ID)).resolves.toMatchObject({ campaignId: DEMO_PENDING_CAMPAIGN_ID, status: 'PENDING_EXPOSURE' });
  });

  it('an unknown campaign is 404 NotFoundError', async () => {
    const error = await client.campaigns.get('cmp_nope').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('lists the creators of a campaign', async () => {
    const active = await client.campaigns.listCreators(DEMO_ACTIVE_CAMPAIGN_ID);
    expect(active.map((c) => c.creatorKey)).toEqual([...DEMO_CREATOR_KEYS]);
    const pending = await client.campaigns.listCreators(DEMO_PENDING_CAMPAIGN_ID);
    expect(pending.map((c) => c.creatorKey)).toEqual(DEMO_CREATOR_KEYS.slice(0, 3));
  });
});

describe('creators', () => {
  it('gets a creator by key', async () => {
    await expect(client.creators.get(DEMO_CREATOR_KEYS[0])).resolves.toMatchObject({ creatorKey: DEMO_CREATOR_KEYS[0], creatorName: 'Luna Plays', creatorId: 1 });
  });

  it('an unknown creator is 404 NotFoundError', async () => {
    await expect(client.creators.get('ZZZZ9')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('searches by name or key, case-insensitively, up to limit', async () => {
    const byName = await client.creators.search({ query: 'luna' });
    expect(byName.map((c) => c.creatorKey)).toEqual(['LUNA7']);
    const byKey = await client.creators.search({ query: 'pixel' });
    expect(byKey.map((c) => c.creatorKey)).toEqual(['PIXEL']);
    const limited = await client.creators.search({ query: 'a', limit: 2 });
    expect(limited).toHaveLength(2);
    expect(emulator.state().requests['GET /v1/client/creators/search']).toBe(3);
  });

  it('test mode returns the mock creators', async () => {
    await expect(client.creators.search({ query: 'test', isTest: true })).resolves.toEqual(MOCK_CREATORS);
  });
});

describe('boost status', () => {
  it('gets the user boost', async () => {
    await expect(client.sponsors.get(DEMO_USERS.changeable)).resolves.toMatchObject({
      userId: DEMO_USERS.changeable,
      campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
      creatorKey: DEMO_BOOSTED_CREATORS.changeable,
      isActive: true,
    });
  });

  it('a user without a boost is 404 NotFoundError', async () => {
    await expect(client.sponsors.get(DEMO_USERS.noBoost)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('keys', () => {
  it.each<[string, (c: CampaignClient) => Promise<unknown>]>([
    ['campaigns.get', (c) => c.campaigns.get(DEMO_ACTIVE_CAMPAIGN_ID)],
    ['campaigns.listCreators', (c) => c.campaigns.listCreators(DEMO_ACTIVE_CAMPAIGN_ID)],
    ['creators.get', (c) => c.creators.get(DEMO_CREATOR_KEYS[1])],
    ['creators.search', (c) => c.creators.search({ query: 'lu' })],
    ['sponsors.get', (c) => c.sponsors.get(DEMO_USERS.changeable)],
  ])('%s with a wrong Client key is 401 UnauthorizedError', async (_, call) => {
    const wrong = new CampaignClient({ clientKey: 'ck_wrong:nope', environment: { baseUrl: BASE_URL }, fetch: emulator.fetch });
    const error = await call(wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(error).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('a Server key given as the Client key is refused with ForbiddenError, so it never ships in a game that works', async () => {
    const withServerKey = new CampaignClient({ clientKey: emulator.serverKey, environment: { baseUrl: BASE_URL }, fetch: emulator.fetch });
    const error = await withServerKey.creators.get(DEMO_CREATOR_KEYS[1]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN' });
  });
});
