// Bad input never crashes the emulator: malformed JSON, wrong content types, oversized and deeply nested bodies,
// unknown routes (404 before any key or body check), and generated garbage all answer 4xx with the spec's error body.
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBody } from '../../core/schema/errors.js';
import { CreateWebhookRequest } from '../../core/schema/webhooks.js';
import { caller, emulatorAtT0, problemsOf, sessionBody } from './helpers.js';

describe('emulator bad input', () => {
  const emulator = emulatorAtT0({ faults: { rateLimitPerSecond: 0 } });
  const call = caller(emulator);

  it('answers malformed JSON with 400 BAD_REQUEST', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions', { raw: '{"sessionId": "s1",' });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: 'Bad Request', message: 'Request body is not valid JSON', code: 'BAD_REQUEST' });
  });

  it('answers an empty JSON body with 400 BAD_REQUEST', async () => {
    const answer = await call('POST', '/v1/server/coupons/redeem', { raw: '' });
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('BAD_REQUEST');
  });

  it('answers a body that is not application/json with 415 and code BAD_REQUEST', async () => {
    for (const contentType of ['text/plain', 'application/x-www-form-urlencoded', null]) {
      const answer = await call('POST', '/v1/server/coupons/redeem', { raw: '{"couponCode":"WELCOME","userId":"u1"}', contentType });
      expect(answer.status).toBe(415);
      expect(answer.body).toEqual({
        status: 415,
        error: 'Unsupported Media Type',
        message: 'Request body must be JSON with Content-Type: application/json',
        code: 'BAD_REQUEST',
      });
    }
    expect(emulator.state().couponUsages).toEqual([]);
  });

  it('accepts application/json with a charset parameter', async () => {
    const answer = await call('POST', '/v1/server/coupons/validate', { raw: '{"couponCode":"WELCOME"}', contentType: 'application/json; charset=utf-8' });
    expect(answer.status).toBe(200);
  });

  it('answers a body over 1 MiB with 413 and code BAD_REQUEST, without a Content-Length too', async () => {
    const big = JSON.stringify({ sessions: [], padding: 'x'.repeat(1024 * 1024) });
    const answer = await call('POST', '/v1/server/playtime/sessions/bulk', { raw: big });
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual({ status: 413, error: 'Payload Too Large', message: 'Request body exceeds 1048576 bytes', code: 'BAD_REQUEST' });
  });

  it.each([
    ['without a Content-Length (read by the size check)', {}],
    ['with a Content-Length (read as JSON)', { 'content-length': '100' }],
  ])('answers a body that stops arriving %s with 400 BAD_REQUEST, not a 500, and logs nothing', async (_, extra) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      for (const path of ['/v1/server/playtime/sessions', '/_emulator/reset']) {
        // What a client that closes its connection mid-body looks like to the handler: a body stream that fails.
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode('{"sessionId":')),
          pull: (controller) => controller.error(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })),
        });
        const headers = { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json', ...extra };
        const response = await emulator.fetch(new Request(`http://emulator.local${path}`, { method: 'POST', headers, body, duplex: 'half' } as RequestInit));
        expect(response.status).toBe(400);
        expect(await response.json()).toEqual({
          status: 400,
          error: 'Bad Request',
          message: 'The request body could not be read: the connection closed before it ended',
          code: 'BAD_REQUEST',
        });
      }
      expect(errors).not.toHaveBeenCalled();
      expect(emulator.state().sessions).toEqual([]);
    } finally {
      errors.mockRestore();
    }
  });

  it('answers JSON nested deeper than 64 levels with 400 BAD_REQUEST', async () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000);
    const answer = await call('POST', '/v1/server/playtime/sessions', { raw: `{"metadata":${deep}}` });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: 'Bad Request', message: 'Request body is nested deeper than 64 levels', code: 'BAD_REQUEST' });
  });

  it('answers an unknown route with 404 NOT_FOUND', async () => {
    const answer = await call('GET', '/v1/server/nothing-here');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ status: 404, error: 'Not Found', message: 'No route for GET /v1/server/nothing-here', code: 'NOT_FOUND' });
    const outside = await call('GET', '/favicon.ico', { key: null });
    expect(outside.status).toBe(404);
    expect(outside.body.code).toBe('NOT_FOUND');
  });

  it('answers an unknown path with 404 before the key and body checks: no 401 without a key, no 415 for text/plain', async () => {
    const bare = await call('GET', '/v1/server/nope', { key: null });
    expect(bare.status).toBe(404);
    expect(bare.body).toEqual({ status: 404, error: 'Not Found', message: 'No route for GET /v1/server/nope', code: 'NOT_FOUND' });
    const text = await call('POST', '/v1/client/nope', { key: null, raw: 'hello', contentType: 'text/plain' });
    expect(text.status).toBe(404);
    expect(text.body).toEqual({ status: 404, error: 'Not Found', message: 'No route for POST /v1/client/nope', code: 'NOT_FOUND' });
    const wrongKey = await call('PUT', '/v1/server/webhooks/1/nope', { key: 'wrong:key', raw: '{', contentType: 'application/json' });
    expect(wrongKey.body).toEqual({ status: 404, error: 'Not Found', message: 'No route for PUT /v1/server/webhooks/1/nope', code: 'NOT_FOUND' });
    const control = await call('POST', '/_emulator/nope', { key: null, raw: 'x', contentType: 'text/plain' });
    expect(control.body).toEqual({ status: 404, error: 'Not Found', message: 'No route for POST /_emulator/nope', code: 'NOT_FOUND' });
  });

  it.each([
    ['DELETE', '/v1/server/payments/bulk', 'POST, GET'], // GET: a payment whose id is "bulk"
    ['PATCH', '/v1/server/webhooks/wh_1', 'PUT, DELETE'],
    ['PUT', '/v1/client/campaigns/camp_1', 'GET'],
    ['POST', '/_emulator/state', 'GET'],
  ])('answers %s %s (a method the path lacks) 404 naming the methods it takes, before its key or its body', async (method, path, takes) => {
    // Before, the key and the body were judged first: 401 without a key, 415 for a text/plain body, 404 only after.
    const message = `No route for ${method} ${path} (this path takes ${takes})`;
    const bare = await call(method, path, { key: null, raw: 'x', contentType: 'text/plain' });
    expect(bare.body).toEqual({ status: 404, error: 'Not Found', message, code: 'NOT_FOUND' });
    const keyed = await call(method, path, { raw: 'x', contentType: 'text/plain', key: path.startsWith('/v1/client/') ? emulator.clientKey : undefined });
    expect(keyed.body).toEqual({ status: 404, error: 'Not Found', message, code: 'NOT_FOUND' });
  });

  it('answers a wrong method on a known path with 404 NOT_FOUND', async () => {
    const answer = await call('DELETE', '/v1/server/payments/bulk');
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('NOT_FOUND');
  });

  it('still answers HEAD where GET is routed, and a known method with the key and body checks', async () => {
    expect((await call('HEAD', '/v1/client/creators/LUNA7', { key: emulator.clientKey })).status).toBe(200);
    expect((await call('PUT', '/v1/server/webhooks/wh_1', { key: null, raw: 'x', contentType: 'text/plain' })).status).toBe(401);
    expect((await call('PUT', '/v1/server/webhooks/wh_1', { raw: 'x', contentType: 'text/plain' })).status).toBe(415);
  });

  it('answers validation errors with VALIDATION_ERROR and details', async () => {
    const body = { url: 'not a url', eventType: 'coupon.created', retryCount: 11 };
    const answer = await call('POST', '/v1/server/webhooks', { body });
    const details = problemsOf(CreateWebhookRequest, body);
    expect(details.map((d) => d.path)).toEqual(['url', 'eventType', 'retryCount']);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      error: 'Bad Request',
      message: `Request validation failed: url: ${details[0]!.message} (and 2 more)`,
      code: 'VALIDATION_ERROR',
      details,
    });
  });

  it('answers generated bodies on every write route with a 2xx or a 4xx error body, never a 5xx, and records nothing invalid', async () => {
    const writes: Array<[string, string]> = [
      ['POST', '/v1/server/playtime/sessions'],
      ['POST', '/v1/server/playtime/sessions/bulk'],
      ['POST', '/v1/server/payments/bulk'],
      ['POST', '/v1/server/payments'],
      ['POST', '/v1/server/coupons/redeem'],
      ['POST', '/v1/server/coupons/validate'],
      ['POST', '/v1/server/sponsors'],
      ['PUT', '/v1/server/sponsors/user/user_1'],
      ['POST', '/v1/server/webview/ott'],
      ['POST', '/v1/webview/sessions'],
      ['POST', '/v1/server/webhooks'],
      ['PUT', '/v1/server/webhooks/1'],
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...writes), fc.oneof(fc.jsonValue(), fc.string()), async ([method, path], value) => {
        const raw = typeof value === 'string' && value.length % 2 === 0 ? value : JSON.stringify(value);
        const answer = await call(method, path, { raw: raw ?? 'null' });
        expect(answer.status).toBeLessThan(500);
        if (answer.status >= 400) {
          expect(ErrorBody.safeParse(answer.body).success).toBe(true);
          expect(answer.body.status).toBe(answer.status);
        }
      }),
      { numRuns: 300, seed: 20250601 },
    );
    const state = emulator.state();
    expect(state.sessions).toEqual([]);
    expect(state.payments).toEqual([]);
  });
});

