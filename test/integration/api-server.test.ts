/**
 * Every CampaignServer method against the emulator, in-process: the success path, each documented error,
 * and what the emulator recorded (its `state()`), with response validation on.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  BoostCooldownError,
  ForbiddenError,
  NotFoundError,
  RateLimitError,
  UnauthorizedError,
  UserCodeLimitError,
} from '../../core/http/errors.js';
import { CampaignServer } from '../../core/server/campaign-server.js';
import { createEmulator, type Emulator } from '../../emulator/index.js';
import {
  DEMO_ACTIVE_CAMPAIGN_ID,
  DEMO_BOOSTED_CREATORS,
  DEMO_COUPONS,
  DEMO_CREATOR_KEYS,
  DEMO_PENDING_CAMPAIGN_ID,
  DEMO_USERS,
} from '../../emulator/fixtures.js';
import { CHALLENGE, UUID, paymentItem } from '../core/schema/samples.js';

const BASE_URL = 'http://emulator.local';
let emulator: Emulator;
let server: CampaignServer;

beforeEach(() => {
  emulator = createEmulator({ faults: { rateLimitPerSecond: 0 } });
  server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: BASE_URL }, fetch: emulator.fetch, validateResponses: true });
});
afterEach(async () => {
  await emulator.close();
});

/** A session of `seconds` that ended now, in the spec's timestamp form. */
function session(sessionId: string, seconds = 90, extra: object = {}) {
  const end = Date.now();
  return {
    sessionId,
    userId: DEMO_USERS.changeable,
    durationSeconds: seconds,
    startedAt: new Date(end - seconds * 1000).toISOString(),
    endedAt: new Date(end).toISOString(),
    ...extra,
  };
}

/** One call of every Server API method, with valid arguments. */
const EVERY_METHOD: Array<[string, (s: CampaignServer) => PromiseLike<unknown>]> = [
  ['playtime.record', (s) => s.playtime.record(session('s-keys'))],
  ['playtime.recordBulk', (s) => s.playtime.recordBulk({ sessions: [session('s-keys-bulk')] })],
  ['payments.registerBulk', (s) => s.payments.registerBulk({ payments: [paymentItem] })],
  ['payments.register', (s) => s.payments.register(paymentItem)],
  ['payments.get', (s) => s.payments.get('tx-1')],
  ['coupons.redeem', (s) => s.coupons.redeem({ couponCode: DEMO_COUPONS.welcome, userId: DEMO_USERS.changeable })],
  ['coupons.listUsage', (s) => s.coupons.listUsage(DEMO_USERS.changeable)],
  ['coupons.validate', (s) => s.coupons.validate({ couponCode: DEMO_COUPONS.welcome })],
  ['sponsors.change', (s) => s.sponsors.change(DEMO_USERS.changeable, { newCreatorKey: DEMO_CREATOR_KEYS[2] })],
  ['sponsors.create', (s) => s.sponsors.create({ userId: DEMO_USERS.noBoost, creatorKey: DEMO_CREATOR_KEYS[2] })],
  ['sponsors.history', (s) => s.sponsors.history(DEMO_USERS.changeable)],
  ['webview.createToken', (s) => s.webview.createToken({ userId: DEMO_USERS.changeable, codeChallenge: CHALLENGE })],
  ['webhooks.create', (s) => s.webhooks.create({ url: 'https://game.example/hooks', eventType: 'coupon.redeemed' })],
  ['webhooks.update', (s) => s.webhooks.update(1, { isActive: false })],
  ['webhooks.delete', (s) => s.webhooks.delete(1)],
  ['webhooks.logs', (s) => s.webhooks.logs(1)],
  ['campaigns.list', (s) => s.campaigns.list()],
  ['campaigns.listCreators', (s) => s.campaigns.listCreators(DEMO_ACTIVE_CAMPAIGN_ID)],
];

