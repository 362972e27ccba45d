/**
 * The boost client against a recording fake relay and API: what `PUT /sponsor` carries, the typed errors of the
 * relay's answers, and `current()` for a player without a boost.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createBoost } from '../../../core/boost/boost.js';
import { ClientSponsors } from '../../../core/client/sponsors.js';
import { AbortError, BoostCooldownError, ConnectionError, NotFoundError, ValidationError } from '../../../core/http/errors.js';
import { apiEndpoint } from '../../../core/http/environment.js';
import { createTransport } from '../../../core/http/transport.js';
import type { FetchLike } from '../../../core/platform.js';

const RELAY = 'http://game.local/campaign/';
const API = 'http://emulator.local';
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
afterEach(() => vi.useRealTimers());
const RECORD = { userId: 'player-1', campaignId: 'cmp_1', creatorKey: 'NOVA1', creatorName: 'Nova', isActive: true, sponsoredAt: '2025-06-01T12:00:00.000Z' };

function boostWith(fetch: FetchLike) {
  const sponsors = new ClientSponsors(createTransport(apiEndpoint('ck_test:secret', 'Client', { environment: { baseUrl: API } }), { fetch, maxRetries: 0 }));
  return createBoost({ fetch, relay: { url: RELAY, headers: async () => ({ authorization: 'Bearer session-1', 'Content-Type': 'text/plain' }) } }, sponsors, 'player-1', () => undefined);
}

describe('boost', () => {
  it('sends PUT {relay}/sponsor with the request and the game\'s headers, and returns the boost', async () => {
    const requests: Request[] = [];
    const boost = boostWith(async (input, init) => {
      requests.push(new Request(input, init));
      return json(200, { data: RECORD });
    });
    await expect(boost.change({ newCreatorKey: 'NOVA1', campaignId: 'cmp_1', callbackId: 'cb-1', isTest: false })).resolves.toEqual(RECORD);
    const [request] = requests;
    expect(`${request!.method} ${request!.url}`).toBe('PUT http://game.local/campaign/sponsor');
    expect(request!.headers.get('authorization')).toBe('Bearer session-1');
    expect(request!.headers.get('content-type')).toBe('application/json');
    expect(await request!.json()).toEqual({ newCreatorKey: 'NOVA1', campaignId: 'cmp_1', callbackId: 'cb-1', isTest: false });
  });

  it('refuses an empty creator key without sending anything', async () => {
    const fetch = vi.fn<FetchLike>();
    const error = await boostWith(fetch).change({ newCreatorKey: '' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).details).toEqual([{ path: 'newCreatorKey', message: 'must not be empty' }]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('turns the cooldown 400 into BoostCooldownError and an unknown creator into NotFoundError', async () => {
    const cooldown = boostWith(async () => json(400, { status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: 'Boost can be changed again in 12 days' }));
    await expect(cooldown.change({ newCreatorKey: 'NOVA1' })).rejects.toMatchObject({ constructor: BoostCooldownError, daysRemaining: 12, status: 400 });
    const unknown = boostWith(async () => json(404, { status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'Creator ZZZZ9 not found' }));
    await expect(unknown.change({ newCreatorKey: 'ZZZZ9' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('reports a relay that cannot be reached as ConnectionError, without retrying the write', async () => {
    const fetch = vi.fn<FetchLike>(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(boostWith(fetch).change({ newCreatorKey: 'NOVA1' })).rejects.toBeInstanceOf(ConnectionError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('stops at the abort signal, also while waiting to retry a 429', async () => {
    vi.useFakeTimers();
    const limited = { status: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: 'slow down' };
    const fetch = vi.fn<FetchLike>(async () => new Response(JSON.stringify(limited), { status: 429, headers: { 'retry-after': '30' } }));
    const controller = new AbortController();
    const change = boostWith(fetch).change({ newCreatorKey: 'NOVA1' }, { signal: controller.signal });
    const settled = change.catch((error: unknown) => error);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetch).toHaveBeenCalledTimes(1);
    const reason = new Error('screen closed');
    controller.abort(reason);
    await expect(settled).resolves.toMatchObject({ constructor: AbortError, code: 'ABORTED', cause: reason });
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('aborted while the game\'s headers resolve: AbortError, sends nothing, and leaves no unhandled rejection', async () => {
    // Before, the request went to fetch with an aborted signal and its rejection (a real fetch rejects at once) was
    // never handled: an unhandled rejection, which ends a Node process.
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const controller = new AbortController();
      // As a real fetch does: rejects with the signal's reason once it is aborted, at once when it already is. (Not a
      // vi.fn: the spy handles the promises it returns.)
      let sent = 0;
      const fetch: FetchLike = (_input, init) => new Promise((_resolve, reject) => {
        sent++;
        const signal = init!.signal!;
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason));
      });
      const sponsors = new ClientSponsors(createTransport(apiEndpoint('ck_test:secret', 'Client', { environment: { baseUrl: API } }), { fetch, maxRetries: 0 }));
      const boost = createBoost({ fetch, relay: { url: RELAY, headers: async () => (controller.abort(), { authorization: 'Bearer session-1' }) } }, sponsors, 'player-1', () => undefined);
      await expect(boost.change({ newCreatorKey: 'NOVA1' }, { signal: controller.signal })).rejects.toBeInstanceOf(AbortError);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).toEqual([]);
      expect(sent).toBe(0);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('reads the current boost from the Client API; none is undefined, other failures throw', async () => {
    const urls: string[] = [];
    const found = boostWith(async (input) => (urls.push(String(input)), json(200, { data: RECORD })));
    await expect(found.current()).resolves.toEqual(RECORD);
    expect(urls).toEqual([`${API}/v1/client/sponsors/user/player-1`]);
    const none = boostWith(async () => json(404, { status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'User player-1 has no boost' }));
    await expect(none.current()).resolves.toBeUndefined();
    const down = boostWith(async () => json(401, { status: 401, error: 'Unauthorized', code: 'UNAUTHORIZED', message: 'bad key' }));
    await expect(down.current()).rejects.toMatchObject({ status: 401 });
  });

  it.each([
    ['a proxy\'s HTML page', () => new Response('<html><body>404 Not Found</body></html>', { status: 404, headers: { 'content-type': 'text/html' } })],
    ['an empty body (a CDN, a wrong baseUrl)', () => new Response(null, { status: 404 })],
    ['JSON that is not the spec\'s error body', () => json(404, { error: 'no route' })],
    // Before: these two resolved undefined too (the body's `message` was taken for the service's).
    ['an AWS HTTP API\'s { message } (a wrong baseUrl)', () => json(404, { message: 'Not Found' })],
    ['a Fastify or NestJS not-found body (no code)', () => json(404, { message: 'Route GET:/v1/client/sponsors/user/player-1 not found', error: 'Not Found', statusCode: 404 })],
  ])('does not take a 404 whose body is not the spec\'s error body (%s) for "no boost": it rejects with NotFoundError', async (_title, answer) => {
    // Before: resolved undefined, so a player who had a boost was shown none.
    const error = await boostWith(async () => answer()).current().then(() => undefined, (caught: unknown) => caught);
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, message: 'HTTP 404' });
  });
});
