/**
 * What the relay hands a game client when the service answers 2xx with a body that is not the spec's answer for the
 * route (a proxy's 200 page, a wrong baseUrl's API, a service bug): 502 `INTERNAL_ERROR` in the spec's error body with
 * `Retry-After`, naming the upstream call, logged, never a 200 the client cannot use.
 * @see spec "Create web view one-time token", "Change boosted creator", "Record bulk playtime sessions"
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { reply, type Reply } from '../../helpers/fake-fetch.js';
import { boostRecord, read, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

const routes = {
  sponsor: () => relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'alice'),
  webview: () => relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE, campaignId: 'camp_1' }, 'alice'),
  playtime: () => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 2) }, 'alice'),
};

/** What a client reads for each wrong success answer: 502, the spec's body naming the upstream call, Retry-After. */
async function expectBadGateway(route: keyof typeof routes, upstream: Reply, names: string) {
  const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const { relay, fake } = relayOverFakeService();
  fake.push(upstream);
  const answer = await read(await relay.fetch(routes[route]()));
  expect(answer.status).toBe(502);
  expect(answer.body).toMatchObject({ status: 502, error: 'Bad Gateway', code: 'INTERNAL_ERROR' });
  expect(answer.body.message).toContain(names);
  expect(answer.headers.get('retry-after')).toMatch(/^[1-5]$/);
  // Logged for the studio, once per answer, naming the upstream call.
  expect(errors).toHaveBeenCalledTimes(1);
  expect(String(errors.mock.calls[0]?.[0])).toContain(names);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a 2xx from the service whose body is not the spec answer', () => {
  it.each<[string, Reply]>([
    ['data without ott', reply.ok({ expiresIn: 60 })],
    ['an empty ott', reply.ok({ ott: '', expiresIn: 60 })],
    ['ott a number', reply.ok({ ott: 12345, expiresIn: 60 })],
    ['expiresIn a string', reply.ok({ ott: 'ott-1', expiresIn: '60' })],
    ['data null', reply.ok(null)],
    ['no data envelope', reply.json(200, { ott: 'ott-1', expiresIn: 60 })],
    ["a proxy's HTML 200 page", reply.text(200, '<html>Welcome to nginx</html>', { 'content-type': 'text/html' })],
    ['a 204', reply.noContent()],
  ])('POST /webview/ott: %s is 502, not a 200 without a token', async (_, upstream) => {
    await expectBadGateway('webview', upstream, 'POST /v1/server/webview/ott');
  });

  it.each<[string, Reply]>([
    ['data a string', reply.ok('ok')],
    ['data null', reply.ok(null)],
    ['a record without creatorKey', reply.ok({ ...boostRecord('alice', 'ABCDE'), creatorKey: undefined })],
    ['isActive a string', reply.ok({ ...boostRecord('alice', 'ABCDE'), isActive: 'yes' })],
    ['no data envelope', reply.json(200, boostRecord('alice', 'ABCDE'))],
    ['sponsoredAt not a date', reply.ok({ ...boostRecord('alice', 'ABCDE'), sponsoredAt: 'soon' })],
    // Each read by V8's Date.parse (Node, Deno, workerd), none the spec's ISO 8601 in UTC: a 200 on one runtime's
    // relay and a 502 on another's before, and a time the picker may read otherwise on the player's device.
    ['sponsoredAt in the form of Date.toString', reply.ok({ ...boostRecord('alice', 'ABCDE'), sponsoredAt: 'Wed May 01 2024 10:30:00 GMT+0000' })],
    ['sponsoredAt in English words', reply.ok({ ...boostRecord('alice', 'ABCDE'), sponsoredAt: 'May 1, 2024 10:30' })],
    ['sponsoredAt without its zone (local time)', reply.ok({ ...boostRecord('alice', 'ABCDE'), sponsoredAt: '2024-05-01T10:30:00' })],
    ['sponsoredAt a date alone', reply.ok({ ...boostRecord('alice', 'ABCDE'), sponsoredAt: '2024-05-01' })],
    ['sponsoredAt on a day the month does not have', reply.ok({ ...boostRecord('alice', 'ABCDE'), sponsoredAt: '2024-02-30T10:30:00Z' })],
    ['a list', reply.ok([boostRecord('alice', 'ABCDE')])],
  ])('PUT /sponsor: %s is 502, not a 200 the client takes for the boost', async (_, upstream) => {
    await expectBadGateway('sponsor', upstream, 'PUT /v1/server/sponsors/user/{userId}');
  });

  it.each<[string, Reply]>([
    ['no results', reply.ok({ totalRequested: 2, successful: 2, failed: 0, skipped: 0 })],
    ['a status outside the spec', reply.ok({ totalRequested: 2, successful: 2, failed: 0, skipped: 0, results: [{ sessionId: 's-alice-0', status: 'OK' }, { sessionId: 's-alice-1', status: 'OK' }] })],
    ['data null', reply.ok(null)],
    ["a proxy's HTML 200 page", reply.text(200, '<html>Welcome to nginx</html>', { 'content-type': 'text/html' })],
  ])('POST /playtime/sessions: %s is 502, the sessions kept by the client', async (_, upstream) => {
    await expectBadGateway('playtime', upstream, 'POST /v1/server/playtime/sessions/bulk');
  });

  it("carries the relay's CORS headers to a portal page, which would otherwise read 'Failed to fetch'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const origin = 'https://game.portal-cdn.example';
    const { relay, fake } = relayOverFakeService({ cors: { origins: [origin] } });
    fake.push(reply.ok({ expiresIn: 60 }));
    const request = relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'alice', { origin });
    const answer = await read(await relay.fetch(request));
    expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-expose-headers')]).toEqual([502, origin, 'retry-after']);
  });

  it('still answers 200 with the data of a spec answer, members the spec does not name included', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.ok({ ott: 'ott-9', expiresIn: 60, extra: true }), reply.ok({ ...boostRecord('alice', 'ABCDE'), note: 'x', sponsoredAt: '2024-05-01T00:00:00Z' }));
    const token = await read(await relay.fetch(routes.webview()));
    expect([token.status, token.body.data.ott, token.body.data.expiresIn]).toEqual([200, 'ott-9', 60]);
    // A date-time in UTC without milliseconds (the spec's general form, not only the playtime one): not refused.
    const boost = await read(await relay.fetch(routes.sponsor()));
    expect([boost.status, boost.body.data.creatorKey, boost.body.data.note]).toEqual([200, 'ABCDE', 'x']);
  });

  it.each(['2024-05-01T10:30:00.123Z', '2024-05-01T10:30:00+00:00', '2024-05-01T10:30:00.123456Z', '2024-02-29T10:30:00Z'])('PUT /sponsor: sponsoredAt %s, ISO 8601 in UTC, is handed on', async (sponsoredAt) => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.ok({ ...boostRecord('alice', 'ABCDE'), sponsoredAt }));
    const boost = await read(await relay.fetch(routes.sponsor()));
    expect([boost.status, boost.body.data.sponsoredAt]).toEqual([200, sponsoredAt]);
  });
});

describe("a FAILED item's error that is not a string", () => {
  it('is left out of the item the client reads (its dropped event then says FAILED), the batch answered 200', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(
      reply.ok({
        totalRequested: 2,
        successful: 0,
        failed: 2,
        skipped: 0,
        results: [
          { sessionId: 's-alice-0', status: 'FAILED', error: { code: 'E_DURATION' }, extra: 1 },
          { sessionId: 's-alice-1', status: 'FAILED', error: 'durationSeconds too large' },
        ],
      }),
    );
    const answer = await read(await relay.fetch(routes.playtime()));
    expect(answer.status).toBe(200);
    // A number or object where the spec (and the tracker's DroppedEvent type) has a string is not handed on; a string is.
    expect(answer.body.data.results).toEqual([
      { sessionId: 's-alice-0', status: 'FAILED', extra: 1 },
      { sessionId: 's-alice-1', status: 'FAILED', error: 'durationSeconds too large' },
    ]);
  });
});