// JSON is UTF-8 (RFC 8259 section 8.1). The emulator read every body with a decoder that replaces a byte that is not
// UTF-8 by U+FFFD, so a Latin-1 body was recorded altered, and two sessions whose ids differ in such a byte ("s\xe9",
// "s\xe8") became one id: the second answered recorded: false and was lost. The relay refuses these bodies (400, or 415
// naming a declared charset or Content-Encoding); the emulator now answers as it does.
describe('emulator bodies that are not UTF-8', () => {
  const emulator = emulatorAtT0({ faults: { rateLimitPerSecond: 0 } });
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  const post = async (path: string, body: BodyInit, headers: Record<string, string> = {}) => {
    const response = await emulator.fetch(
      new Request(`http://emulator.local${path}`, { method: 'POST', headers: { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json', ...headers }, body }),
    );
    return { status: response.status, body: (await response.json()) as { status: number; code: string; message: string } };
  };
  const session = (sessionId: string) => JSON.stringify(sessionBody(sessionId));

  it('answers a byte that is not UTF-8 with 400 BAD_REQUEST and records nothing, for any such byte in any string', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0x80, max: 0xff }), fc.string({ maxLength: 8 }), async (byte, prefix) => {
        const id = `${prefix.replace(/[^a-z0-9]/gi, '')}s${String.fromCharCode(byte)}`;
        const answer = await post('/v1/server/playtime/sessions', latin1(session(id)));
        expect(answer.status).toBe(400);
        expect(answer.body).toEqual({ status: 400, error: 'Bad Request', message: 'Request body is not valid UTF-8', code: 'BAD_REQUEST' });
      }),
      { numRuns: 100, seed: 20251127 },
    );
    expect(emulator.state().sessions).toEqual([]);
  });

  it('keeps two sessions whose ids differ only in a non-ASCII character apart when they come as UTF-8', async () => {
    emulator.reset();
    for (const id of ['s\u00e9', 's\u00e8']) {
      const answer = await post('/v1/server/playtime/sessions', new TextEncoder().encode(session(id)));
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({ data: { sessionId: id, recorded: true } });
    }
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['s\u00e9', 's\u00e8']);
    emulator.reset();
  });

  it('answers 415 naming a declared charset or Content-Encoding the body is in, as the relay does', async () => {
    const charset = await post('/v1/server/playtime/sessions', latin1(session('s\u00e9')), { 'content-type': 'application/json; charset=ISO-8859-1' });
    expect(charset.status).toBe(415);
    expect(charset.body).toEqual({ status: 415, error: 'Unsupported Media Type', message: 'charset iso-8859-1 is not supported; send the JSON body as UTF-8', code: 'BAD_REQUEST' });
    const gzipped = await post('/v1/server/coupons/validate', gzipSync('{"couponCode":"WELCOME"}'), { 'content-encoding': 'gzip' });
    expect(gzipped.status).toBe(415);
    expect(gzipped.body.message).toBe('Content-Encoding gzip is not supported; send the JSON body uncompressed');
    // A declared charset whose body is UTF-8 all the same (ASCII) is read: only a body that does not decode is refused.
    expect((await post('/v1/server/coupons/validate', latin1('{"couponCode":"WELCOME"}'), { 'content-type': 'application/json; charset=latin1' })).status).toBe(200);
    expect(emulator.state().sessions).toEqual([]);
  });
});

