// CORS on the relay's fetch handler: preflights of its routes answered before auth and rate limits, every answer to
// an allowed origin marked (errors, 429 and 503 included, Retry-After exposed), nothing for other origins.
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { CORS_EXPOSED_HEADERS, RELAY_ROUTES, type RelayOptions } from '../../../core/relay/index.js';
import { reply } from '../../helpers/fake-fetch.js';
import { read, RELAY, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const GAME = 'https://game.portal-cdn.example';
const OTHER = 'https://evil.example';

/** What a browser sends before a cross-origin POST with a JSON body and the game's own headers. */
function preflight(route: string, origin: string | undefined, method = 'POST', requestHeaders = 'authorization,content-type,x-game-build', base = RELAY): Request {
  const headers: Record<string, string> = { 'access-control-request-method': method, 'access-control-request-headers': requestHeaders };
  if (origin !== undefined) headers['origin'] = origin;
  return new Request(`${base}${route}`, { method: 'OPTIONS', headers });
}

const corsHeaders = (headers: Headers) => [...headers].filter(([name]) => name.startsWith('access-control-')).sort();
const withCors = (options: Partial<RelayOptions> = {}) => relayOverFakeService({ cors: { origins: [GAME] }, coalesceWindowMs: 0, ...options });
const post = (origin: string | undefined, userId = 'alice') => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions(userId, 1) }, userId, origin === undefined ? {} : { origin });

