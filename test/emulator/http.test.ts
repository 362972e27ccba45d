// Over real HTTP (startEmulator on port 0): the address, the API, control endpoints from loopback and same origin,
// the drop fault destroying the socket (before and after processing), Content-Length body limit, and close().
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { ErrorBody } from '../../core/schema/errors.js';
import { sessionBody, T0 } from './helpers.js';

/** Writes `text` on a new socket to the server at `url` and resolves with everything it answers until it closes. */
function rawExchange(url: string, text: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('emulator over HTTP', () => {
  let emulator: RunningEmulator;
  let draw = 0;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, clock: { now: () => T0 }, random: () => draw });
  });
  afterAll(() => emulator.close());
  beforeEach(() => emulator.reset());

  const post = (path: string, body: unknown, key = emulator.serverKey) =>
    fetch(`${emulator.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('listens on 127.0.0.1 with a free port and serves the API', async () => {
    expect(emulator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(emulator.url.endsWith(':0')).toBe(false);
    const response = await fetch(`${emulator.url}/v1/client/creators/LUNA7`, { headers: { authorization: `Bearer ${emulator.clientKey}` } });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { data: { creatorKey: string } }).data.creatorKey).toBe('LUNA7');
    const created = await post('/v1/server/playtime/sessions', sessionBody('h1'));
    expect(created.status).toBe(201);
  });

  it('answers the control endpoints from loopback', async () => {
    await post('/v1/server/playtime/sessions', sessionBody('h2'));
    const state = await fetch(`${emulator.url}/_emulator/state`);
    expect(state.status).toBe(200);
    const body = (await state.json()) as { sessions: Array<{ sessionId: string }>; requests: Record<string, number> };
    expect(body.sessions.map((s) => s.sessionId)).toEqual(['h2']);
    expect(body.requests).toEqual({ 'POST /v1/server/playtime/sessions': 1 });
    const clock = await fetch(`${emulator.url}/_emulator/clock`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"advanceMs":1000}' });
    expect(await clock.json()).toEqual({ data: { now: new Date(T0 + 1000).toISOString() } });
    const faults = await fetch(`${emulator.url}/_emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"latencyMs":1}' });
    expect(((await faults.json()) as { data: { latencyMs: number } }).data.latencyMs).toBe(1);
    const reset = await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST' });
    expect(reset.status).toBe(200);
    expect(emulator.state().sessions).toEqual([]);
    expect(emulator.state().faults.latencyMs).toBe(0);
  });

  it('refuses a control request from a page of another origin, and takes one from its own origin', async () => {
    await post('/v1/server/playtime/sessions', sessionBody('h3'));
    const foreign = await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST', headers: { origin: 'http://localhost:3000' } });
    expect(foreign.status).toBe(403);
    expect(await foreign.json()).toEqual({ status: 403, error: 'Forbidden', message: 'Emulator controls refuse requests from another origin (http://localhost:3000)', code: 'FORBIDDEN' });
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['h3']);
    const own = await fetch(`${emulator.url}/_emulator/reset`, { method: 'POST', headers: { origin: emulator.url } });
    expect(own.status).toBe(200);
    expect(emulator.state().sessions).toEqual([]);
  });

  it('refuses control requests under a host name that is not loopback (DNS rebinding), and takes localhost', async () => {
    const control = (host: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const url = new URL(`${emulator.url}/_emulator/state`);
        const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on('error', reject);
        req.end();
      });
    const rebound = await control('evil.example:8787');
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual({ status: 403, error: 'Forbidden', message: 'Emulator controls answer only loopback host names, not evil.example:8787', code: 'FORBIDDEN' });
    expect((await control(`localhost:${new URL(emulator.url).port}`)).status).toBe(200);
    expect((await control('[::1]:1234')).status).toBe(200);
  });

  // Any holder of the (public) sandbox Server key could register a receiver at the emulator's own control endpoint:
  // the delivery comes from loopback under a loopback name, so it reset the emulator for a client the guard refuses.
  it('refuses a webhook delivery at a control endpoint (403): a receiver URL cannot reach the controls', async () => {
    await post('/v1/server/playtime/sessions', sessionBody('kept'));
    const created = await post('/v1/server/webhooks', { url: `${emulator.url}/_emulator/reset`, eventType: 'coupon.redeemed', retryCount: 0 });
    expect(created.status).toBe(201);
    await post('/v1/server/coupons/redeem', { couponCode: 'WELCOME', userId: 'user_1' });
    await emulator.webhooksIdle();
    const state = emulator.state();
    expect(state.sessions.map((s) => s.sessionId)).toEqual(['kept']);
    expect(state.deliveries.map((d) => [d.status, d.responseStatus])).toEqual([['FAILED', 403]]);
  });

  it('destroys the socket for a drop before processing: the client sees a network error, nothing is recorded', async () => {
    emulator.setFaults({ dropRate: 1 });
    draw = 0.2;
    const error = await post('/v1/server/playtime/sessions', sessionBody('drop-before')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(emulator.state().sessions).toEqual([]);
  });

  it('destroys the socket for a drop after processing: the service recorded what the client never heard about', async () => {
    emulator.setFaults({ dropRate: 1 });
    draw = 0.7;
    const error = await post('/v1/server/playtime/sessions', sessionBody('drop-after')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['drop-after']);
    emulator.setFaults({ dropRate: 0 });
    const retry = await post('/v1/server/playtime/sessions', sessionBody('drop-after'));
    expect(((await retry.json()) as { data: { recorded: boolean } }).data.recorded).toBe(false);
  });

  it('answers a Content-Length over 1 MiB with 413 before reading the body', async () => {
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(`${emulator.url}/v1/server/payments/bulk`, {
        method: 'POST',
        headers: { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json', 'content-length': String(2 * 1024 * 1024) },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        });
      });
      req.on('error', reject);
      req.write('{"payments":[');
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ status: 413, error: 'Payload Too Large', message: 'Request body exceeds 1048576 bytes', code: 'BAD_REQUEST' });
  });

  it('started on every interface (0.0.0.0, ::), names a loopback URL whose control endpoints answer', async () => {
    // The wildcard address in the URL named a host the control guard refuses (403 "not 0.0.0.0:port"), so the
    // CLI's own "State:" link was refused, and some systems (Windows) cannot connect to 0.0.0.0 at all.
    for (const [host, loopback] of [['0.0.0.0', '127.0.0.1'], ['::', '[::1]']] as const) {
      const wide = await startEmulator({ port: 0, host });
      try {
        expect(wide.url).toMatch(new RegExp(`^http://${loopback.replace(/[.[\]]/g, '\\$&')}:\\d+$`));
        const state = await fetch(`${wide.url}/_emulator/state`);
        expect(state.status).toBe(200);
      } finally {
        await wide.close();
      }
    }
  });

  it('closes the connection after a 413, so the next request of a keep-alive client is answered, not dropped', async () => {
    const headers = { authorization: `Bearer ${emulator.serverKey}`, 'content-type': 'application/json' };
    const tooLarge = await fetch(`${emulator.url}/v1/server/coupons/redeem`, { method: 'POST', headers, body: JSON.stringify({ couponCode: 'x'.repeat(1024 * 1024) }) });
    expect(tooLarge.status).toBe(413);
    expect(tooLarge.headers.get('connection')).toBe('close');
    await tooLarge.text();
    // Before, the 413 said keep-alive and the socket was dropped: one of these failed with "fetch failed".
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const response = await fetch(`${emulator.url}/v1/server/payments/tx-${i}`, { headers });
      await response.text();
      statuses.push(response.status);
    }
    expect(statuses).toEqual([404, 404, 404, 404]);
  });

  // node:http and @hono/node-server answered these with an empty 400 (or 431) of their own: a client read an error
  // with no code or message. Each is written on a raw socket, as a hostile or broken client sends it.
  it.each([
    ['Content-Length given twice', (key: string) => `POST /v1/server/coupons/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`, 400, 'HPE_UNEXPECTED_CONTENT_LENGTH'],
    ['a control character in a header name', (key: string) => `GET /v1/server/campaigns HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nX-Bad\u0001: y\r\n\r\n`, 400, 'HPE_INVALID_HEADER_TOKEN'],
    ['a chunk size that is not hexadecimal', (key: string) => `POST /v1/server/coupons/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{}\r\n0\r\n\r\n`, 400, 'HPE_INVALID_CHUNK_SIZE'],
    ['a space in the path', (key: string) => `GET /v1/server/coupons/user/a b HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`, 400, 'HPE_INVALID_CONSTANT'],
    ['a path over 16 KiB', (key: string) => `GET /v1/server/coupons/user/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`, 431, 'HPE_HEADER_OVERFLOW'],
    ['an HTTP/1.1 request without Host', (key: string) => `GET /v1/server/campaigns HTTP/1.1\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`, 400, 'Host header'],
    ['a request target that is not a path (OPTIONS *)', (key: string) => `OPTIONS * HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`, 400, 'Invalid URL'],
  ])('answers %s with the spec\'s error body, not an empty answer', async (_, request, status, named) => {
    const answer = await rawExchange(emulator.url, request(emulator.serverKey));
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(head.toLowerCase()).toContain('content-type: application/json');
    const parsed = JSON.parse(body) as { status: number; code: string; message: string; error: string };
    expect(ErrorBody.safeParse(parsed).success).toBe(true);
    expect(parsed).toMatchObject({ status, code: 'BAD_REQUEST' });
    expect(parsed.message).toContain(named);
    // The server is still there for the next client.
    expect((await fetch(`${emulator.url}/v1/server/campaigns`, { headers: { authorization: `Bearer ${emulator.serverKey}` } })).status).toBe(200);
  });

  // The app answers every /v1/* request with the CORS headers of its policy (any origin); these raw answers had none,
  // so a browser hid them from the page (a Client API call with a header over 16 KiB saw a network error, not the 431).
  it.each([
    ['a header over 16 KiB on the Client API', (key: string) => `GET /v1/client/creators/LUNA7 HTTP/1.1\r\nHost: x\r\nOrigin: https://game.example\r\nAuthorization: Bearer ${key}\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['a control character in a header', (key: string) => `GET /v1/client/creators/LUNA7 HTTP/1.1\r\nHost: x\r\nOrigin: https://game.example\r\nAuthorization: Bearer ${key}\r\nX-Bad\u0001: y\r\n\r\n`, 400],
    ['an HTTP/1.1 request without Host', (key: string) => `GET /v1/client/creators/LUNA7 HTTP/1.1\r\nOrigin: https://game.example\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`, 400],
    ['a Host that is not a host name', (key: string) => `GET /v1/client/creators/LUNA7 HTTP/1.1\r\nHost: a b\r\nOrigin: https://game.example\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`, 400],
  ])('answers %s on /v1 with the CORS headers of the API', async (_, request, status) => {
    const answer = await rawExchange(emulator.url, request(emulator.clientKey));
    const head = (answer.split('\r\n\r\n')[0] ?? '').toLowerCase();
    expect(head).toMatch(new RegExp(`^http/1\\.1 ${status} `));
    expect(head).toContain('\r\naccess-control-allow-origin: *\r\n');
    expect(head).toContain('\r\naccess-control-expose-headers: retry-after\r\n');
    // The app's own answers carry the same.
    const app = await fetch(`${emulator.url}/v1/client/creators/LUNA7`, { headers: { authorization: `Bearer ${emulator.clientKey}`, origin: 'https://game.example' } });
    expect([app.headers.get('access-control-allow-origin'), app.headers.get('access-control-expose-headers')]).toEqual(['*', 'retry-after']);
  });

  it.each([
    ['a header over 16 KiB on a control endpoint (same origin only)', `GET /_emulator/state HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    ['an HTTP/1.1 request without Host outside /v1', `GET /_emulator/state HTTP/1.1\r\nConnection: close\r\n\r\n`, 400],
    ['a request line that cannot be read', `GET /v1/client/creators/a b HTTP/1.1\r\nHost: x\r\n\r\n`, 400],
    ['a target that is not a path', `OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`, 400],
  ])('answers %s without CORS headers', async (_, request, status) => {
    const answer = await rawExchange(emulator.url, request);
    const head = (answer.split('\r\n\r\n')[0] ?? '').toLowerCase();
    expect(head).toMatch(new RegExp(`^http/1\\.1 ${status} `));
    expect(head).not.toContain('access-control-');
  });

  it('records a session whose Content-Type line was sent twice with the same value, and refuses two different ones', async () => {
    // @hono/node-server appends each raw header line, so the app reads `application/json, application/json`.
    const send = (sessionId: string, second: string) => {
      const body = JSON.stringify(sessionBody(sessionId));
      return rawExchange(
        emulator.url,
        `POST /v1/server/playtime/sessions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${emulator.serverKey}\r\nContent-Type: application/json\r\nContent-Type: ${second}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    };
    expect(await send('ct-1', 'application/json')).toMatch(/^HTTP\/1\.1 201 /);
    expect(await send('ct-2', 'text/plain')).toMatch(/^HTTP\/1\.1 415 [\s\S]*sent more than once with different values/);
    expect(emulator.state().sessions.map((s) => s.sessionId)).toEqual(['ct-1']);
  });

  it('still serves an HTTP/1.0 request without Host (Host is required from HTTP/1.1 on)', async () => {
    const answer = await rawExchange(emulator.url, `GET /v1/server/campaigns HTTP/1.0\r\nAuthorization: Bearer ${emulator.serverKey}\r\n\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('answers an Expect other than 100-continue with 417 in the error body, with CORS under /v1, and closes', async () => {
    const body = JSON.stringify({ couponCode: 'WELCOME' });
    const answer = await rawExchange(
      emulator.url,
      `POST /v1/server/coupons/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${emulator.serverKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 200-ok\r\n\r\n${body}`,
    );
    const [head, text] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 417 /);
    expect(head).toMatch(/\r\nConnection: close/i);
    expect(head).toMatch(/\r\naccess-control-allow-origin: \*/i);
    const error = ErrorBody.parse(JSON.parse(text!));
    expect(error).toMatchObject({ status: 417, code: 'BAD_REQUEST' });
    expect(error.message).toContain('"200-ok"');
  });

  it('still takes Expect: 100-continue', async () => {
    const body = JSON.stringify({ couponCode: 'WELCOME' });
    const answer = await rawExchange(
      emulator.url,
      `POST /v1/server/coupons/validate HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${emulator.serverKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n${body}`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 /);
  });

  it('answers CONNECT (a tunnel request) with 400 in the error body instead of dropping the connection', async () => {
    const answer = await rawExchange(emulator.url, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
    const [head, text] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(ErrorBody.parse(JSON.parse(text!))).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
  });

  it('stops listening on close()', async () => {
    const other = await startEmulator({ port: 0 });
    await other.close();
    await expect(fetch(`${other.url}/webview`)).rejects.toThrow(TypeError);
  });
});

describe('startEmulator errors', () => {
  it('rejects when the port is taken', async () => {
    const first = await startEmulator({ port: 0 });
    const port = Number(new URL(first.url).port);
    await expect(startEmulator({ port })).rejects.toThrow(/EADDRINUSE/);
    await first.close();
  });
});
