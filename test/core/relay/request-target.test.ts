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
