/**
 * A request target with dot segments (`/campaign/x/../playtime/sessions`), sent raw. Node (toNodeHandler) and Bun hand
 * the relay its URL resolved; Deno and workerd hand it on as sent, which the relay's router read as it was: 200 on two
 * runtimes, 404 on the other two. Here the relay gets the URL as Deno and workerd give it and must answer as it answers
 * the resolved URL Node and Bun give. On each runtime itself: test/runtimes/server-stories.ts.
 */
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it, vi } from 'vitest';
import { attachClientAddress } from '../../../core/relay/client-address.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { authenticateByHeader, read, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const ORIGIN = 'https://game.portal-cdn.example';

/** `request` with `url` as Deno and workerd give it: the target as sent, dot segments and all. */
function asSent(request: Request, target: string): Request {
  return Object.defineProperty(request, 'url', { value: `https://game.test${target}` });
}

describe('a raw request target with dot segments', () => {
  it('is routed as its resolved path, as Node and Bun hand it over: `/campaign/x/../playtime/sessions` is the playtime route', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0 });
    const targets = ['/campaign/x/../playtime/sessions', '/campaign/./playtime/sessions', '/campaign/%2e/playtime/%2E%2e/playtime/sessions', '/campaign\\playtime\\sessions'];
    const answers = [];
    for (const [n, target] of targets.entries()) {
      const request = asSent(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1, n) }, 'alice'), target);
      const answer = await read(await relay.fetch(request));
      answers.push([answer.status, answer.body?.data?.results?.[0]?.status]);
    }
    expect(answers).toEqual(targets.map(() => [200, 'SUCCESS']));
    expect(bulkCalls()).toHaveLength(targets.length);
  });

  it('that climbs out of the base path is outside it: 404 NOT_FOUND in the error body, never authenticated or forwarded', async () => {
    const authenticate = vi.fn(authenticateByHeader);
    const { relay, fake } = relayOverFakeService({ authenticate });
    const targets = ['/campaign/../playtime/sessions', '/campaign/%2e%2e/playtime/sessions', '/campaign/playtime/../../sponsor', '/campaign/..'];
    const answers = [];
    for (const target of targets) {
      const answer = await read(await relay.fetch(asSent(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice'), target)));
      answers.push([answer.status, answer.body.code, answer.body.message]);
    }
    const hint = ": the relay's routes are under /campaign (end the client's relay.url with it, or set createRelay's basePath)";
    expect(answers).toEqual([
      [404, 'NOT_FOUND', `No relay route POST /playtime/sessions${hint}`],
      [404, 'NOT_FOUND', `No relay route POST /playtime/sessions${hint}`],
      [404, 'NOT_FOUND', `No relay route POST /sponsor${hint}`],
      [404, 'NOT_FOUND', `No relay route POST /${hint}`],
    ]);
    expect([authenticate.mock.calls.length, fake.calls]).toEqual([0, []]);
  });

  it('answers a preflight to the resolved route, with CORS', async () => {
    const { relay } = relayOverFakeService({ cors: { origins: [ORIGIN] } });
    const preflight = asSent(
      new Request(`https://game.test/campaign${RELAY_ROUTES.playtime}`, { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } }),
      '/campaign/x/..%2F../playtime/./sessions',
    );
    // `..%2F..` is no dot segment (an encoded slash splits nothing): no route, on every runtime.
    const climbed = await relay.fetch(preflight);
    expect([climbed.status, climbed.headers.get('access-control-allow-origin')]).toEqual([404, ORIGIN]);
    const answer = await relay.fetch(
      asSent(new Request('https://game.test/', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST' } }), '/campaign/x/../playtime/./sessions'),
    );
    expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-allow-methods')]).toEqual([204, ORIGIN, 'POST']);
  });

  it("keeps the client address an adapter attached: failed logins through a dotted path count for that address", async () => {
    const { relay } = relayOverFakeService({ failedAuthLimit: new RateLimiterMemory({ points: 2, duration: 60 }) });
    const statuses = [];
    for (let n = 0; n < 3; n++) {
      const request = asSent(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }, undefined, { authorization: 'Bearer wrong' }), '/campaign/./playtime/sessions');
      attachClientAddress(request, '203.0.113.7');
      statuses.push((await relay.fetch(request)).status);
    }
    expect(statuses).toEqual([401, 401, 429]);
  });
});
