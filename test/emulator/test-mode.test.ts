// isTest: the same validation, mock data in the answer, nothing recorded and no webhook, for every write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BulkPaymentRequest } from '../../core/schema/payments.js';
import { BulkPlaytimeItem, PlaytimeSessionRequest } from '../../core/schema/playtime.js';
import { WEBHOOK_EVENT_TYPES } from '../../core/schema/webhooks.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_USERS, type EmulatorState } from '../../emulator/index.js';
import { at, caller, DAY_MS, emulatorAtT0, itemErrorOf, paymentBody, pkcePair, problemsOf, sessionBody, startReceiver, subscribe } from './helpers.js';

/** What a write may change: everything but request counts and delivery logs, which the test checks on their own. */
function recorded(state: EmulatorState) {
  const { requests: _requests, deliveries: _deliveries, webview: _webview, ...rest } = state;
  return rest;
}

describe('emulator test mode (isTest: true)', () => {
  const emulator = emulatorAtT0();
  const call = caller(emulator);
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let before: ReturnType<typeof recorded>;

  beforeAll(async () => {
    receiver = await startReceiver();
    await subscribe(emulator, receiver.url, [...WEBHOOK_EVENT_TYPES]);
    await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('existing') });
    await call('POST', '/v1/server/payments', { body: paymentBody('tx_existing') });
    await emulator.webhooksIdle();
    receiver.received.length = 0;
    before = recorded(emulator.state());
  });
  afterAll(async () => {
    await emulator.close();
    await receiver.close();
  });

  it('answers a single session with mock data and records nothing', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('t1', { isTest: true }) });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({ data: { sessionId: 't1', userId: 'user_1', durationSeconds: 60, recorded: true, createdAt: at(0) } });
    const duplicate = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('existing', { isTest: true }) });
    expect(duplicate.body.data.recorded).toBe(false);
  });

  it('answers bulk sessions with the real item results and records nothing', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions/bulk', {
      body: { isTest: true, sessions: [sessionBody('t2'), sessionBody('t2'), sessionBody('existing'), sessionBody('t3', { creatorKey: 'x' })] },
    });
    expect(answer.body.data).toEqual({
      totalRequested: 4,
      successful: 1,
      failed: 1,
      skipped: 2,
      results: [
        { sessionId: 't2', status: 'SUCCESS' },
        { sessionId: 't2', status: 'SKIPPED' },
        { sessionId: 'existing', status: 'SKIPPED' },
        { sessionId: 't3', status: 'FAILED', error: itemErrorOf(BulkPlaytimeItem, sessionBody('t3', { creatorKey: 'x' })) },
      ],
    });
  });

  it('validates exactly as in normal mode', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions', { body: sessionBody('t4', { durationSeconds: 0, isTest: true }) });
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual(problemsOf(PlaytimeSessionRequest, sessionBody('t4', { durationSeconds: 0, isTest: true })));
    expect(answer.body.details.map((d: { path: string }) => d.path)).toEqual(['durationSeconds']);
    const envelope = await call('POST', '/v1/server/payments/bulk', { body: { isTest: true, payments: 'all of them' } });
    expect(envelope.status).toBe(400);
    expect(envelope.body.details).toEqual(problemsOf(BulkPaymentRequest, { isTest: true, payments: 'all of them' }));
  });

  it('answers payments with mock records (id 0) and sends no payment event', async () => {
    const bulk = await call('POST', '/v1/server/payments/bulk', { body: { isTest: true, payments: [paymentBody('tx_t1'), paymentBody('tx_existing')] } });
    expect(bulk.body.data.results.map((r: { status: string; data: { id: number } }) => [r.status, r.data.id])).toEqual([
      ['SUCCESS', 0],
      ['SKIPPED', 1],
    ]);
    const single = await call('POST', '/v1/server/payments', { body: { ...paymentBody('tx_t2'), isTest: true } });
    expect(single.body.data).toMatchObject({ id: 0, transactionId: 'tx_t2', campaignId: DEMO_ACTIVE_CAMPAIGN_ID, status: 'COMPLETED' });
    expect((await call('GET', '/v1/server/payments/tx_t2')).status).toBe(404);
  });

  it('answers a coupon redemption with usageId 0 and stores no usage', async () => {
    const answer = await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'user_1', isTest: true } });
    expect(answer.body.data).toMatchObject({ success: true, usageId: 0, couponCode: 'WELCOME', redeemedAt: at(0) });
    const again = await call('POST', '/v1/server/coupons/redeem', { body: { couponCode: 'WELCOME', userId: 'user_1', isTest: true } });
    expect(again.status).toBe(200);
  });

  it('answers boost changes and creations as they would go, changing nothing', async () => {
    const change = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.changeable}`, { body: { newCreatorKey: 'NOVA1', isTest: true } });
    expect(change.body.data).toMatchObject({ creatorKey: 'NOVA1', sponsoredAt: at(0) });
    const cooldown = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.inCooldown}`, { body: { newCreatorKey: 'NOVA1', isTest: true } });
    expect(cooldown.status).toBe(400);
    const create = await call('POST', '/v1/server/sponsors', { body: { userId: 'fan_test', creatorKey: 'RIVER', isTest: true } });
    expect(create.body.data).toMatchObject({ userId: 'fan_test', creatorKey: 'RIVER' });
    expect(emulator.state().boosts.find((b) => b.userId === DEMO_USERS.changeable)?.sponsoredAt).toBe(at(-40 * DAY_MS));
  });

  it("boosts the mock creators a test-mode search answers (the SDK's picker in test mode offers them), only in test mode", async () => {
    // Before, a test-mode search answered TEST1..TEST3 and a test-mode boost of one was 404 "Creator TEST1 not found":
    // picker({ isTest: true }) offered nothing it could confirm.
    const search = await call('GET', '/v1/client/creators/search?q=x&isTest=true', { key: emulator.clientKey });
    const mockKey = (search.body.data as Array<{ creatorKey: string; creatorName: string }>)[0]!;
    const change = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.changeable}`, { body: { newCreatorKey: mockKey.creatorKey, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, isTest: true } });
    expect([change.status, change.body.data]).toMatchObject([200, { userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: mockKey.creatorKey, creatorName: mockKey.creatorName, sponsoredAt: at(0) }]);
    const create = await call('POST', '/v1/server/sponsors', { body: { userId: 'fan_test', creatorKey: mockKey.creatorKey, isTest: true } });
    expect([create.status, create.body.data]).toMatchObject([200, { userId: 'fan_test', creatorKey: mockKey.creatorKey, creatorName: mockKey.creatorName }]);
    // The cooldown is checked as in normal mode; outside test mode the mock key names no creator.
    const cooldown = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.inCooldown}`, { body: { newCreatorKey: mockKey.creatorKey, isTest: true } });
    expect([cooldown.status, cooldown.body.code]).toEqual([400, 'BAD_REQUEST']);
    const live = await call('PUT', `/v1/server/sponsors/user/${DEMO_USERS.changeable}`, { body: { newCreatorKey: mockKey.creatorKey } });
    expect([live.status, live.body.code]).toEqual([404, 'NOT_FOUND']);
    expect(emulator.state().boosts.find((b) => b.userId === DEMO_USERS.changeable)).toMatchObject({ creatorKey: 'LUNA7', sponsoredAt: at(-40 * DAY_MS) });
  });

  it('issues a test-mode web view token (kept so it can be exchanged) that shows sample data', async () => {
    const { challenge } = pkcePair('t');
    const answer = await call('POST', '/v1/server/webview/ott', { body: { userId: 'tester', codeChallenge: challenge, isTest: true } });
    expect(answer.body.data.expiresIn).toBe(60);
    expect(emulator.state().webview.tokens.find((t) => t.ott === answer.body.data.ott)?.isTest).toBe(true);
  });

  it('recorded nothing and sent no webhook through all of the above', async () => {
    await emulator.webhooksIdle();
    expect(recorded(emulator.state())).toEqual(before);
    expect(receiver.received).toEqual([]);
  });
});
