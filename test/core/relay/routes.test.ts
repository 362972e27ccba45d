import { describe, expect, it } from 'vitest';
import { createRelay, RELAY_ROUTES, type RelayOptions } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { MAX_PATH_USER_CHARS } from '../../../core/relay/user-path.js';
import { reply } from '../../helpers/fake-fetch.js';
import { BASE_URL, boostRecord, read, relayOverFakeService, relayRequest, session, sessions } from './fake-service.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe('POST /webview/ott', () => {
  it('answers the token with the web view address of the environment', async () => {
    const { relay, fake } = relayOverFakeService();
    const body = { codeChallenge: CHALLENGE, campaignId: 'camp_active', showCampaignDetail: true, metadata: { from: 'menu' } };
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, body, 'alice')));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: { ott: 'ott-1', expiresIn: 60, url: `${BASE_URL}/webview` } });
    expect(fake.calls.map((c) => c.body)).toEqual([{ userId: 'alice', ...body }]);
  });

  it('passes isTest through, so a test-mode token is issued on sample data', async () => {
    const { relay, fake } = relayOverFakeService();
    await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE, isTest: true }, 'alice'));
    expect(fake.calls.map((c) => c.body)).toEqual([{ userId: 'alice', codeChallenge: CHALLENGE, isTest: true }]);
  });

  it('answers the webviewUrl option when given', async () => {
    const { relay } = relayOverFakeService({ webviewUrl: 'https://play.example/boost' });
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'alice')));
    expect(answer.body.data.url).toBe('https://play.example/boost');
  });

  it('refuses a webviewUrl that is not an absolute http(s) URL as it is created (clients would refuse to open it)', () => {
    // Before, any string was handed to every client: a relative one opened on the game's own origin (the iframe's
    // sandbox then void), a `javascript:` one ran in the game's origin.
    for (const webviewUrl of ['/webview', 'javascript:alert(1)//', 'data:text/html,x', 'https:/x', '', 'play.example/boost']) {
      expect(() => relayOverFakeService({ webviewUrl }), webviewUrl).toThrow(/webviewUrl must be an absolute http\(s\) URL/);
    }
    expect(() => relayOverFakeService({ webviewUrl: 'HTTP://localhost:8080/webview' })).not.toThrow();
  });

  it('rejects a bad code challenge with VALIDATION_ERROR, calling nothing', async () => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: 'short' }, 'alice')));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      error: 'Bad Request',
      code: 'VALIDATION_ERROR',
      message: 'Invalid request: codeChallenge must be at least 43 characters',
      details: [{ path: 'codeChallenge', message: 'must be at least 43 characters' }],
    });
    expect(fake.calls).toEqual([]);
  });

  it('passes an upstream 404 through', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.error(404, 'NOT_FOUND', 'Campaign camp_x not found'));
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE, campaignId: 'camp_x' }, 'alice')));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'Campaign camp_x not found' });
  });

  it('answers 503 with Retry-After when the service is unreachable', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.networkError());
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'alice')));
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('INTERNAL_ERROR');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});