describe('keys', () => {
  it.each(EVERY_METHOD)('%s with a wrong key is 401 UnauthorizedError, and with a Client key 403 ForbiddenError', async (_, call) => {
    const wrong = new CampaignServer({ serverKey: 'sk_wrong:nope', environment: { baseUrl: BASE_URL }, fetch: emulator.fetch });
    await expect(call(wrong)).rejects.toMatchObject({ name: 'UnauthorizedError', status: 401, code: 'UNAUTHORIZED' });
    const withClientKey = new CampaignServer({ serverKey: emulator.clientKey, environment: { baseUrl: BASE_URL }, fetch: emulator.fetch });
    await expect(call(withClientKey)).rejects.toMatchObject({ name: 'ForbiddenError', status: 403, code: 'FORBIDDEN' });
    const { sessions, payments, couponUsages, webhooks } = emulator.state();
    expect({ sessions, payments, couponUsages, webhooks }).toEqual({ sessions: [], payments: [], couponUsages: [], webhooks: [] });
  });

  it('a wrong key is 401 UnauthorizedError', async () => {
    const wrong = new CampaignServer({ serverKey: 'sk_wrong:nope', environment: { baseUrl: BASE_URL }, fetch: emulator.fetch });
    await expect(wrong.campaigns.listCreators(DEMO_ACTIVE_CAMPAIGN_ID)).rejects.toMatchObject({ name: 'UnauthorizedError', status: 401, code: 'UNAUTHORIZED' });
    await expect(wrong.payments.get('tx-1')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  it('a Client key on a Server endpoint is 403 ForbiddenError, and records nothing', async () => {
    const withClientKey = new CampaignServer({ serverKey: emulator.clientKey, environment: { baseUrl: BASE_URL }, fetch: emulator.fetch });
    const error = await withClientKey.playtime.record(session('s-forbidden')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ForbiddenError);
    expect(error).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(emulator.state().sessions).toEqual([]);
  });
});

describe('playtime', () => {
  it('records a session, attributed to the active campaign and the user boost; a repeat is recorded: false', async () => {
    const first = await server.playtime.record({ ...session('s-1'), platform: 'Android', metadata: { level: 3 } });
    expect(first).toMatchObject({ sessionId: 's-1', userId: DEMO_USERS.changeable, durationSeconds: 90, recorded: true });
    const again = await server.playtime.record({ ...session('s-1', 30) });
    expect(again).toEqual({ ...first, recorded: false });
    const sessions = emulator.state().sessions;
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({
      sessionId: 's-1',
      durationSeconds: 90,
      campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
      creatorKey: DEMO_BOOSTED_CREATORS.changeable,
      platform: 'Android',
      metadata: { level: 3 },
    });
  });

  it('isTest: true answers but records nothing', async () => {
    const result = await server.playtime.record({ ...session('s-test'), isTest: true });
    expect(result).toMatchObject({ sessionId: 's-test', recorded: true });
    expect(emulator.state().sessions).toEqual([]);
  });

  it('bulk: SUCCESS, SKIPPED for a known sessionId, FAILED for an unknown campaign', async () => {
    await server.playtime.record(session('s-old'));
    const result = await server.playtime.recordBulk({
      sessions: [session('s-new'), session('s-old'), session('s-bad', 60, { campaignId: 'cmp_nope' })],
      callbackId: 'cb-bulk',
    });
    expect(result).toEqual({
      totalRequested: 3,
      successful: 1,
      failed: 1,
      skipped: 1,
      results: [
        { sessionId: 's-new', status: 'SUCCESS' },
        { sessionId: 's-old', status: 'SKIPPED' },
        { sessionId: 's-bad', status: 'FAILED', error: expect.stringContaining('campaignId') },
      ],
    });
    expect(emulator.state().sessions.map((s) => s.sessionId).sort()).toEqual(['s-new', 's-old']);
  });

  it('bulk with isTest records nothing', async () => {
    const result = await server.playtime.recordBulk({ sessions: [session('t-1'), session('t-2')], isTest: true });
    expect(result).toMatchObject({ totalRequested: 2, successful: 2, failed: 0, skipped: 0 });
    expect(emulator.state().sessions).toEqual([]);
  });
});

describe('payments', () => {
  it('registers in bulk; an existing transactionId is SKIPPED; get returns the detail', async () => {
    const purchasedAt = new Date().toISOString();
    const first = await server.payments.registerBulk({ payments: [{ ...paymentItem, userId: DEMO_USERS.changeable, transactionId: 'tx-a', purchasedAt }] });
    expect(first).toMatchObject({ totalRequested: 1, successful: 1, failed: 0, skipped: 0, results: [{ transactionId: 'tx-a', status: 'SUCCESS' }] });
    expect(first.results[0]!.data).toMatchObject({ transactionId: 'tx-a', amount: 4.99, currency: 'USD', status: 'COMPLETED', isRefund: false });

    const second = await server.payments.registerBulk({
      payments: [
        { ...paymentItem, transactionId: 'tx-a', purchasedAt },
        { ...paymentItem, transactionId: 'tx-b', purchasedAt },
      ],
    });
    expect(second).toMatchObject({ totalRequested: 2, successful: 1, skipped: 1, failed: 0 });
    expect(second.results.map((r) => [r.transactionId, r.status])).toEqual([
      ['tx-a', 'SKIPPED'],
      ['tx-b', 'SUCCESS'],
    ]);

    const detail = await server.payments.get('tx-a');
    expect(detail).toMatchObject({ transactionId: 'tx-a', userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: DEMO_BOOSTED_CREATORS.changeable });
    expect(detail).not.toHaveProperty('platform');
    expect(emulator.state().payments.map((p) => p.transactionId)).toEqual(['tx-a', 'tx-b']);
  });

  it('registers one payment; the same transactionId again returns the existing record', async () => {
    const record = await server.payments.register({ ...paymentItem, transactionId: 'tx-one' });
    expect(record).toMatchObject({ transactionId: 'tx-one', distributionType: 'MOBILE_STORE' });
    await expect(server.payments.register({ ...paymentItem, transactionId: 'tx-one', amount: 9.99 })).resolves.toEqual(record);
    expect(emulator.state().payments.map((p) => p.transactionId)).toEqual(['tx-one']);
  });

  it('isTest records nothing', async () => {
    await server.payments.registerBulk({ payments: [{ ...paymentItem, transactionId: 'tx-test' }], isTest: true });
    await server.payments.register({ ...paymentItem, transactionId: 'tx-test-2', isTest: true });
    expect(emulator.state().payments).toEqual([]);
  });

  it('an unknown payment is 404 NotFoundError', async () => {
    const error = await server.payments.get('tx-missing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});

describe('coupons', () => {
  it('redeems, then USER_CODE_LIMIT once the per-user limit is used', async () => {
    const redemption = await server.coupons.redeem({ couponCode: DEMO_COUPONS.welcome, userId: DEMO_USERS.noBoost, gameUserUuid: UUID, callbackId: 'cb-c' });
    expect(redemption).toMatchObject({ success: true, couponCode: DEMO_COUPONS.welcome });
    expect(redemption.reward?.length).toBeGreaterThan(0);
    const error = await server.coupons.redeem({ couponCode: DEMO_COUPONS.welcome, userId: DEMO_USERS.noBoost }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserCodeLimitError);
    expect(error).toMatchObject({ status: 400, code: 'USER_CODE_LIMIT' });
    expect(emulator.state().couponUsages).toHaveLength(1);
  });

  it('isTest records nothing', async () => {
    await server.coupons.redeem({ couponCode: DEMO_COUPONS.welcome, userId: DEMO_USERS.noBoost, isTest: true });
    expect(emulator.state().couponUsages).toEqual([]);
  });

  it('validates a code without redeeming it', async () => {
    await expect(server.coupons.validate({ couponCode: DEMO_COUPONS.daily, userId: DEMO_USERS.noBoost })).resolves.toMatchObject({ valid: true, couponCode: DEMO_COUPONS.daily });
    await expect(server.coupons.validate({ couponCode: 'NOPE' })).resolves.toMatchObject({ valid: false, couponCode: 'NOPE' });
    expect(emulator.state().couponUsages).toEqual([]);
  });

  it('pages over a user coupon usage, for a user id that needs encoding', async () => {
    const userId = 'player/7 ü';
    const codes = [DEMO_COUPONS.daily, DEMO_COUPONS.daily, DEMO_COUPONS.daily, DEMO_COUPONS.welcome, DEMO_COUPONS.creator];
    for (const couponCode of codes) await server.coupons.redeem({ couponCode, userId });

    const first = await server.coupons.listUsage(userId, { limit: 2 });
    expect(first.pagination).toEqual({ page: 1, limit: 2, total: 5, totalPages: 3 });
    expect(first.data.map((u) => u.couponCode)).toEqual(codes.slice(0, 2));

    const all: string[] = [];
    for await (const usage of server.coupons.listUsage(userId, { limit: 2 })) {
      expect(usage.userId).toBe(userId);
      all.push(usage.couponCode);
    }
    expect(all).toEqual(codes);
    expect(emulator.state().requests['GET /v1/server/coupons/user/:userId']).toBe(4);
  });
});

describe('sponsors (boosts)', () => {
  it('changes a boost after the cooldown, with a CHANGED history entry', async () => {
    const newCreatorKey = DEMO_CREATOR_KEYS[3];
    const boost = await server.sponsors.change(DEMO_USERS.changeable, { newCreatorKey, callbackId: 'cb-s' });
    expect(boost).toMatchObject({ userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: newCreatorKey, isActive: true });
    const history = await server.sponsors.history(DEMO_USERS.changeable);
    expect(history.at(-1)).toMatchObject({ action: 'CHANGED', creatorKey: newCreatorKey, previousCreatorKey: DEMO_BOOSTED_CREATORS.changeable });
    expect(emulator.state().boosts.find((b) => b.userId === DEMO_USERS.changeable)?.creatorKey).toBe(newCreatorKey);
    // The change restarted the cooldown.
    await expect(server.sponsors.change(DEMO_USERS.changeable, { newCreatorKey: DEMO_CREATOR_KEYS[4] })).rejects.toMatchObject({ daysRemaining: 30 });
  });

  it('inside the cooldown: 400 BoostCooldownError with daysRemaining', async () => {
    const error = await server.sponsors.change(DEMO_USERS.inCooldown, { newCreatorKey: DEMO_CREATOR_KEYS[3] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BoostCooldownError);
    expect(error).toMatchObject({ status: 400, code: 'BAD_REQUEST', daysRemaining: 20, message: 'Boost can be changed again in 20 days' });
    expect(emulator.state().boosts.find((b) => b.userId === DEMO_USERS.inCooldown)?.creatorKey).toBe(DEMO_BOOSTED_CREATORS.inCooldown);
  });

  it('counts the cooldown down on the emulator clock', async () => {
    emulator.advanceClock(15 * 24 * 60 * 60 * 1000);
    await expect(server.sponsors.change(DEMO_USERS.inCooldown, { newCreatorKey: DEMO_CREATOR_KEYS[3] })).rejects.toMatchObject({ daysRemaining: 5 });
    emulator.advanceClock(5 * 24 * 60 * 60 * 1000);
    await expect(server.sponsors.change(DEMO_USERS.inCooldown, { newCreatorKey: DEMO_CREATOR_KEYS[3] })).resolves.toMatchObject({ creatorKey: DEMO_CREATOR_KEYS[3] });
  });

  it('an unknown creator is 404 NotFoundError', async () => {
    await expect(server.sponsors.change(DEMO_USERS.changeable, { newCreatorKey: 'ZZZZ9' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('isTest changes nothing', async () => {
    const boost = await server.sponsors.change(DEMO_USERS.changeable, { newCreatorKey: DEMO_CREATOR_KEYS[3], isTest: true });
    expect(boost.creatorKey).toBe(DEMO_CREATOR_KEYS[3]);
    expect(emulator.state().boosts.find((b) => b.userId === DEMO_USERS.changeable)?.creatorKey).toBe(DEMO_BOOSTED_CREATORS.changeable);
    expect(emulator.state().boostHistory.filter((h) => h.action === 'CHANGED')).toEqual([]);
  });

  it('creates a boost for a user without one', async () => {
    const boost = await server.sponsors.create({ userId: DEMO_USERS.noBoost, creatorKey: DEMO_CREATOR_KEYS[2], campaignId: DEMO_PENDING_CAMPAIGN_ID });
    expect(boost).toMatchObject({ userId: DEMO_USERS.noBoost, campaignId: DEMO_PENDING_CAMPAIGN_ID, creatorKey: DEMO_CREATOR_KEYS[2], isActive: true });
    await expect(server.sponsors.history(DEMO_USERS.noBoost)).resolves.toMatchObject([{ action: 'CREATED', creatorKey: DEMO_CREATOR_KEYS[2] }]);
  });
});

describe('web view tokens', () => {
  it('issues a 60-second token bound to the challenge', async () => {
    const token = await server.webview.createToken({ userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, codeChallenge: CHALLENGE, showCampaignDetail: true });
    expect(token.expiresIn).toBe(60);
    expect(token.ott.length).toBeGreaterThan(0);
    expect(emulator.state().webview.tokens).toMatchObject([{ ott: token.ott, userId: DEMO_USERS.changeable, codeChallenge: CHALLENGE, state: 'ISSUED' }]);
  });

  it('an unknown campaign is 404 NotFoundError', async () => {
    await expect(server.webview.createToken({ userId: 'u', campaignId: 'cmp_nope', codeChallenge: CHALLENGE })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('webhooks', () => {
  it('creates (secret once), updates, reads logs and deletes a receiver', async () => {
    const created = await server.webhooks.create({ url: 'http://127.0.0.1:9/hooks', eventType: 'coupon.redeemed', retryCount: 0, timeoutMs: 1000 });
    expect(created).toMatchObject({ eventType: 'coupon.redeemed', url: 'http://127.0.0.1:9/hooks', isActive: true, retryCount: 0, timeoutMs: 1000 });
    expect(created.secret).toMatch(/^whsec_/);

    const updated = await server.webhooks.update(created.id, { isActive: false, retryCount: 2 });
    expect(updated).toMatchObject({ id: created.id, isActive: false, retryCount: 2, timeoutMs: 1000 });
    expect(updated).not.toHaveProperty('secret');

    await expect(server.webhooks.logs(created.id)).resolves.toEqual([]);
    await expect(server.webhooks.delete(created.id)).resolves.toBeUndefined();
    expect(emulator.state().webhooks).toEqual([]);
  });

  // Spec "Test mode": every write operation shown accepts isTest, the delete included; before, delete(id) took no
  // request at all, so a sandbox check of an integration's clean-up removed the real receiver.
  it('deletes in test mode: the receiver stays; delete(id, options) and delete(id) still delete', async () => {
    const created = await server.webhooks.create({ url: 'http://127.0.0.1:9/hooks', eventType: 'sponsor.changed' });
    const signal = new AbortController().signal;
    await expect(server.webhooks.delete(created.id, { isTest: true, callbackId: 'cb-1' }, { signal, timeout: 5_000 })).resolves.toBeUndefined();
    await expect(server.webhooks.delete(created.id, { isTest: true })).resolves.toBeUndefined();
    expect(emulator.state().webhooks.map((hook) => hook.id)).toEqual([created.id]);
    // One object naming both a write option and a request option would lose the `signal`: refused, nothing sent.
    await expect(server.webhooks.delete(created.id, { isTest: false, signal } as never)).rejects.toThrow(/delete\(id, request, options\)/);
    expect(emulator.state().webhooks.map((hook) => hook.id)).toEqual([created.id]);
    await expect(server.webhooks.delete(created.id, { isTest: 'yes' as never })).rejects.toMatchObject({ name: 'ValidationError', details: [{ path: 'isTest' }] });
    await expect(server.webhooks.delete(created.id, { signal })).resolves.toBeUndefined();
    expect(emulator.state().webhooks).toEqual([]);
    const again = await server.webhooks.create({ url: 'http://127.0.0.1:9/hooks', eventType: 'sponsor.changed' });
    await expect(server.webhooks.delete(again.id, { isTest: false })).resolves.toBeUndefined();
    expect(emulator.state().webhooks).toEqual([]);
  });

  // A JavaScript wrapper forwarding its own parameters passes a third argument left undefined: the second is still the
  // request options (before, counted as a request, its signal went unheard and an aborted delete removed the receiver).
  it('delete(id, options, undefined) keeps the options; a request naming a request option beside options is refused', async () => {
    const created = await server.webhooks.create({ url: 'http://127.0.0.1:9/hooks', eventType: 'sponsor.changed' });
    const forward = (id: number, a?: unknown, b?: unknown) => server.webhooks.delete(id, a as never, b as never);
    await expect(forward(created.id, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(emulator.state().webhooks.map((hook) => hook.id)).toEqual([created.id]);
    await expect(forward(created.id, { timeout: 5_000 }, { signal: AbortSignal.abort() })).rejects.toThrow(/delete\(id, request, options\)/);
    expect(emulator.state().webhooks.map((hook) => hook.id)).toEqual([created.id]);
    await expect(forward(created.id, { isTest: true }, undefined)).resolves.toBeUndefined();
    expect(emulator.state().webhooks.map((hook) => hook.id)).toEqual([created.id]);
    await expect(forward(created.id, undefined, { timeout: 5_000 })).resolves.toBeUndefined();
    expect(emulator.state().webhooks).toEqual([]);
  });

  it.each<[string, (id: number) => Promise<unknown>]>([
    ['update', (id) => server.webhooks.update(id, { isActive: true })],
    ['delete', (id) => server.webhooks.delete(id)],
    ['logs', (id) => server.webhooks.logs(id)],
  ])('%s of an unknown receiver is 404 NotFoundError', async (_, call) => {
    await expect(call(987654)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('campaigns', () => {
  it('lists the campaigns (without status), paged', async () => {
    const page = await server.campaigns.list();
    expect(page.pagination).toEqual({ page: 1, limit: 20, total: 2, totalPages: 1 });
    expect(page.data.map((c) => c.campaignId)).toEqual([DEMO_ACTIVE_CAMPAIGN_ID, DEMO_PENDING_CAMPAIGN_ID]);
    for (const campaign of page.data) expect(campaign).not.toHaveProperty('status');
    const walked: string[] = [];
    for await (const campaign of server.campaigns.list({ limit: 1 })) walked.push(campaign.campaignId);
    expect(walked).toEqual([DEMO_ACTIVE_CAMPAIGN_ID, DEMO_PENDING_CAMPAIGN_ID]);
  });

  it('lists the creators of a campaign', async () => {
    const creators = await server.campaigns.listCreators(DEMO_ACTIVE_CAMPAIGN_ID);
    expect(creators.map((c) => c.creatorKey)).toEqual([...DEMO_CREATOR_KEYS]);
  });
});

describe('rate limit', () => {
  // The limiter's window is 1 s of the clock: fake timers freeze it (Date and the window's setTimeout), so the second
  // call is in the first one's window however long a loaded machine takes between them (real time let it through).
  afterEach(() => {
    vi.useRealTimers();
  });

  it('429 RateLimitError with retryAfterMs', async () => {
    await emulator.close();
    vi.useFakeTimers();
    emulator = createEmulator({ faults: { rateLimitPerSecond: 1 } });
    const limited = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: BASE_URL }, fetch: emulator.fetch, maxRetries: 0 });
    await limited.campaigns.listCreators(DEMO_ACTIVE_CAMPAIGN_ID);
    const error = await limited.campaigns.listCreators(DEMO_ACTIVE_CAMPAIGN_ID).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
    expect((error as RateLimitError).retryAfterMs).toBeGreaterThanOrEqual(1000);
  });
});
