/**
 * `toNodeHandler` as the request listener of a node:http2 server (`http2.createServer(handler)`, and
 * `http2.createSecureServer({ allowHTTP1: true, ... }, handler)` alike: one compatibility layer,
 * lib/internal/http2/compat.js `onServerStream`). The handler adds its `connect` and `checkExpectation` listeners at the
 * server's first connection (diagnostics channel `net.server.socket`); node:http2 emits `connect` with
 * `(request, response)`, where node:http passes `(request, socket, head)`. Real servers and node:http2 clients.
 */
import { execFile } from 'node:child_process';
import http2, { type ClientHttp2Session, type Http2Server, type OutgoingHttpHeaders } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeHandler, webhookMiddleware } from '../../../adapters/node/index.js';
import { signWebhook } from '../../../core/webhooks/sign.js';
import { couponRedeemed, SECRET } from '../../core/webhooks/fixtures.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { relayOverFakeService } from '../../core/relay/fake-service.js';

const ORIGIN = 'https://game.portal-cdn.example';
const cleanup: Array<() => void> = [];

afterEach(() => {
  for (const done of cleanup.splice(0)) done();
});

async function h2Session(server: Http2Server): Promise<ClientHttp2Session> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const session = http2.connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  cleanup.push(() => {
    session.destroy();
    server.close();
  });
  return session;
}

/** One request on `session`: its status, headers and body text (a reset stream reads as status 0). */
function exchange(session: ClientHttp2Session, headers: OutgoingHttpHeaders, body?: string): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve) => {
    const stream = session.request(headers);
    let head: Record<string, unknown> = {};
    let text = '';
    stream.on('response', (h) => (head = h));
    stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    stream.on('error', () => undefined);
    stream.on('close', () => resolve({ status: Number(head[':status'] ?? 0), headers: head, body: text }));
    stream.end(body);
  });
}

describe('toNodeHandler on a node:http2 server', () => {
  // No cast: NodeHandler takes node:http2's compatibility request and response (before p34 this line did not compile).
  const server = () => http2.createServer(toNodeHandler(relayOverFakeService({ basePath: '/campaign', cors: { origins: [ORIGIN] } }).relay));

  // Found reviewing p32's diagnostics-channel listeners against node:http2: the `connect` listener wrote HTTP/1.1 text
  // to the response it took for a socket, so a CONNECT was answered `:status 200` (in HTTP/2, the tunnel opened: RFC
  // 9113 section 8.5) with the text as its body.
  it('answers CONNECT 400 in the error body, not a 200 carrying HTTP/1.1 text', async () => {
    const session = await h2Session(server());
    const answer = await exchange(session, { ':method': 'CONNECT', ':authority': 'evil.example:443', origin: ORIGIN });
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).not.toContain('HTTP/1.1');
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringContaining('CONNECT evil.example:443') });
  });

  it('answers an Expect other than 100-continue 417 in the error body with CORS, and serves the relay', async () => {
    const session = await h2Session(server());
    const unmet = await exchange(session, { ':method': 'POST', ':path': `/campaign${RELAY_ROUTES.playtime}`, expect: 'x-unknown', origin: ORIGIN });
    expect([unmet.status, unmet.headers['access-control-allow-origin']]).toEqual([417, ORIGIN]);
    expect(JSON.parse(unmet.body)).toMatchObject({ status: 417, code: 'BAD_REQUEST' });
    const served = await exchange(session, { ':method': 'POST', ':path': `/campaign${RELAY_ROUTES.playtime}`, origin: ORIGIN });
    // The relay's own answer (no key, no body): not node:http2's, not the 417.
    expect(JSON.parse(served.body)).toMatchObject({ status: served.status, code: expect.any(String) });
    expect(served.status).not.toBe(417);
  });
});

// p34: NodeHandler was typed for node:http only, so `http2.createServer(toNodeHandler(relay))` or a webhook middleware
// there did not compile without a cast, though @hono/node-server serves node:http2's compatibility requests.
describe('webhookMiddleware on a node:http2 server', () => {
  it('verifies a delivery and emits its event', async () => {
    const middleware = webhookMiddleware({ secret: SECRET });
    const events: string[] = [];
    middleware.on('event', (event) => void events.push(event.id));
    const session = await h2Session(http2.createServer(middleware));
    const payload = JSON.stringify(couponRedeemed());
    const answer = await exchange(session, { ':method': 'POST', ':path': '/webhooks/campaign', 'content-type': 'application/json', ...signWebhook({ payload, secret: SECRET, id: 'msg_h2' }).headers }, payload);
    expect(answer.status).toBe(204);
    expect(events).toEqual(['evt_coupon_1']);
  });
});

// p41: answers that close the connection over HTTP/1.1 (toNodeHandler's 400 for a request @hono/node-server cannot read,
// the relay's 408 for a late body) carried `Connection: close` over HTTP/2 too, where a connection-specific field has no
// place (RFC 9113 section 8.2.2): node:http2 dropped it and printed an UnsupportedWarning in the game server's log, once
// per process (lib/internal/http2/compat.js `connectionHeaderMessageWarn`), which named nothing of ours. In a child
// process (fixtures/http2-warnings.ts): the test's own process may have warned before.
describe('toNodeHandler on a node:http2 server: no process warning', () => {
  const run = async (kind: string) => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'test/adapters/node/fixtures/http2-warnings.ts', kind], { cwd: process.cwd() });
    return JSON.parse(stdout) as { status: number; warnings: string[] };
  };

  it.each([
    ['unreadable', 400],
    ['slow-body', 408],
  ])('%s: answered %i, without an UnsupportedWarning', async (kind, status) => {
    expect(await run(kind)).toEqual({ status, warnings: [] });
  });
});
