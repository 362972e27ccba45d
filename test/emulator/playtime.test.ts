// Playtime: single (201, dedupe with recorded:false, 422 for end before start), bulk (envelope 400, per-item
// SUCCESS/SKIPPED/FAILED, duplicates within a request) and attribution when campaignId is omitted.
import { beforeEach, describe, expect, it } from 'vitest';
import { BulkPlaytimeItem, BulkPlaytimeRequest, BulkPlaytimeResult, PlaytimeSession, PlaytimeSessionRequest } from '../../core/schema/playtime.js';
import { dataOf } from '../../core/schema/primitives.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_BOOSTED_CREATORS, DEMO_PENDING_CAMPAIGN_ID, DEMO_PROJECT_ID, DEMO_USERS, type Emulator } from '../../emulator/index.js';
import { at, caller, emulatorAtT0, itemErrorOf, problemsOf, sessionBody } from './helpers.js';

describe('emulator playtime sessions', () => {
  let emulator: Emulator;
  let call: ReturnType<typeof caller>;
  beforeEach(() => {
    emulator = emulatorAtT0();
    call = caller(emulator);
  });

  it('records a session: 201 with recorded true and the stored row', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1', { platform: 'iOS', metadata: { level: 3 } }) });
    expect(answer.status).toBe(201);
    expect(dataOf(PlaytimeSession).parse(answer.body)).toEqual({ data: { sessionId: 's1', userId: 'user_1', durationSeconds: 60, recorded: true, createdAt: at(0) } });
    expect(emulator.state().sessions).toEqual([
      {
        projectId: DEMO_PROJECT_ID,
        sessionId: 's1',
        userId: 'user_1',
        durationSeconds: 60,
        startedAt: at(-60_000),
        endedAt: at(0),
        campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
        creatorKey: '',
        platform: 'iOS',
        metadata: { level: 3 },
        createdAt: at(0),
      },
    ]);
  });

  it('answers a duplicate sessionId with 201 recorded false and keeps the existing row', async () => {
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1') });
    emulator.advanceClock(5000);
    const again = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1', { durationSeconds: 999, endedAt: at(1_000_000) }) });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ data: { sessionId: 's1', userId: 'user_1', durationSeconds: 60, recorded: false, createdAt: at(0) } });
    const sessions = emulator.state().sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.durationSeconds).toBe(60);
  });

  it('answers 422 VALIDATION_ERROR when the only problem is endedAt before startedAt', async () => {
    const body = sessionBody('s1', { endedAt: at(-120_000) });
    const answer = await call('POST', '/v1/server/playtime/sessions', { body });
    const details = problemsOf(PlaytimeSessionRequest, body);
    expect(details.map((d) => d.path)).toEqual(['endedAt']);
    expect(answer.status).toBe(422);
    expect(answer.body).toEqual({
      status: 422,
      error: 'Unprocessable Entity',
      message: `Request validation failed: endedAt: ${details[0]!.message}`,
      code: 'VALIDATION_ERROR',
      details,
    });
    expect(emulator.state().sessions).toEqual([]);
  });

  it('answers 400 VALIDATION_ERROR with every detail when there are other problems', async () => {
    const body = sessionBody('s1', { durationSeconds: 0, creatorKey: 'abc', endedAt: at(-120_000) });
    const answer = await call('POST', '/v1/server/playtime/sessions', { body });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(PlaytimeSessionRequest, body));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['durationSeconds', 'creatorKey', 'endedAt']);
    const missing = await call('POST', '/v1/server/playtime/sessions', { body: { sessionId: 's2' } });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual(problemsOf(PlaytimeSessionRequest, { sessionId: 's2' }));
    expect(missing.body.details.map((d: { path: string }) => d.path)).toEqual(['userId', 'durationSeconds', 'startedAt', 'endedAt']);
  });

  it('attributes a session without campaignId to the active campaign, with the creator of a boost held in it', async () => {
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('boosted', { userId: DEMO_USERS.changeable }) });
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('plain', { userId: DEMO_USERS.noBoost }) });
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('own-key', { userId: DEMO_USERS.noBoost, creatorKey: 'NOVA1' }) });
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('pending', { userId: DEMO_USERS.changeable, campaignId: DEMO_PENDING_CAMPAIGN_ID }) });
    const attribution = emulator.state().sessions.map(({ sessionId, campaignId, creatorKey, platform }) => ({ sessionId, campaignId, creatorKey, platform }));
    expect(attribution).toEqual([
      { sessionId: 'boosted', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: DEMO_BOOSTED_CREATORS.changeable, platform: 'Other' },
      { sessionId: 'plain', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: '', platform: 'Other' },
      { sessionId: 'own-key', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: 'NOVA1', platform: 'Other' },
      { sessionId: 'pending', campaignId: DEMO_PENDING_CAMPAIGN_ID, creatorKey: '', platform: 'Other' },
    ]);
  });

  it('attributes a session without campaignId to the active campaign even when the user boost is in a pending one', async () => {
    const moved = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.changeable}`, { body: { newCreatorKey: 'PIXEL', campaignId: DEMO_PENDING_CAMPAIGN_ID } });
    expect(moved.status).toBe(200);
    expect(moved.body.data).toMatchObject({ campaignId: DEMO_PENDING_CAMPAIGN_ID, creatorKey: 'PIXEL' });
    const single = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('single', { userId: DEMO_USERS.changeable }) });
    expect(single.status).toBe(201);
    const bulk = await call('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: [sessionBody('bulk', { userId: DEMO_USERS.changeable })] } });
    expect(bulk.body.data.results).toEqual([{ sessionId: 'bulk', status: 'SUCCESS' }]);
    const attribution = emulator.state().sessions.map(({ sessionId, campaignId, creatorKey }) => ({ sessionId, campaignId, creatorKey }));
    expect(attribution).toEqual([
      { sessionId: 'single', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: '' },
      { sessionId: 'bulk', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: '' },
    ]);
  });

  it('answers an unknown campaignId on a single session with 400 VALIDATION_ERROR', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('s1', { campaignId: 'cmp_missing' }) });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([{ path: 'campaignId', message: 'campaign not found' }]);
    expect(emulator.state().sessions).toEqual([]);
  });

  it('processes bulk items independently: SUCCESS, SKIPPED (existing or repeated) and FAILED with their messages', async () => {
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('existing') });
    const { sessionId: _a, ...noId } = sessionBody('x');
    const badKey = sessionBody('bad-key', { creatorKey: 'abc12' });
    const endsEarly = sessionBody('b2', { endedAt: at(-3_600_000) });
    const answer = await call('POST', '/v1/server/playtime/sessions/bulk', {
      body: {
        sessions: [
          sessionBody('b1'),
          badKey,
          sessionBody('b1', { durationSeconds: 5 }),
          sessionBody('existing'),
          sessionBody('no-campaign', { campaignId: 'cmp_missing' }),
          noId,
          'not an object',
          endsEarly,
          sessionBody('b3', { userId: DEMO_USERS.inCooldown }),
        ],
      },
    });
    expect(itemErrorOf(BulkPlaytimeItem, badKey)).toMatch(/^creatorKey: /);
    expect(answer.status).toBe(200);
    expect(dataOf(BulkPlaytimeResult).parse(answer.body)).toEqual({
      data: {
        totalRequested: 9,
        successful: 2,
        failed: 5,
        skipped: 2,
        results: [
          { sessionId: 'b1', status: 'SUCCESS' },
          { sessionId: 'bad-key', status: 'FAILED', error: itemErrorOf(BulkPlaytimeItem, badKey) },
          { sessionId: 'b1', status: 'SKIPPED' },
          { sessionId: 'existing', status: 'SKIPPED' },
          { sessionId: 'no-campaign', status: 'FAILED', error: 'campaignId: campaign not found' },
          { sessionId: '', status: 'FAILED', error: itemErrorOf(BulkPlaytimeItem, noId) },
          { sessionId: '', status: 'FAILED', error: itemErrorOf(BulkPlaytimeItem, 'not an object') },
          { sessionId: 'b2', status: 'FAILED', error: itemErrorOf(BulkPlaytimeItem, endsEarly) },
          { sessionId: 'b3', status: 'SUCCESS' },
        ],
      },
    });
    const stored = emulator.state().sessions;
    expect(stored.map((s) => s.sessionId)).toEqual(['existing', 'b1', 'b3']);
    expect(stored.find((s) => s.sessionId === 'b1')!.durationSeconds).toBe(60);
    expect(stored.find((s) => s.sessionId === 'b3')!.creatorKey).toBe(DEMO_BOOSTED_CREATORS.inCooldown);
  });

  it('answers an invalid bulk envelope with 400 as a whole and records nothing', async () => {
    const empty = await call('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: [] } });
    const emptyDetails = problemsOf(BulkPlaytimeRequest, { sessions: [] });
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      status: 400,
      error: 'Bad Request',
      message: `Request validation failed: sessions: ${emptyDetails[0]!.message}`,
      code: 'VALIDATION_ERROR',
      details: emptyDetails,
    });
    const thousandAndOne = { sessions: Array.from({ length: 1001 }, (_, i) => sessionBody(`s${i}`)) };
    const tooMany = await call('POST', '/v1/server/playtime/sessions/bulk', { body: thousandAndOne });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.details).toEqual(problemsOf(BulkPlaytimeRequest, thousandAndOne));
    expect(tooMany.body.details.map((d: { path: string }) => d.path)).toEqual(['sessions']);
    const badOptions = await call('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: [sessionBody('s1'), { sessionId: 5 }], isTest: 'yes', callbackId: 7 } });
    expect(badOptions.status).toBe(400);
    // Only the envelope's problems: the broken item would be reported per item.
    expect(badOptions.body.details).toEqual(problemsOf(BulkPlaytimeRequest, { sessions: [sessionBody('s1')], isTest: 'yes', callbackId: 7 }));
    expect(badOptions.body.details.map((d: { path: string }) => d.path)).toEqual(['callbackId', 'isTest']);
    const missing = await call('POST', '/v1/server/playtime/sessions/bulk', { body: {} });
    expect(missing.body.details).toEqual(problemsOf(BulkPlaytimeRequest, {}));
    expect(emulator.state().sessions).toEqual([]);
  });

  it('accepts exactly 1000 sessions in one bulk request', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions/bulk', { body: { sessions: Array.from({ length: 1000 }, (_, i) => sessionBody(`s${i}`)) } });
    expect(answer.status).toBe(200);
    expect(answer.body.data.successful).toBe(1000);
    expect(emulator.state().sessions).toHaveLength(1000);
  });
});