describe('preflight', () => {
  it('answers 204 for each route with the exact origin, its method, the requested headers, a max age and Vary', async () => {
    const { relay, fake } = withCors();
    for (const [route, method] of [[RELAY_ROUTES.playtime, 'POST'], [RELAY_ROUTES.webviewToken, 'POST'], [RELAY_ROUTES.sponsor, 'PUT']] as const) {
      const answer = await relay.fetch(preflight(route, GAME, method));
      expect(answer.status).toBe(204);
      expect(corsHeaders(answer.headers)).toEqual([
        ['access-control-allow-headers', 'content-type, authorization, x-game-build'],
        ['access-control-allow-methods', method],
        ['access-control-allow-origin', GAME],
        ['access-control-max-age', '7200'],
      ]);
      expect(answer.headers.get('vary')).toBe('Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
      expect(await answer.text()).toBe('');
    }
    expect(fake.calls).toEqual([]);
  });

  it('runs neither authenticate nor the rate limiter, and is answered after the limit is spent', async () => {
    let authenticated = 0;
    const consumed: string[] = [];
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    const spy = { consume: (key: string) => (consumed.push(key), limiter.consume(key)) } as unknown as RateLimiterAbstract;
    const { relay } = withCors({ rateLimiter: spy, authenticate: () => (authenticated++, { userId: 'alice' }) });
    for (let i = 0; i < 3; i++) expect((await relay.fetch(preflight(RELAY_ROUTES.playtime, GAME))).status).toBe(204);
    expect([authenticated, consumed]).toEqual([0, []]);
  });

  it('allows only valid header names, lower-cased, each once', async () => {
    const { relay } = withCors();
    const answer = await relay.fetch(preflight(RELAY_ROUTES.playtime, GAME, 'POST', ' X-Token , bad name,authorization,,x-token'));
    expect(answer.headers.get('access-control-allow-headers')).toBe('content-type, authorization, x-token');
  });

  it('refuses a disallowed origin with 403 and no CORS header; a request without Origin is no preflight', async () => {
    const { relay } = withCors();
    const refused = await relay.fetch(preflight(RELAY_ROUTES.playtime, OTHER));
    expect(refused.status).toBe(403);
    expect(corsHeaders(refused.headers)).toEqual([]);
    expect((await read(refused)).body).toMatchObject({ status: 403, code: 'FORBIDDEN', message: `Origin ${OTHER} is not allowed to call this relay (createRelay's cors.origins)` });
    const noOrigin = await relay.fetch(preflight(RELAY_ROUTES.playtime, undefined));
    expect([noOrigin.status, corsHeaders(noOrigin.headers)]).toEqual([405, []]);
  });

  it('leaves paths that are not relay routes to the router (404, never a 5xx)', async () => {
    const { relay } = withCors();
    expect((await relay.fetch(preflight('/nothing', GAME))).status).toBe(404);
    expect((await relay.fetch(preflight(RELAY_ROUTES.playtime, GAME, 'POST', '', 'https://game.test/elsewhere'))).status).toBe(404);
  });

  it('follows the base path, the root included', async () => {
    const { relay } = withCors({ basePath: '/' });
    expect((await relay.fetch(preflight(RELAY_ROUTES.sponsor, GAME, 'PUT', '', 'https://game.test'))).status).toBe(204);
    expect((await relay.fetch(preflight(RELAY_ROUTES.sponsor, GAME, 'PUT'))).status).toBe(404);
  });

  // p38: the router matches the decoded path (Hono's getPath) and the preflight matched the URL's encoded one, so under a
  // base path a URL must percent-encode (`/café`, `/game api`) the relay served the POST but answered its preflight
  // 405: every browser game on a portal was refused ("Failed to fetch").
  it('follows a base path the URL percent-encodes, as the router does', async () => {
    for (const basePath of ['/café', '/game api']) {
      const { relay } = withCors({ basePath });
      const base = new URL(`https://game.test${basePath}`).href;
      expect(base).toContain('%');
      const answer = await relay.fetch(preflight(RELAY_ROUTES.playtime, GAME, 'POST', '', base));
      expect([answer.status, answer.headers.get('access-control-allow-origin'), answer.headers.get('access-control-allow-methods')]).toEqual([204, GAME, 'POST']);
      const headers = { origin: GAME, authorization: 'Bearer user:alice', 'content-type': 'application/json' };
      const served = await relay.fetch(new Request(`${base}${RELAY_ROUTES.playtime}`, { method: 'POST', headers, body: JSON.stringify({ sessions: sessions('alice', 1) }) }));
      expect([served.status, served.headers.get('access-control-allow-origin')]).toEqual([200, GAME]);
      // A path under the base that is no route: no hint that the routes are elsewhere.
      const missing = await read(await relay.fetch(new Request(`${base}/nothing`, { method: 'POST', headers, body: '{}' })));
      expect([missing.status, missing.body.message]).toEqual([404, `No relay route POST ${basePath}/nothing`]);
    }
  });

  it('without the cors option a preflight stays a 405 whose message names the option', async () => {
    const { relay } = relayOverFakeService();
    const answer = await read(await relay.fetch(preflight(RELAY_ROUTES.playtime, GAME)));
    expect(answer.status).toBe(405);
    expect(corsHeaders(answer.headers)).toEqual([]);
    expect(answer.body.message).toBe(`OPTIONS is not allowed here; use POST (a CORS preflight from ${GAME}: allow it with createRelay({ cors: { origins: ['${GAME}'] } }))`);
  });

  it('takes a predicate, and a predicate that throws allows nothing', async () => {
    const { relay } = withCors({ cors: { origins: (origin) => origin.endsWith('.portal-cdn.example'), maxAgeSeconds: 60 } });
    const answer = await relay.fetch(preflight(RELAY_ROUTES.playtime, GAME));
    expect([answer.status, answer.headers.get('access-control-max-age')]).toEqual([204, '60']);
    expect((await relay.fetch(preflight(RELAY_ROUTES.playtime, OTHER))).status).toBe(403);
    const throwing = withCors({
      cors: {
        origins: () => {
          throw new Error('boom');
        },
      },
    });
    expect((await throwing.relay.fetch(preflight(RELAY_ROUTES.playtime, GAME))).status).toBe(403);
  });
});

describe('answers to an allowed origin', () => {
  const expectMarked = (headers: Headers) => {
    expect(headers.get('access-control-allow-origin')).toBe(GAME);
    expect(headers.get('access-control-expose-headers')).toBe('retry-after');
    expect(headers.get('access-control-allow-credentials')).toBeNull();
    expect(headers.get('vary')).toBe('Origin');
  };

  it('marks a success', async () => {
    const { relay } = withCors();
    const answer = await read(await relay.fetch(post(GAME)));
    expect(answer.status).toBe(200);
    expectMarked(answer.headers);
    expect(answer.body.data.results).toEqual([{ sessionId: 's-alice-0', status: 'SUCCESS' }]);
  });

  it('marks 401, 400, 405, 404, 429 and 503, Retry-After readable by the page', async () => {
    const { relay, fake } = withCors({ rateLimiter: new RateLimiterMemory({ points: 2, duration: 60 }) });
    const unauthorized = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }, undefined, { origin: GAME }));
    const invalid = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: 'none' }, 'alice', { origin: GAME }));
    fake.push(reply.networkError());
    const unavailable = await relay.fetch(post(GAME, 'alice'));
    const limited = await relay.fetch(post(GAME, 'alice'));
    const wrongMethod = await relay.fetch(relayRequest('GET', RELAY_ROUTES.playtime, undefined, 'bob', { origin: GAME }));
    const missing = await relay.fetch(relayRequest('GET', '/nothing', undefined, 'bob', { origin: GAME }));
    expect([unauthorized, invalid, unavailable, limited, wrongMethod, missing].map((a) => a.status)).toEqual([401, 400, 503, 429, 405, 404]);
    for (const answer of [unauthorized, invalid, unavailable, limited, wrongMethod, missing]) expectMarked(answer.headers);
    expect(Number(unavailable.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await read(limited)).body.code).toBe('RATE_LIMITED');
  });

  it('marks a 413 and the 405 of an OPTIONS that is no preflight (no Access-Control-Request-Method)', async () => {
    const { relay } = withCors({ maxBodyBytes: 64 });
    const tooLarge = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 3) }, 'alice', { origin: GAME }));
    const plainOptions = await relay.fetch(new Request(`${RELAY}${RELAY_ROUTES.playtime}`, { method: 'OPTIONS', headers: { origin: GAME } }));
    expect([tooLarge.status, plainOptions.status]).toEqual([413, 405]);
    expectMarked(tooLarge.headers);
    expectMarked(plainOptions.headers);
  });

  it('exposes every response header the SDK reads', () => {
    expect(CORS_EXPOSED_HEADERS).toEqual(['retry-after']);
  });
});