describe('PUT /sponsor', () => {
  it('changes the boost and answers the boost record', async () => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE', campaignId: 'camp_2' }, 'alice')));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: boostRecord('alice', 'ABCDE', 'camp_2') });
    expect(fake.calls.map((c) => [c.method, c.path, c.body])).toEqual([['PUT', '/v1/server/sponsors/user/alice', { newCreatorKey: 'ABCDE', campaignId: 'camp_2' }]]);
  });

  it('passes isTest through, so a test-mode change starts no cooldown', async () => {
    const { relay, fake } = relayOverFakeService();
    await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE', isTest: true }, 'alice'));
    expect(fake.calls.map((c) => c.body)).toEqual([{ newCreatorKey: 'ABCDE', isTest: true }]);
  });

  it('encodes the authenticated userId into the upstream path', async () => {
    const { relay, fake } = relayOverFakeService();
    await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'a/b c'));
    expect(fake.last().path).toBe('/v1/server/sponsors/user/a%2Fb%20c');
  });

  it.each([
    [400, 'BAD_REQUEST', 'Boost can be changed again in 20 days', ['PUT']],
    // A change's 404 is asked again as a creation (the player may have no boost yet), whose 404 is the answer.
    [404, 'NOT_FOUND', 'Creator ZZZZZ not found', ['PUT', 'POST']],
  ])('passes an upstream %i %s through with the same fields', async (status, code, message, methods) => {
    const { relay, fake } = relayOverFakeService();
    for (const _ of methods) fake.push(reply.error(status, code, message));
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ZZZZZ' }, 'alice')));
    expect(answer.status).toBe(status);
    expect(answer.body).toEqual({ status, error: status === 400 ? 'Bad Request' : 'Not Found', code, message });
    expect(fake.calls.map((c) => c.method)).toEqual(methods);
  });

  it('creates the boost of a player who has none: the change\'s 404, then POST /v1/server/sponsors with the same fields', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.error(404, 'NOT_FOUND', 'User alice has no boost'), reply.ok(boostRecord('alice', 'ABCDE', 'camp_2')));
    const body = { newCreatorKey: 'ABCDE', campaignId: 'camp_2', callbackId: 'cb-1', isTest: true };
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, body, 'alice')));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ data: boostRecord('alice', 'ABCDE', 'camp_2') });
    // The client's callbackId is bound to the player (callback-id.test.ts).
    const callbackId = 'relay:5:alice:cb-1';
    expect(fake.calls.map((c) => [c.method, c.path, c.body])).toEqual([
      ['PUT', '/v1/server/sponsors/user/alice', { ...body, callbackId }],
      ['POST', '/v1/server/sponsors', { userId: 'alice', creatorKey: 'ABCDE', campaignId: 'camp_2', callbackId, isTest: true }],
    ]);
  });

  // The id is the game's authenticate's, not the player's: a 400 would blame a client that sent nothing wrong.
  it.each([
    ['alice-\ud83d', 'must not hold a lone surrogate (half an emoji)'],
    ['.', '"." cannot be a path parameter'],
    ['..', '".." cannot be a path parameter'],
  ])("answers 500 naming the game's authenticate for a player id %j no upstream path can carry, calling nothing", async (userId, why) => {
    const { relay, fake } = relayOverFakeService({ authenticate: () => ({ userId }) });
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'alice')));
    expect(answer.status).toBe(500);
    expect(answer.body).toEqual({
      status: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL_ERROR',
      message: `The game's authenticate returned a userId the service's path cannot carry (${why}): this route cannot serve the player`,
    });
    expect(fake.calls).toEqual([]);
  });

  it.each(['.', '..', 'alice-\ud83d', 'x'.repeat(10_000)])('serves a player whose id is %j on the routes that carry it in the body', async (userId) => {
    const { relay, fake } = relayOverFakeService({ authenticate: () => ({ userId }), coalesceWindowMs: 0 });
    const ott = await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'alice'));
    const played = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [session(userId, 1)] }, 'alice')));
    expect([ott.status, played.status, played.body.data.successful]).toEqual([200, 200, 1]);
    expect(fake.calls.map((c) => (c.body as { userId?: string; sessions?: Array<{ userId: string }> }).userId ?? (c.body as { sessions: Array<{ userId: string }> }).sessions[0]?.userId)).toEqual([userId, userId]);
  });

  it.each([
    ['a%2Fb', 'a%252Fb'],
    ['a?b#c', 'a%3Fb%23c'],
    ['ü/é 𝄞', encodeURIComponent('ü/é 𝄞')],
    // The longest id a path takes (upstream-limits.test.ts: a longer one is refused).
    ['x'.repeat(MAX_PATH_USER_CHARS), 'x'.repeat(MAX_PATH_USER_CHARS)],
  ])('changes the boost of a player whose id is %j, encoded into one path segment', async (userId, segment) => {
    const { relay, fake } = relayOverFakeService({ authenticate: () => ({ userId }) });
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'alice')));
    expect(answer.status).toBe(200);
    expect(fake.calls.map((c) => c.path)).toEqual([`/v1/server/sponsors/user/${segment}`]);
  });

  it('rejects a missing creator key with VALIDATION_ERROR, calling nothing', async () => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { campaignId: 'camp_2' }, 'alice')));
    expect(answer.status).toBe(400);
    expect(answer.body.details).toEqual([{ path: 'newCreatorKey', message: 'is required' }]);
    expect(fake.calls).toEqual([]);
  });
});