describe('emulator path parameters that cannot be decoded', () => {
  const emulator = emulatorAtT0({ faults: { rateLimitPerSecond: 0 } });
  const call = caller(emulator);

  it.each([
    ['PUT', '/v1/server/sponsors/user/%ZZ', { newCreatorKey: 'ABCDE' }, 'userId'],
    ['GET', '/v1/server/sponsors/user/%E0%A4%A/history', undefined, 'userId'],
    ['GET', '/v1/server/coupons/user/100%', undefined, 'userId'],
    ['GET', '/v1/server/payments/%FF', undefined, 'transactionId'],
    ['PUT', '/v1/server/webhooks/%C3%28', { isActive: false }, 'id'],
  ])('answers %s %s with 400 VALIDATION_ERROR naming the parameter', async (method, path, body, name) => {
    const answer = await call(method, path, body === undefined ? {} : { body });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      error: 'Bad Request',
      code: 'VALIDATION_ERROR',
      message: `Request validation failed: ${name}: is not valid percent-encoding`,
      details: [{ path: name, message: 'is not valid percent-encoding' }],
    });
    // Nothing was recorded for a user named as written.
    expect(emulator.state().boosts.map((b: { userId: string }) => b.userId)).not.toContain('%ZZ');
  });

  it.each([
    ['/v1/client/creators/search?q=%ZZ', 'q'],
    ['/v1/client/creators/search?q=abc&limit=1%', 'limit'],
    ['/v1/client/creators/search?q=%E9t%E9', 'q'],
    ['/v1/client/creators/search?q=abc&%ZZ=1', '(query)'],
  ])('answers GET %s with 400 VALIDATION_ERROR naming the query parameter', async (path, name) => {
    // Before, hono's c.req.query() handed the text on as written: creators were searched for the text %ZZ (200).
    const answer = await call('GET', path, { key: emulator.clientKey });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: name, message: 'is not valid percent-encoding' }] });
  });

  it.each([
    ['/v1/server/campaigns?limit=10&limit=20', 'server', 'limit'],
    ['/v1/server/campaigns?page=1&limit=5&page=2', 'server', 'page'],
    ['/v1/server/campaigns/camp_spring_2024/creators?limit=1&l%69mit=2', 'server', 'limit'],
    ['/v1/client/campaigns/camp_spring_2024/creators?page=1&page=1', 'client', 'page'],
    ['/v1/server/coupons/user/user_1?limit=10&limit=20', 'server', 'limit'],
    ['/v1/client/creators/search?q=ab&q=cd', 'client', 'q'],
    ['/v1/client/creators/search?q=ab&isTest=true&isTest=false', 'client', 'isTest'],
  ])('answers GET %s (a parameter given twice) with 400 VALIDATION_ERROR naming it', async (path, surface, name) => {
    // Before, hono's c.req.query() took the first value and dropped the rest: limit=10&limit=20 answered 10 items.
    const answer = await call('GET', path, { key: surface === 'client' ? emulator.clientKey : emulator.serverKey });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: name, message: 'must be given once (the query names it more than once)' }] });
  });

  it('still takes each parameter once, an empty pair (&&) included', async () => {
    expect((await call('GET', '/v1/server/campaigns?page=1&&limit=5&')).status).toBe(200);
    expect((await call('GET', '/v1/client/creators/search?q=ab&limit=5', { key: emulator.clientKey })).status).toBe(200);
  });

  it('still decodes a well-formed query (+ and %20 as spaces, %C3%A9, an encoded & and =)', async () => {
    for (const path of ['/v1/client/creators/search?q=a+b%20%C3%A9', '/v1/client/creators/search?q=a%26b%3Dc&limit=5']) {
      expect((await call('GET', path, { key: emulator.clientKey })).status).toBe(200);
    }
  });

  it('still decodes a well-formed parameter (%2F, %20, UTF-8)', async () => {
    const answer = await call('GET', '/v1/server/coupons/user/a%2Fb%20%C3%A9');
    expect(answer.status).toBe(200);
  });
});
