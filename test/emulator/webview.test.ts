// Web view: one-time tokens (60 s, single use, a newer token ends the older token and session of the same mode),
// the PKCE exchange without a key, the session's view and boost routes, and the page.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { dataOf } from '../../core/schema/primitives.js';
import { CreateOttRequest, OneTimeToken, WebviewSession } from '../../core/schema/webview.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_BOOSTED_CREATORS, DEMO_USERS, MOCK_CREATORS, type Emulator } from '../../emulator/index.js';
import { at, caller, emulatorAtT0, pkcePair, problemsOf, useSubscribedEmulator } from './helpers.js';

describe('emulator web view', () => {
  let emulator: Emulator;
  let call: ReturnType<typeof caller>;
  const pair = pkcePair('v');
  const issue = (body: Record<string, unknown> = {}) =>
    call('POST', '/v1/server/webview/ott', { body: { userId: DEMO_USERS.changeable, codeChallenge: pair.challenge, ...body } });
  const exchange = (ott: string, codeVerifier = pair.verifier) => call('POST', '/v1/webview/sessions', { key: null, body: { ott, codeVerifier } });

  beforeEach(() => {
    emulator = emulatorAtT0();
    call = caller(emulator);
  });

  it('issues a token { ott, expiresIn: 60 } and exchanges it once, without a key, for a session', async () => {
    const token = await issue({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, showCampaignDetail: true });
    expect(token.status).toBe(200);
    const { data } = dataOf(OneTimeToken).parse(token.body);
    expect(data.expiresIn).toBe(60);
    expect(data.ott).toMatch(/^ott_[A-Za-z0-9_-]{32}$/);
    const session = await exchange(data.ott);
    expect(session.status).toBe(200);
    expect(dataOf(WebviewSession).parse(session.body)).toEqual({
      data: {
        sessionId: expect.stringMatching(/^wvs_/),
        userId: DEMO_USERS.changeable,
        campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
        showCampaignDetail: true,
        expiresAt: at(60 * 60 * 1000),
      },
    });
    const reused = await exchange(data.ott);
    expect(reused.status).toBe(401);
    expect(reused.body).toEqual({
      status: 401,
      error: 'Unauthorized',
      message: 'The one-time token is unknown, expired, already used or replaced by a newer one',
      code: 'UNAUTHORIZED',
    });
  });

  it('expires a token 60 s after issue on the emulator clock', async () => {
    const first = (await issue()).body.data.ott;
    emulator.advanceClock(59_999);
    expect((await exchange(first)).status).toBe(200);
    const second = (await issue()).body.data.ott;
    emulator.advanceClock(60_000);
    expect((await exchange(second)).status).toBe(401);
  });

  // Spec "Create web view one-time token": the token is single-use. An exchange that failed on its verifier spent it,
  // as the service would: before, the token stayed open to further guesses, and then to the right verifier.
  it('answers an unknown token with 401 and a wrong verifier with 400 BAD_REQUEST, which spends the token', async () => {
    expect((await exchange('ott_unknown')).status).toBe(401);
    const ott = (await issue()).body.data.ott;
    const wrong = await exchange(ott, pkcePair('w').verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      status: 400,
      error: 'Bad Request',
      message: 'The code verifier does not match the code challenge; the one-time token is spent, issue a new one',
      code: 'BAD_REQUEST',
    });
    const right = await exchange(ott);
    expect(right.status).toBe(401);
    expect(right.body.code).toBe('UNAUTHORIZED');
    expect(emulator.state().webview).toMatchObject({ tokens: [{ ott, state: 'USED' }], sessions: [] });
    // A malformed verifier (400 VALIDATION_ERROR) spends the token it names too; a new token works as usual.
    const next = (await issue()).body.data.ott;
    const malformed = await exchange(next, 'short');
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('VALIDATION_ERROR');
    expect((await exchange(next)).status).toBe(401);
    const last = (await issue()).body.data.ott;
    expect((await exchange(last)).status).toBe(200);
  });

  it('invalidates the user older token and older exchanged session when a new token is issued', async () => {
    const first = (await issue()).body.data.ott;
    const session = (await exchange(first)).body.data.sessionId;
    expect((await call('GET', `/v1/webview/sessions/${session}`, { key: null })).status).toBe(200);
    const pending = (await issue()).body.data.ott;
    await issue();
    expect((await exchange(pending)).status).toBe(401);
    const view = await call('GET', `/v1/webview/sessions/${session}`, { key: null });
    expect(view.status).toBe(401);
    expect(view.body.message).toBe('The web view session is unknown, expired or replaced by a newer one');
    const other = await call('POST', '/v1/server/webview/ott', { body: { userId: 'someone_else', codeChallenge: pair.challenge } });
    expect((await exchange(other.body.data.ott)).status).toBe(200);
  });

  // A long CI run or dev session issues tokens for many players without a reset: each issue walked every token
  // and session ever stored, so issuing slowed as the run went on (about 2.5 times slower at 40,000 tokens).
  it('issues a token without walking the tokens and sessions of other players', async () => {
    emulator.setFaults({ rateLimitPerSecond: 0 });
    for (let i = 0; i < 200; i++) {
      const ott = (await issue({ userId: `player_${i}` })).body.data.ott;
      if (i % 2 === 0) expect((await exchange(ott)).status).toBe(200);
    }
    const values = Map.prototype.values;
    let visited = 0;
    function* counted(entries: Iterable<unknown>) {
      for (const value of entries) {
        visited++;
        yield value;
      }
    }
    const spy = vi.spyOn(Map.prototype, 'values').mockImplementation(function (this: Map<unknown, unknown>) {
      return counted(values.call(this)) as unknown as ReturnType<typeof values>;
    });
    try {
      expect((await issue({ userId: 'player_0' })).status).toBe(200);
    } finally {
      spy.mockRestore();
    }
    expect(visited).toBeLessThan(50);
    const mine = emulator.state().webview;
    expect(mine.sessions.filter((s) => s.userId === 'player_0').map((s) => s.valid)).toEqual([false]);
    expect(mine.sessions.filter((s) => s.userId === 'player_2').map((s) => s.valid)).toEqual([true]);
    expect(mine.tokens.filter((t) => t.userId === 'player_1').map((t) => t.state)).toEqual(['ISSUED']);
  });

  it('keeps test-mode tokens apart: issuing and exchanging one leaves the live session and live token working', async () => {
    const live = (await exchange((await issue()).body.data.ott)).body.data.sessionId;
    const testOtt = (await issue({ isTest: true })).body.data.ott;
    const testSession = await exchange(testOtt);
    expect(testSession.status).toBe(200);
    const view = await call('GET', `/v1/webview/sessions/${live}`, { key: null });
    expect(view.status).toBe(200);
    expect(view.body.data.boost).toMatchObject({ userId: DEMO_USERS.changeable, creatorKey: DEMO_BOOSTED_CREATORS.changeable });
    // A live token not yet exchanged survives a test token too; a newer test token ends the older test session only.
    const pendingLive = (await issue()).body.data.ott;
    await issue({ isTest: true });
    expect((await call('GET', `/v1/webview/sessions/${testSession.body.data.sessionId}`, { key: null })).status).toBe(401);
    expect((await exchange(pendingLive)).status).toBe(200);
    const states = emulator.state().webview.tokens.map(({ isTest, state }) => ({ isTest, state }));
    expect(states).toEqual([
      { isTest: false, state: 'USED' },
      { isTest: true, state: 'USED' },
      { isTest: false, state: 'USED' },
      { isTest: true, state: 'ISSUED' },
    ]);
  });

  it('answers an unknown campaign with 404 and a bad challenge with 400 VALIDATION_ERROR', async () => {
    const unknown = await issue({ campaignId: 'cmp_missing' });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ status: 404, error: 'Not Found', message: 'Campaign cmp_missing not found', code: 'NOT_FOUND' });
    const short = await issue({ codeChallenge: 'abc' });
    expect(short.status).toBe(400);
    expect(short.body.details).toEqual(problemsOf(CreateOttRequest, { userId: DEMO_USERS.changeable, codeChallenge: 'abc' }));
    expect(short.body.details.map((d: { path: string }) => d.path)).toEqual(['codeChallenge']);
    const forbidden = await call('POST', '/v1/server/webview/ott', { key: emulator.clientKey, body: { userId: 'u', codeChallenge: pair.challenge } });
    expect(forbidden.status).toBe(403);
  });

  it('shows the session campaign, creators and boost, and boosts from the page with the cooldown rules', async () => {
    const session = (await exchange((await issue()).body.data.ott)).body.data.sessionId;
    const view = await call('GET', `/v1/webview/sessions/${session}`, { key: null });
    expect(view.body.data.campaign).toMatchObject({ campaignId: DEMO_ACTIVE_CAMPAIGN_ID, status: 'ACTIVE' });
    expect(view.body.data.creators).toHaveLength(8);
    expect(view.body.data.boost).toMatchObject({ creatorKey: DEMO_BOOSTED_CREATORS.changeable });
    const boosted = await call('PUT', `/v1/webview/sessions/${session}/boost`, { key: null, body: { creatorKey: 'KAIZN' } });
    expect(boosted.status).toBe(200);
    expect(boosted.body.data).toMatchObject({ userId: DEMO_USERS.changeable, creatorKey: 'KAIZN', creatorName: 'Kaizen' });
    const again = await call('PUT', `/v1/webview/sessions/${session}/boost`, { key: null, body: { creatorKey: 'RIVER' } });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe('Boost can be changed again in 30 days');
  });

  it('shows sample data for a test-mode token and records no boost from it', async () => {
    const session = (await exchange((await issue({ isTest: true, userId: 'tester' })).body.data.ott)).body.data.sessionId;
    const view = await call('GET', `/v1/webview/sessions/${session}`, { key: null });
    expect(view.body.data.creators).toEqual(MOCK_CREATORS);
    expect(view.body.data.boost).toBeNull();
    const boosted = await call('PUT', `/v1/webview/sessions/${session}/boost`, { key: null, body: { creatorKey: 'TEST2' } });
    expect(boosted.status).toBe(200);
    expect(boosted.body.data).toEqual({ userId: 'tester', campaignId: 'cmp_test_sample', creatorKey: 'TEST2', creatorName: 'Test Creator Two', isActive: true, sponsoredAt: at(0) });
    expect(emulator.state().boosts.find((b) => b.userId === 'tester')).toBeUndefined();
    expect(emulator.state().boostHistory.find((h) => h.userId === 'tester')).toBeUndefined();
  });

  it('serves a self-contained page that reads ott from the query and code_verifier from the fragment', async () => {
    const page = await emulator.fetch(new Request('http://emulator.local/webview?ott=x'));
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("query.get('ott')");
    expect(html).toContain("fragment.get('code_verifier')");
    expect(html).toContain("'/v1/webview/sessions'");
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
  });
});