describe('routing', () => {
  // Outside the mount point, the message names it: a client's relay.url without '/campaign' is the usual cause.
  const UNDER = ": the relay's routes are under /campaign (end the client's relay.url with it, or set createRelay's basePath)";
  it.each([
    ['POST', 'https://game.test/campaign/unknown', ''],
    ['POST', 'https://game.test/playtime/sessions', UNDER],
    ['POST', 'https://game.test/campaign/playtime/sessions/extra', ''],
    ['GET', 'https://game.test/', UNDER],
    ['POST', 'https://game.test/campaigns/playtime/sessions', UNDER],
  ])('answers %s %s with 404 NOT_FOUND', async (method, url, hint) => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(new Request(url, { method, headers: { authorization: 'Bearer user:alice' } })));
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, error: 'Not Found', code: 'NOT_FOUND', message: `No relay route ${method} ${new URL(url).pathname}${hint}` });
    expect(fake.calls).toEqual([]);
  });

  it('names no mount point when the relay is mounted at the root', async () => {
    const { relay } = relayOverFakeService({ basePath: '/' });
    const answer = await read(await relay.fetch(new Request('https://game.test/unknown', { method: 'POST', headers: { authorization: 'Bearer user:alice' } })));
    expect(answer.body.message).toBe('No relay route POST /unknown');
  });

  const noUser = (): null => null;
  it.each<[string, unknown, string]>([
    ['without server', { authenticate: noUser }, 'createRelay needs server: a CampaignServer, new CampaignServer({ serverKey, environment }); got undefined'],
    ['with the Server key as server', { server: 'sk_live:secret', authenticate: noUser }, 'createRelay needs server: a CampaignServer, new CampaignServer({ serverKey, environment }); got a string (pass the client made with the key, not the key)'],
    ['without authenticate', 'server', "createRelay needs authenticate: your own check of the player's request, (request) => ({ userId }) or null; got undefined"],
  ])('refuses to be made %s, saying what to pass (every request failed later, unexplained)', (_, options, message) => {
    const server = new CampaignServer({ serverKey: 'sk_relay:secret', environment: { baseUrl: BASE_URL } });
    const given = (options === 'server' ? { server } : options) as unknown as RelayOptions;
    expect(() => createRelay(given)).toThrow(new TypeError(message));
  });

  // A time-out option under a name the relay does not read (the CampaignServer's `timeoutMs`, a `...TimeoutMs` without
  // its `Ms`) was ignored in silence: the default applied. Plain JavaScript or `any` passes what TypeScript refuses.
  it.each<[string, string]>([
    ['timeout', 'pass timeoutMs to new CampaignServer({ serverKey, timeoutMs }): the relay calls the service with it'],
    ['timeoutMs', 'pass timeoutMs to new CampaignServer({ serverKey, timeoutMs }): the relay calls the service with it'],
    ['authenticateTimeout', 'use `authenticateTimeoutMs`'],
    ['acceptSessionTimeout', 'use `acceptSessionTimeoutMs`'],
    ['bodyTimeout', 'use `bodyTimeoutMs`'],
    ['storeTimeout', 'use `storeTimeoutMs`'],
  ])('refuses a time-out under a name it does not read (%s) with a TypeError saying where it goes', (name, where) => {
    const server = new CampaignServer({ serverKey: 'sk_relay:secret', environment: { baseUrl: BASE_URL } });
    const given = { server, authenticate: noUser, [name]: 5_000 } as unknown as RelayOptions;
    expect(() => createRelay(given)).toThrow(new TypeError(`createRelay: \`${name}\` is not an option; ${where}`));
    // Left undefined (a config object's unset field), it is nothing.
    expect(() => createRelay({ server, authenticate: noUser, [name]: undefined } as unknown as RelayOptions)).not.toThrow();
  });

  it.each([
    ['GET', RELAY_ROUTES.playtime, 'POST'],
    ['PUT', RELAY_ROUTES.playtime, 'POST'],
    ['DELETE', RELAY_ROUTES.webviewToken, 'POST'],
    ['POST', RELAY_ROUTES.sponsor, 'PUT'],
  ])('answers %s %s with 405 and Allow: %s', async (method, route, allowed) => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(new Request(`https://game.test/campaign${route}`, { method, headers: { authorization: 'Bearer user:alice' } })));
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe(allowed);
    expect(answer.body).toEqual({ status: 405, error: 'Method Not Allowed', code: 'BAD_REQUEST', message: `${method} is not allowed here; use ${allowed}` });
    expect(fake.calls).toEqual([]);
  });

  it('answers a method a route lacks with 405 before authenticating or judging the content type (a method and a path name the route)', async () => {
    const { relay, fake } = relayOverFakeService();
    for (const headers of [{ 'content-type': 'text/plain' }, { 'content-type': 'text/plain', authorization: 'Bearer nobody' }, {}] as Array<Record<string, string>>) {
      const answer = await read(await relay.fetch(new Request(`https://game.test/campaign${RELAY_ROUTES.playtime}`, { method: 'PATCH', headers, body: 'x' })));
      expect([answer.status, answer.headers.get('allow'), answer.body.message]).toEqual([405, 'POST', 'PATCH is not allowed here; use POST']);
    }
    expect(fake.calls).toEqual([]);
  });

  it.each([
    ['/api/relay', 'https://game.test/api/relay/playtime/sessions'],
    ['api/relay/', 'https://game.test/api/relay/playtime/sessions'],
    ['/', 'https://game.test/playtime/sessions'],
    ['', 'https://game.test/playtime/sessions'],
  ])('mounts under basePath %j', async (basePath, url) => {
    const { relay } = relayOverFakeService({ basePath, coalesceWindowMs: 0 });
    const request = new Request(url, {
      method: 'POST',
      headers: { authorization: 'Bearer user:alice', 'content-type': 'application/json' },
      body: JSON.stringify({ sessions: sessions('alice', 1) }),
    });
    expect((await relay.fetch(request)).status).toBe(200);
    expect((await relay.fetch(new Request('https://game.test/campaign/playtime/sessions', { method: 'POST' }))).status).toBe(404);
  });
});

