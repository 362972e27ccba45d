import { afterEach, describe, expect, it, vi } from 'vitest';
import { CampaignServer } from '../../../core/server/index.js';
import { createRelay, DEFAULT_AUTHENTICATE_TIMEOUT_MS, RELAY_ROUTES, USER_MISMATCH_ERROR } from '../../../core/relay/index.js';
import { createFakeFetch } from '../../helpers/fake-fetch.js';
import { BASE_URL, read, relayOverFakeService, relayRequest, serviceReply, session, sessions } from './fake-service.js';

const UNAUTHORIZED = { status: 401, error: 'Unauthorized', message: 'Authentication failed', code: 'UNAUTHORIZED' };
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const routes = [
  ['POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }],
  ['POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }],
  ['PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }],
] as const;

function relayWith(authenticate: (request: Request) => unknown) {
  const fake = createFakeFetch().otherwise(serviceReply());
  const server = new CampaignServer({ serverKey: 'sk_relay:secret', environment: { baseUrl: BASE_URL }, fetch: fake.fetch, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: authenticate as never });
  return { relay, fake };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('relay authentication', () => {
  it.each(routes)('%s %s without an authenticated user answers 401 UNAUTHORIZED and calls nothing', async (method, route, body) => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(relayRequest(method, route, body)));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(UNAUTHORIZED);
    expect(fake.calls).toEqual([]);
  });

  it.each([
    ['throws', () => { throw new Error('token expired'); }],
    ['rejects', () => Promise.reject(new Error('auth service down'))],
    ['returns an empty userId', () => ({ userId: '' })],
    ['returns undefined', () => undefined],
  ])('answers 401 when authenticate %s', async (_, authenticate) => {
    const { relay, fake } = relayWith(authenticate);
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice')));
    expect(answer.status).toBe(401);
    expect(answer.body).toEqual(UNAUTHORIZED);
    expect(fake.calls).toEqual([]);
  });

  // The game's bug (a database's numeric id), not the player's: a 401 would send the player to sign in again, for nothing.
  it.each([
    [42, 'number'],
    [{ id: 'alice' }, 'object'],
    [true, 'boolean'],
  ])("answers 500 naming the game's authenticate when it returns userId %j, calling nothing", async (userId, got) => {
    const { relay, fake } = relayWith(() => ({ userId }));
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice')));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      status: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL_ERROR',
      message: `The game's authenticate returned a userId that is not a string (${got}): return { userId: string }`,
    });
    expect(fake.calls).toEqual([]);
  });

  it('answers 503 with Retry-After, calling nothing, when authenticate has not settled after the default 10 s', async () => {
    vi.useFakeTimers();
    const { relay, fake } = relayWith(() => new Promise(() => undefined)); // a session store that never answers
    let answered = false;
    const pending = relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice')).then((r) => ((answered = true), r));
    await vi.advanceTimersByTimeAsync(DEFAULT_AUTHENTICATE_TIMEOUT_MS - 1);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const answer = await read(await pending);
    expect([answer.status, answer.body.code, answer.body.message]).toEqual([503, 'INTERNAL_ERROR', `Authentication did not answer within ${DEFAULT_AUTHENTICATE_TIMEOUT_MS} ms; retry later`]);
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(fake.calls).toEqual([]);
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses authenticateTimeoutMs %s at createRelay', (authenticateTimeoutMs) => {
    const server = new CampaignServer({ serverKey: 'sk_relay:secret', environment: { baseUrl: BASE_URL } });
    expect(() => createRelay({ server, authenticate: () => null, authenticateTimeoutMs })).toThrow(RangeError);
  });

  it('gives authenticate the request itself, headers intact', async () => {
    const seen: string[] = [];
    const { relay } = relayWith((request: Request) => {
      seen.push(`${request.method} ${new URL(request.url).pathname} ${request.headers.get('x-game-token')}`);
      return { userId: 'alice' };
    });
    const answer = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, undefined, { 'x-game-token': 't-1' }));
    expect(answer.status).toBe(200);
    expect(seen).toEqual(['POST /campaign/playtime/sessions t-1']);
  });

  // On 349fc30 this was 400 BAD_REQUEST 'The body could not be read': no word of why, and a 400 blames the client.
  it('answers 500 saying to read request.clone() when authenticate read the body itself; a clone leaves it to the relay', async () => {
    const byBodyToken = (clone: boolean) => async (request: Request) => {
      const { token } = (await (clone ? request.clone() : request).json()) as { token?: string };
      return token === 't-1' ? { userId: 'alice' } : null;
    };
    const body = { token: 't-1', sessions: sessions('alice', 1) };
    const direct = relayWith(byBodyToken(false));
    const answer = await read(await direct.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body)));
    expect([answer.status, answer.body]).toEqual([
      500,
      { status: 500, error: 'Internal Server Error', code: 'INTERNAL_ERROR', message: 'The request body was read before the relay: an authenticate that reads it must read request.clone()' },
    ]);
    expect(direct.fake.calls).toEqual([]);
    const cloned = relayWith(byBodyToken(true));
    expect((await cloned.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body))).status).toBe(200);
  });
});

describe('the user comes only from authenticate', () => {
  it('answers items of another user FAILED and never forwards them', async () => {
    const { relay, fake, bulkCalls } = relayOverFakeService();
    const batch = [session('alice', 1), session('mallory', 1), session('alice', 2)];
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: batch }, 'alice')));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: {
        totalRequested: 3,
        successful: 2,
        failed: 1,
        skipped: 0,
        results: [
          { sessionId: 's-alice-1', status: 'SUCCESS' },
          { sessionId: 's-mallory-1', status: 'FAILED', error: USER_MISMATCH_ERROR },
          { sessionId: 's-alice-2', status: 'SUCCESS' },
        ],
      },
    });
    expect(bulkCalls().map((c) => c.body)).toEqual([{ sessions: [session('alice', 1), session('alice', 2)] }]);
    expect(fake.calls.some((c) => c.rawBody?.includes('mallory'))).toBe(false);
  });

  it('answers 403 without calling the service when every item names another user (the game holds another player\'s credentials)', async () => {
    // Before, each item was answered FAILED, and the tracker dropped the sessions as rejected: a player who signed out
    // while their tracker still ran lost that play to the next player's sign-in. A 403 keeps them queued (error auth).
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('mallory', 2) }, 'alice')));
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining(USER_MISMATCH_ERROR) });
    expect(fake.calls).toEqual([]);
  });

  it('asks for a web view token for the authenticated user, whatever userId the body names', async () => {
    const { relay, fake } = relayOverFakeService();
    const body = { codeChallenge: CHALLENGE, userId: 'mallory', campaignId: 'camp_active' };
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, body, 'alice')));
    expect(answer.status).toBe(200);
    expect(fake.calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['POST', '/v1/server/webview/ott', { userId: 'alice', campaignId: 'camp_active', codeChallenge: CHALLENGE }],
    ]);
  });

  it('changes the boost of the authenticated user, whatever userId the body names', async () => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE', userId: 'mallory' }, 'alice')));
    expect(answer.status).toBe(200);
    expect(fake.calls.map((c) => [c.method, c.path, c.body])).toEqual([['PUT', '/v1/server/sponsors/user/alice', { newCreatorKey: 'ABCDE' }]]);
    expect(fake.calls.some((c) => c.rawBody?.includes('mallory') || c.url.includes('mallory'))).toBe(false);
  });
});
