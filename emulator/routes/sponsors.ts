/**
 * Boosts: create (assumed route), change, status (assumed route), history (assumed route).
 * @see spec "Change boosted creator"; DESIGN section 10 for the assumed routes
 */
import type { Hono } from 'hono';
import { ChangeSponsorRequest, CreateSponsorRequest } from '../../core/schema/sponsors.js';
import { check } from '../data-only.js';
import type { AppEnv, AppContext, Services } from '../app-env.js';
import { applyBoost, type BoostOutcome } from '../boosts.js';
import { fail, invalid, notFound, ok } from '../respond.js';

/** Registers the sponsor routes. */
export function sponsorRoutes(app: Hono<AppEnv>, services: Services): void {
  const { store } = services;

  app.post('/v1/server/sponsors', (c) => {
    const checked = check(CreateSponsorRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    return answer(c, applyBoost(services, checked.data, 'upsert'));
  });

  app.put('/v1/server/sponsors/user/:userId', (c) => {
    const checked = check(ChangeSponsorRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const { newCreatorKey, ...rest } = checked.data;
    return answer(c, applyBoost(services, { ...rest, userId: c.req.param('userId'), creatorKey: newCreatorKey }, 'change'));
  });

  app.get('/v1/server/sponsors/user/:userId/history', (c) => {
    const userId = c.req.param('userId');
    return ok(c, store.boostHistory.filter((entry) => entry.userId === userId));
  });

  app.get('/v1/client/sponsors/user/:userId', (c) => {
    const userId = c.req.param('userId');
    const boost = store.boosts.get(userId);
    if (!boost) return notFound(c, `User ${userId} has no boost`);
    return ok(c, store.boostRecord(boost));
  });
}

function answer(c: AppContext, outcome: BoostOutcome): Response {
  return outcome.ok ? ok(c, outcome.boost) : fail(c, outcome.status, outcome.code, outcome.message);
}