describe('answers to other origins', () => {
  it('carry no CORS header at all, only Vary, and are otherwise the same', async () => {
    const { relay } = withCors();
    for (const origin of [OTHER, undefined, 'null']) {
      const answer = await read(await relay.fetch(post(origin)));
      expect(answer.status).toBe(200);
      expect(corsHeaders(answer.headers)).toEqual([]);
      expect(answer.headers.get('vary')).toBe('Origin');
    }
  });

  it("allow the literal 'null' origin (a sandboxed iframe) only when listed", async () => {
    const { relay } = withCors({ cors: { origins: ['null'] } });
    expect((await relay.fetch(post('null'))).headers.get('access-control-allow-origin')).toBe('null');
  });
});

describe('the origins option', () => {
  it.each([
    ['https://game.portal-cdn.example/', "did you mean 'https://game.portal-cdn.example'?"],
    ['https://Game.Portal-CDN.example', "did you mean 'https://game.portal-cdn.example'?"],
    ['https://game.example:443', "did you mean 'https://game.example'?"],
    ['https://game.example/play/index.html', "did you mean 'https://game.example'?"],
    ['*', 'for any origin pass origins: () => true'],
    ['game.example', 'is not an origin as browsers send it'],
  ])('refuses %s at createRelay, naming the origin meant', (entry, message) => {
    expect(() => withCors({ cors: { origins: [entry] } })).toThrow(TypeError);
    expect(() => withCors({ cors: { origins: [entry] } })).toThrow(message);
  });

  it('refuses a max age that is not whole seconds', () => {
    expect(() => withCors({ cors: { origins: [GAME], maxAgeSeconds: -1 } })).toThrow(RangeError);
    expect(() => withCors({ cors: { origins: [GAME], maxAgeSeconds: 1.5 } })).toThrow(RangeError);
  });

  it('keeps a Response whose headers are immutable intact (copied, then marked)', async () => {
    const frozen = await fetch('data:application/json,{}');
    const { relayCors } = await import('../../../core/relay/cors.js');
    const cors = relayCors({ origins: [GAME] }, {});
    const marked = cors.decorate(new Request(RELAY, { headers: { origin: GAME } }), frozen);
    expect([marked.headers.get('access-control-allow-origin'), await marked.text()]).toEqual([GAME, '{}']);
  });
});
