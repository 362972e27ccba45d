/**
 * What the relay hands a game client of an upstream error answer: only a spec error body's verdict (a 404 with the
 * spec's body is "creator not found"; a proxy's or a wrong baseUrl's 404 page is a service problem to retry), and of
 * its `details` only what the spec's error body allows.
 * @see spec "Errors"; DESIGN section 6
 */
import { describe, expect, it } from 'vitest';
import { createRelay, RELAY_ROUTES } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import { reply, type Reply } from '../../helpers/fake-fetch.js';
import { authenticateByHeader, read, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const unavailable = { status: 503, error: 'Service Unavailable', code: 'INTERNAL_ERROR', message: 'The service is unavailable; keep the data and retry later' };

/** 404s that are not the service's: a proxy's HTML page, a wrong baseUrl's JSON, an empty one, a body naming another status. */
const notTheService: Array<[string, Reply]> = [
  ["a proxy's HTML page", reply.text(404, '<html><body><h1>404 Not Found</h1>nginx</body></html>', { 'content-type': 'text/html' })],
  ["another API's JSON", reply.json(404, { error: 'Not Found', message: 'Cannot PUT /v1/server/sponsors/user/alice' })],
  ['an empty body', reply.text(404, '')],
  ['a body of another status', reply.json(404, { status: 200, error: 'OK', code: 'NOT_FOUND', message: 'x' })],
];

const routes = {
  sponsor: () => relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'alice'),
  webview: () => relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE, campaignId: 'camp_1' }, 'alice'),
  playtime: () => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice'),
};

describe('an upstream 404 that is not the spec error body', () => {
  it.each(notTheService)('PUT /sponsor answers 503 with Retry-After, not NOT_FOUND, after %s, and creates nothing', async (_, page) => {
    const { relay, fake } = relayOverFakeService();
    fake.push(page);
    const answer = await read(await relay.fetch(routes.sponsor()));
    expect([answer.status, answer.body]).toEqual([503, unavailable]);
    expect(answer.headers.get('retry-after')).toMatch(/^[1-5]$/);
    // Not taken for "this player has no boost yet": no creation was asked.
    expect(fake.calls.map((c) => c.method)).toEqual(['PUT']);
  });

  it.each(notTheService)("PUT /sponsor answers 503 when the change's 404 is the service's and the creation's is %s", async (_, page) => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.error(404, 'NOT_FOUND', 'No boost for alice'), page);
    const answer = await read(await relay.fetch(routes.sponsor()));
    expect([answer.status, answer.body]).toEqual([503, unavailable]);
    expect(fake.calls.map((c) => c.method)).toEqual(['PUT', 'POST']);
  });

  it.each(notTheService)('POST /webview/ott and POST /playtime/sessions answer 503 after %s', async (_, page) => {
    for (const route of [routes.webview, routes.playtime]) {
      const { relay, fake } = relayOverFakeService();
      fake.push(page);
      const answer = await read(await relay.fetch(route()));
      expect([answer.status, answer.body]).toEqual([503, unavailable]);
    }
  });

  it("is told apart when the game's fetch gives no web stream (node-fetch's Node stream, a stand-in with text alone)", async () => {
    for (const [text, status] of [['<html>404 Not Found</html>', 503], [JSON.stringify({ status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'Creator ABCDE not found' }), 404]] as const) {
      const answer404 = { ok: false, status: 404, headers: new Headers(), body: null, text: async () => text };
      const server = new CampaignServer({ serverKey: 'sk_relay:secret', environment: { baseUrl: 'https://api.test' }, maxRetries: 0, fetch: async () => answer404 as unknown as Response });
      const relay = createRelay({ server, authenticate: authenticateByHeader });
      const answer = await read(await relay.fetch(routes.webview()));
      expect(answer.status).toBe(status);
    }
  });

  it("still passes the service's own 404 through, with its message", async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.error(404, 'NOT_FOUND', 'No boost for alice'), reply.error(404, 'NOT_FOUND', 'Creator ABCDE not found'));
    const answer = await read(await relay.fetch(routes.sponsor()));
    expect([answer.status, answer.body]).toEqual([404, { status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'Creator ABCDE not found' }]);
  });

  it("recognises the service's body without its optional members (no error name, no details)", async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.json(404, { status: 404, code: 'NOT_FOUND', message: 'Campaign camp_1 not found' }));
    const answer = await read(await relay.fetch(routes.webview()));
    expect([answer.status, answer.body.code, answer.body.message]).toEqual([404, 'NOT_FOUND', 'Campaign camp_1 not found']);
  });
});

describe('upstream details', () => {
  const hostile = [
    { path: 'sessions.0.creatorKey', message: 'must be 5 characters', html: '<img src=x onerror=alert(1)>', __proto__x: 1 },
    'a string',
    null,
    7,
    ['sessions.0', 'nested'],
    { path: 3, message: 'path not a string' },
    { path: 'sessions.0.durationSeconds', message: { text: 'not a string' } },
    { path: 'sessions.0.startedAt' },
  ];

  it('passes only items of a string path and message, with no other member, on a VALIDATION_ERROR', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.json(400, { status: 400, error: 'Bad Request', code: 'VALIDATION_ERROR', message: 'Invalid request', details: hostile }));
    const answer = await read(await relay.fetch(routes.playtime()));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      error: 'Bad Request',
      code: 'VALIDATION_ERROR',
      message: 'Invalid request',
      details: [{ path: 'sessions.0.creatorKey', message: 'must be 5 characters' }],
    });
  });

  it('drops details that are not a list, and keeps the checked items of any other passed-on error', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.json(400, { status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: 'Boost can be changed again in 3 days', details: { evil: true } }));
    const first = await read(await relay.fetch(routes.sponsor()));
    expect(first.body).toEqual({ status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: 'Boost can be changed again in 3 days' });
    fake.push(reply.json(400, { status: 400, error: 'Bad Request', code: 'VALIDATION_ERROR', message: 'Invalid request', details: 'sessions.0 is bad' }));
    const second = await read(await relay.fetch(routes.webview()));
    expect(second.body).toEqual({ status: 400, error: 'Bad Request', code: 'VALIDATION_ERROR', message: 'Invalid request', details: [] });
    fake.push(reply.json(404, { status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'm', details: hostile }), reply.json(404, { status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'm', details: hostile }));
    const third = await read(await relay.fetch(routes.sponsor()));
    expect(third.body.details).toEqual([{ path: 'sessions.0.creatorKey', message: 'must be 5 characters' }]);
  });
});
