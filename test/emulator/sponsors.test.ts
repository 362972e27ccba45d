// Boosts: the 30-day cooldown and its message, a successful change (record, history, sponsor.changed), 404s,
// creation with POST /v1/server/sponsors (sponsor.created / sponsor.changed), boost status and history.
import { describe, expect, it } from 'vitest';
import { dataOf } from '../../core/schema/primitives.js';
import { BoostHistoryEntry, BoostRecord, ChangeSponsorRequest } from '../../core/schema/sponsors.js';
import * as z from 'zod/mini';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_BOOSTED_CREATORS, DEMO_PENDING_CAMPAIGN_ID, DEMO_USERS } from '../../emulator/index.js';
import { at, DAY_MS, problemsOf, useSubscribedEmulator } from './helpers.js';

describe('emulator boosts', () => {
  const ctx = useSubscribedEmulator(['sponsor.created', 'sponsor.changed']);
  const change = (userId: string, body: Record<string, unknown>) => ctx.call('PUT', `/v1/server/sponsors/user/${userId}`, { body });

  it('refuses a change inside the cooldown with 400 BAD_REQUEST stating the days remaining', async () => {
    const answer = await change(DEMO_USERS.inCooldown, { newCreatorKey: 'NOVA1' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: 'Bad Request', message: 'Boost can be changed again in 20 days', code: 'BAD_REQUEST' });
    ctx.emulator.advanceClock(19.5 * DAY_MS);
    expect((await change(DEMO_USERS.inCooldown, { newCreatorKey: 'NOVA1' })).body.message).toBe('Boost can be changed again in 1 day');
    ctx.emulator.advanceClock(0.5 * DAY_MS);
    expect((await change(DEMO_USERS.inCooldown, { newCreatorKey: 'NOVA1' })).status).toBe(200);
  });

  it('changes a boost after the cooldown: new creator, history CHANGED, sponsor.changed, cooldown restarted', async () => {
    const answer = await change(DEMO_USERS.changeable, { newCreatorKey: 'NOVA1', callbackId: 'cb-change' });
    expect(answer.status).toBe(200);
    expect(dataOf(BoostRecord).parse(answer.body)).toEqual({
      data: { userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: 'NOVA1', creatorName: 'Nova One', isActive: true, sponsoredAt: at(0) },
    });
    const history = await ctx.call('GET', `/v1/server/sponsors/user/${DEMO_USERS.changeable}/history`);
    expect(dataOf(z.array(BoostHistoryEntry)).parse(history.body)).toEqual({
      data: [
        { action: 'CREATED', userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: DEMO_BOOSTED_CREATORS.changeable, createdAt: at(-40 * DAY_MS) },
        { action: 'CHANGED', userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: 'NOVA1', previousCreatorKey: DEMO_BOOSTED_CREATORS.changeable, createdAt: at(0) },
      ],
    });
    await ctx.emulator.webhooksIdle();
    const events = ctx.receiver.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'sponsor.changed',
      callbackId: 'cb-change',
      data: { userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, oldCreatorKey: DEMO_BOOSTED_CREATORS.changeable, newCreatorKey: 'NOVA1', changedAt: at(0) },
    });
    const again = await change(DEMO_USERS.changeable, { newCreatorKey: 'KAIZN' });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Boost can be changed again in 30 days');
  });

  it('answers 404 NOT_FOUND for an unknown creator, an unknown campaign, a creator outside the campaign and a user without a boost', async () => {
    const creator = await change(DEMO_USERS.changeable, { newCreatorKey: 'ZZZZZ' });
    expect(creator.status).toBe(404);
    expect(creator.body).toEqual({ status: 404, error: 'Not Found', message: 'Creator ZZZZZ not found', code: 'NOT_FOUND' });
    const campaign = await change(DEMO_USERS.changeable, { newCreatorKey: 'NOVA1', campaignId: 'cmp_missing' });
    expect(campaign.status).toBe(404);
    expect(campaign.body.message).toBe('Campaign cmp_missing not found');
    const outside = await change(DEMO_USERS.changeable, { newCreatorKey: 'BLAZE', campaignId: DEMO_PENDING_CAMPAIGN_ID });
    expect(outside.status).toBe(404);
    expect(outside.body.message).toBe(`Creator BLAZE does not take part in campaign ${DEMO_PENDING_CAMPAIGN_ID}`);
    const nobody = await change(DEMO_USERS.noBoost, { newCreatorKey: 'NOVA1' });
    expect(nobody.status).toBe(404);
    expect(nobody.body.message).toBe(`User ${DEMO_USERS.noBoost} has no boost`);
    expect(ctx.emulator.state().boostHistory.filter((h) => h.action === 'CHANGED')).toEqual([]);
  });

  it('answers an invalid change body with 400 VALIDATION_ERROR, and a malformed key (it names no creator) with 404', async () => {
    const answer = await change(DEMO_USERS.changeable, { newCreatorKey: '' });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(ChangeSponsorRequest, { newCreatorKey: '' }));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['newCreatorKey']);
    const malformed = await change(DEMO_USERS.changeable, { newCreatorKey: 'nova1' });
    expect(malformed.status).toBe(404);
    expect(malformed.body).toEqual({ status: 404, error: 'Not Found', message: 'Creator nova1 not found', code: 'NOT_FOUND' });
  });

  it('moves a boost to another campaign when the change names it', async () => {
    const answer = await change(DEMO_USERS.changeable, { newCreatorKey: 'PIXEL', campaignId: DEMO_PENDING_CAMPAIGN_ID });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ campaignId: DEMO_PENDING_CAMPAIGN_ID, creatorKey: 'PIXEL', creatorName: 'PixelPam' });
  });

  it('creates a boost with POST /v1/server/sponsors (sponsor.created), keeps it for the same creator, changes it for another', async () => {
    const created = await ctx.call('POST', '/v1/server/sponsors', { body: { userId: 'fan_1', creatorKey: 'RIVER', callbackId: 'cb-new' } });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      data: { userId: 'fan_1', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: 'RIVER', creatorName: 'River Runs', isActive: true, sponsoredAt: at(0) },
    });
    const same = await ctx.call('POST', '/v1/server/sponsors', { body: { userId: 'fan_1', creatorKey: 'RIVER' } });
    expect(same.body).toEqual(created.body);
    const tooSoon = await ctx.call('POST', '/v1/server/sponsors', { body: { userId: 'fan_1', creatorKey: 'ZEPHR' } });
    expect(tooSoon.status).toBe(400);
    expect(tooSoon.body.message).toBe('Boost can be changed again in 30 days');
    ctx.emulator.advanceClock(30 * DAY_MS);
    const changed = await ctx.call('POST', '/v1/server/sponsors', { body: { userId: 'fan_1', creatorKey: 'ZEPHR' } });
    expect(changed.status).toBe(200);
    expect(changed.body.data.creatorKey).toBe('ZEPHR');
    await ctx.emulator.webhooksIdle();
    expect(ctx.receiver.events().map((e) => [e.type, e.callbackId])).toEqual([
      ['sponsor.created', 'cb-new'],
      ['sponsor.changed', undefined],
    ]);
    expect(ctx.receiver.events()[0]!.data).toEqual({ userId: 'fan_1', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: 'RIVER', creatorName: 'River Runs', sponsoredAt: at(0) });
    const history = await ctx.call('GET', '/v1/server/sponsors/user/fan_1/history');
    expect(history.body.data.map((h: { action: string; creatorKey: string }) => [h.action, h.creatorKey])).toEqual([
      ['CREATED', 'RIVER'],
      ['CHANGED', 'ZEPHR'],
    ]);
  });

  it('reads the boost status on the Client API (assumed route) and answers 404 for a user without one', async () => {
    const status = await ctx.call('GET', `/v1/client/sponsors/user/${DEMO_USERS.inCooldown}`, { key: ctx.emulator.clientKey });
    expect(status.status).toBe(200);
    expect(status.body).toEqual({
      data: { userId: DEMO_USERS.inCooldown, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: 'PIXEL', creatorName: 'PixelPam', isActive: true, sponsoredAt: at(-10 * DAY_MS) },
    });
    const none = await ctx.call('GET', `/v1/client/sponsors/user/${DEMO_USERS.noBoost}`, { key: ctx.emulator.clientKey });
    expect(none.status).toBe(404);
    expect(none.body.code).toBe('NOT_FOUND');
    const emptyHistory = await ctx.call('GET', `/v1/server/sponsors/user/${DEMO_USERS.noBoost}/history`);
    expect(emptyHistory.body).toEqual({ data: [] });
  });
});
