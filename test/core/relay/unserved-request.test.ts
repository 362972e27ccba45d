/**
 * Requests the relay answers before routing (core/relay/unserved-request.ts): a method it does not recognize is 501 and
 * an `Expect` without `100-continue` is 417, both in the spec's error body, before authentication, whatever the path.
 * Each runtime's own answers: test/runtimes/server-stories.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { authenticateByHeader, read, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

/** `request` with `method` as Deno hands it: as sent (a Fetch `Request` made here upper-cases `post`). */
function withMethod(request: Request, method: string): Request {
  return Object.defineProperty(request, 'method', { value: method });
}

describe('requests the relay answers before routing', () => {
  it.each([
    ['FOO', RELAY_ROUTES.playtime],
    ['post', RELAY_ROUTES.playtime],
    ['PROPFIND', '/elsewhere'],
  ])('a method it does not recognize (%s %s) is 501 BAD_REQUEST, nothing authenticated or forwarded', async (method, route) => {
    // Before: 405 on a route ("FOO is not allowed here; use POST"), 404 elsewhere.
    const authenticate = vi.fn(authenticateByHeader);
    const { relay, fake } = relayOverFakeService({ authenticate });
    const answer = await read(await relay.fetch(withMethod(relayRequest('POST', route, { sessions: sessions('alice', 1) }, 'alice'), method)));
    expect([answer.status, answer.body, answer.headers.get('connection')]).toEqual([
      501,
      { status: 501, error: 'Not Implemented', code: 'BAD_REQUEST', message: `The method ${JSON.stringify(method)} is not one the relay recognizes (methods are case-sensitive)` },
      'close',
    ]);
    expect([authenticate.mock.calls.length, fake.calls]).toEqual([0, []]);
  });

  it('CONNECT is 400 BAD_REQUEST (a tunnel: the relay is no proxy), as toNodeHandler answers it on Node', async () => {
    // Before: Bun and Deno handed it on; a route answered 405, an authority-form target was routed as a path (404).
    const { relay, fake } = relayOverFakeService({});
    const answer = await read(await relay.fetch(withMethod(relayRequest('POST', RELAY_ROUTES.playtime, undefined, 'alice'), 'CONNECT')));
    expect([answer.status, answer.body.code, answer.body.message]).toEqual([400, 'BAD_REQUEST', 'The request cannot be read: CONNECT asks for a tunnel, and the relay is not a proxy']);
    expect(fake.calls).toEqual([]);
  });

  it('a transfer coding besides chunked is 501 BAD_REQUEST (RFC 9112 section 6.1); chunked alone is served', async () => {
    // Before: the runtime took chunked away and the relay read what was left (still gzip-coded) as its JSON.
    const { relay, fake } = relayOverFakeService({});
    const post = (coding: string) => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice', { 'transfer-encoding': coding });
    const refused = await read(await relay.fetch(post('gzip, chunked')));
    expect([refused.status, refused.body.code, refused.body.message]).toEqual([
      501,
      'BAD_REQUEST',
      'The transfer coding "gzip" is not one the relay decodes (only chunked, which the server decodes)',
    ]);
    expect(fake.calls).toEqual([]);
    expect((await relay.fetch(post('Chunked'))).status).toBe(200);
  });

  it('a recognized method a route does not take keeps its 405', async () => {
    const { relay } = relayOverFakeService({});
    const answer = await read(await relay.fetch(relayRequest('PATCH', RELAY_ROUTES.playtime, {}, 'alice')));
    expect([answer.status, answer.headers.get('allow')]).toEqual([405, 'POST']);
  });

  it('an Expect without 100-continue is 417 BAD_REQUEST; one holding it is served', async () => {
    // Before: served on Bun, Deno and workerd as if the header were absent (node:http answered 417 itself).
    const { relay, fake } = relayOverFakeService({});
    const post = (expectation: string) => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice', { expect: expectation });
    const refused = await read(await relay.fetch(post('a-wish')));
    expect([refused.status, refused.body.code, refused.body.error, refused.body.message]).toEqual([
      417,
      'BAD_REQUEST',
      'Expectation Failed',
      'The expectation "a-wish" cannot be met: the relay meets only Expect: 100-continue',
    ]);
    expect(fake.calls).toEqual([]);
    expect((await relay.fetch(post('100-Continue, a-wish'))).status).toBe(200);
  });
});