describe('numeric options', () => {
  it('refuses a limit that is not a finite number in range, rather than silently dropping it', () => {
    // On b3f633f maxBodyBytes: NaN (an unset environment variable through Number()) read bodies of any size, and
    // clockSkewMs: NaN accepted sessions dated in 2099.
    for (const [name, bad] of [
      ['maxBodyBytes', [Number.NaN, 0, -1, Number.POSITIVE_INFINITY, '1mb']],
      ['bodyTimeoutMs', [Number.NaN, 0, -5, Number.POSITIVE_INFINITY]],
      ['coalesceWindowMs', [Number.NaN, -1, Number.POSITIVE_INFINITY]],
      ['clockSkewMs', [Number.NaN, -1, Number.POSITIVE_INFINITY]],
      ['maxSessionAgeMs', [Number.NaN, -1, Number.POSITIVE_INFINITY]],
    ] as const) {
      for (const value of bad) expect(() => relayOverFakeService({ [name]: value as number }), `${name}: ${String(value)}`).toThrow(new RegExp(`^${name} must be a finite number >= \\d`));
    }
    expect(() => relayOverFakeService({ maxBodyBytes: 1, bodyTimeoutMs: 1, coalesceWindowMs: 0, clockSkewMs: 0, maxSessionAgeMs: 0 })).not.toThrow();
  });
});
