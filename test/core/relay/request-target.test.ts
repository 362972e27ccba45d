/**
 * A request whose `url` is the bare request target (`/campaign/playtime/sessions`), as Bun (1.4) hands one that names
 * no host (an HTTP/1.0 request without Host, an empty or invalid Host): the relay answers it 400 in the spec's error
 * body, as toNodeHandler answers the same request on Node, and routes nothing. The runtime itself: server-stories.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { authenticateByHeader, read, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

/** `request` as Bun gives it when it names no host: `url` without scheme or host. */
function withBareTarget(request: Request, target: string): Request {
  return Object.defineProperty(request, 'url', { value: target });
}

const REFUSED = {
  status: 400,
  error: 'Bad Request',
  code: 'BAD_REQUEST',
  message: 'The request cannot be read: its Host header is missing or names no host, so it has no URL to route',
};

describe('a request whose URL is its bare target (Bun, no Host)', () => {
  it('is answered 400 BAD_REQUEST in the error body, not a 404 naming a path it did not ask for', async () => {
    // Before: Hono's router read `/campaign/playtime/sessions` as `/playtime/sessions` (it skips what it takes for the
    // scheme and host), and the relay answered 404 "No relay route POST /playtime/sessions".
    const authenticate = vi.fn(authenticateByHeader);
    const { relay, fake } = relayOverFakeService({ authenticate });
    const request = withBareTarget(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice'), `/campaign${RELAY_ROUTES.playtime}`);
    const answer = await read(await relay.fetch(request));
    expect([answer.status, answer.body, answer.headers.get('connection')]).toEqual([400, REFUSED, 'close']);
    expect([authenticate.mock.calls.length, fake.calls]).toEqual([0, []]);
  });

  it('is not served as another route: with basePath "/", `/v2/playtime/sessions` is not the playtime route', async () => {
    // Before: routed as `/playtime/sessions` (the first 3 characters skipped, then up to the next `/`), authenticated and forwarded.
    const { relay, fake } = relayOverFakeService({ basePath: '/' });
    const request = withBareTarget(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice'), `/v2${RELAY_ROUTES.playtime}`);
    const answer = await read(await relay.fetch(request));
    expect([answer.status, answer.body]).toEqual([400, REFUSED]);
    expect(fake.calls).toEqual([]);
  });

  it('is answered with the CORS headers of an allowed origin, before a preflight is matched', async () => {
    const origin = 'https://game.portal-cdn.example';
    const { relay } = relayOverFakeService({ cors: { origins: [origin] } });
    const preflight = withBareTarget(
      new Request(`https://game.test/campaign${RELAY_ROUTES.playtime}`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST' } }),
      `/campaign${RELAY_ROUTES.playtime}`,
    );
    const answer = await read(await relay.fetch(preflight));
    expect([answer.status, answer.body, answer.headers.get('access-control-allow-origin')]).toEqual([400, REFUSED, origin]);
  });
});

// p49: Deno and workerd build a request's URL as `http://` + Host + target, so a Host holding a path chose the route
// whatever the target (`Host: relay.test/campaign/playtime/sessions?` with `POST /anything`); Node and Bun refuse such a
// Host. RFC 9112 section 3.2: 400 for a Host sent twice or of invalid value.
describe('a request whose Host is not one host (Deno, workerd)', () => {
  /** `request` as Deno and workerd give it: `host` as sent, the URL made of it and `target`. */
  function withHost(request: Request, host: string, target: string): Request {
    Object.defineProperty(request, 'url', { value: `http://${host}${target}` });
    request.headers.set('host', host);
    return request;
  }
  const refusal = (why: string) => ({ status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: `The request cannot be read: ${why}` });
  const NOT_ONE = refusal('its Host header is not one host name (sent twice, or holding a path), so it has no URL to route');

  it('is answered 400 BAD_REQUEST, not routed by the path its Host carries', async () => {
    const authenticate = vi.fn(authenticateByHeader);
    const { relay, fake } = relayOverFakeService({ authenticate });
    const answers = [];
    for (const [host, target] of [
      ['relay.test/campaign/playtime/sessions?', '/anything'],
      ['relay.test#', `/campaign${RELAY_ROUTES.playtime}`],
      ['user@relay.test', `/campaign${RELAY_ROUTES.playtime}`],
      // Two Host lines, as Fetch joins them.
      ['other.test, relay.test', `/campaign${RELAY_ROUTES.playtime}`],
      ['relay.test\\x', `/campaign${RELAY_ROUTES.playtime}`],
    ] as const) {
      const request = withHost(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice'), host, target);
      const answer = await read(await relay.fetch(request));
      answers.push([answer.status, answer.body, answer.headers.get('connection')]);
    }
    expect(answers).toEqual(Array(5).fill([400, NOT_ONE, 'close']));
    expect([authenticate.mock.calls.length, fake.calls]).toEqual([0, []]);
  });

  it('routes a Host with a port, an IPv6 address or upper case as before', async () => {
    const { relay } = relayOverFakeService({ coalesceWindowMs: 0 });
    const statuses = [];
    for (const [n, host] of ['relay.test:8443', '[::1]:8080', 'RELAY.Test'].entries()) {
      const request = withHost(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1, n) }, 'alice'), host, `/campaign${RELAY_ROUTES.playtime}`);
      statuses.push((await relay.fetch(request)).status);
    }
    expect(statuses).toEqual([200, 200, 200]);
  });
});
