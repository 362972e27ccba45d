/** Campaigns and creators, Server and Client API. @see spec "List campaigns", "Get campaign", "Search creators" */
import type { Hono } from 'hono';
import { SearchCreatorsQuery, type Campaign, type CampaignDetail } from '../../core/schema/campaigns.js';
import { PageQuery } from '../../core/schema/primitives.js';
import { check } from '../data-only.js';
import type { AppEnv, AppContext, Services } from '../app-env.js';
import { MOCK_CREATORS, type CampaignFixture } from '../fixtures.js';
import { coerceQuery, invalid, json, notFound, ok, paginate, queryOf } from '../respond.js';
import type { Store } from '../store.js';

/** Creators a search returns when it names no limit. assumed: the page size default, 20. */
export const DEFAULT_SEARCH_LIMIT = 20;

/** Registers the campaign and creator routes. */
export function campaignRoutes(app: Hono<AppEnv>, { store }: Services): void {
  app.get('/v1/server/campaigns', (c) => {
    const query = check(PageQuery, coerceQuery(queryOf(c), ['page', 'limit']));
    if (!query.success) return invalid(c, query.details);
    return json(c, paginate(store.fixtures.campaigns.map(campaignSummary), query.data.page, query.data.limit));
  });

  for (const surface of ['server', 'client'] as const) {
    app.get(`/v1/${surface}/campaigns/:id/creators`, (c) => {
      const campaign = findCampaign(c, store);
      return campaign instanceof Response ? campaign : ok(c, store.creatorsOf(campaign));
    });
  }

  app.get('/v1/client/campaigns/:id', (c) => {
    const campaign = findCampaign(c, store);
    return campaign instanceof Response ? campaign : ok(c, campaignDetail(campaign));
  });

  // Registered before /creators/:creatorKey so that "search" is not taken for a key.
  app.get('/v1/client/creators/search', (c) => {
    const query = check(SearchCreatorsQuery, coerceQuery(queryOf(c), ['limit'], ['isTest']));
    if (!query.success) return invalid(c, query.details);
    const { q, limit = DEFAULT_SEARCH_LIMIT, isTest } = query.data;
    // assumed: test mode answers the mock creators whatever the text.
    if (isTest) return ok(c, MOCK_CREATORS.slice(0, limit));
    const needle = q.toLowerCase();
    const found = store.fixtures.creators.filter(
      (creator) => creator.creatorName.toLowerCase().includes(needle) || creator.creatorKey.toLowerCase().includes(needle),
    );
    return ok(c, found.slice(0, limit));
  });

  app.get('/v1/client/creators/:creatorKey', (c) => {
    const creatorKey = c.req.param('creatorKey');
    const creator = store.creator(creatorKey);
    return creator ? ok(c, creator) : notFound(c, `Creator ${creatorKey} not found`);
  });
}

function findCampaign(c: AppContext, store: Store): CampaignFixture | Response {
  const id = c.req.param('id') ?? '';
  return store.campaign(id) ?? notFound(c, `Campaign ${id} not found`);
}

/** A campaign as the Server API lists it: no status. */
function campaignSummary({ campaignId, projectId, campaignName, description, startDate, endDate }: CampaignFixture): Campaign {
  return { campaignId, projectId, campaignName, description, startDate, endDate };
}

/** A campaign as the Client API shows it: with status. */
function campaignDetail(campaign: CampaignFixture): CampaignDetail {
  return { ...campaignSummary(campaign), status: campaign.status };
}