// Spec "Callback tracking": events triggered by a request carry its callbackId, and the web view token request takes
// one. A boost made in the web view is that request's work (the relay passes the game's callbackId on for this): its
// event carried no callbackId, so a game server waiting for it by id waited in vain on the emulator.
describe('emulator web view boost events', () => {
  const context = useSubscribedEmulator(['sponsor.changed', 'sponsor.created']);
  const pair = pkcePair('c');

  async function boostInWebView(userId: string, creatorKey: string, extra: Record<string, unknown>) {
    const { call } = context;
    const ott = (await call('POST', '/v1/server/webview/ott', { body: { userId, codeChallenge: pair.challenge, ...extra } })).body.data.ott;
    const session = (await call('POST', '/v1/webview/sessions', { key: null, body: { ott, codeVerifier: pair.verifier } })).body.data.sessionId;
    const boosted = await call('PUT', `/v1/webview/sessions/${session}/boost`, { key: null, body: { creatorKey } });
    expect(boosted.status).toBe(200);
  }

  it("carries the token request's callbackId in the events of boosts made in its web view, and in their logs", async () => {
    const { emulator, receiver } = context;
    await boostInWebView(DEMO_USERS.changeable, 'KAIZN', { callbackId: 'cb-webview' });
    await boostInWebView(DEMO_USERS.noBoost, 'NOVA1', { callbackId: 'cb-first' });
    await boostInWebView('user_plain', 'RIVER', {});
    await emulator.webhooksIdle();
    expect(receiver.events().map((event) => [event.type, event.data['userId'], event.callbackId])).toEqual([
      ['sponsor.changed', DEMO_USERS.changeable, 'cb-webview'],
      ['sponsor.created', DEMO_USERS.noBoost, 'cb-first'],
      ['sponsor.created', 'user_plain', undefined],
    ]);
    expect(emulator.state().deliveries.map((delivery) => delivery.callbackId)).toEqual(['cb-webview', 'cb-first', undefined]);
  });
});
