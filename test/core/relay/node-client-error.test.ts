/**
 * Behind `toNodeHandler`, a request node:http's own parser refuses (headers over 16 KiB, a `Content-Length` given
 * twice) is answered in the spec's error body and, for the relay's path and an origin its `cors` allows, with the
 * relay's CORS headers. Before, node:http's default (`_http_server.js` `socketOnError`) answered an empty 400 or 431
 * without CORS: a client read no code or message, and a portal page's browser hid the answer ("Failed to fetch").
 * Real node:http servers and raw sockets.
 */
import { createServer, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createNodeServer, toNodeHandler, webhookMiddleware } from '../../../adapters/node/index.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { relayOverFakeService } from './fake-service.js';
import { loopbackServers } from '../../helpers/loopback-servers.js';

const ORIGIN = 'https://game.portal-cdn.example';
const listen = loopbackServers();

/** Sends `text` as it is on a new connection and reads the whole answer until the server closes. */
function rawExchange(port: number, text: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

/** A POST to the relay's playtime route whose headers are over node:http's 16 KiB, its Origin first. */
const oversized = (origin: string, path = `/campaign${RELAY_ROUTES.playtime}`) =>
  `POST ${path} HTTP/1.1\r\nHost: relay.example\r\nOrigin: ${origin}\r\nContent-Type: application/json\r\nAuthorization: Bearer ${'x'.repeat(20_000)}\r\n\r\n`;

describe('toNodeHandler: requests node:http refuses', () => {
  it('answers headers over 16 KiB 431 in the error body with the CORS headers of an allowed origin (listener added by hand, before any request)', async () => {
    const handler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const port = await listen(createServer(handler).on('clientError', handler.clientError));
    const answer = await rawExchange(port, oversized(ORIGIN));
    expect(answer.status).toBe(431);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(answer.headers['access-control-expose-headers']).toBe('retry-after');
    expect(answer.headers.vary).toBe('Origin');
    expect(JSON.parse(answer.body)).toEqual({
      status: 431,
      error: 'Request Header Fields Too Large',
      code: 'BAD_REQUEST',
      message: 'The request is not valid HTTP (HPE_HEADER_OVERFLOW)',
    });
  });

  it('adds its listener to the server at the first request it serves', async () => {
    const service = relayOverFakeService({ cors: { origins: [ORIGIN] } });
    const server = createServer(toNodeHandler(service.relay));
    const port = await listen(server);
    expect(server.listenerCount('clientError')).toBe(0);
    const first = await fetch(`http://127.0.0.1:${port}/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(first.status).toBe(401);
    expect(server.listenerCount('clientError')).toBe(1);
    const answer = await rawExchange(port, oversized(ORIGIN));
    expect(answer.status).toBe(431);
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  it('gives an origin the relay does not allow, a path outside the relay, or a relay without cors no CORS header, and still the error body', async () => {
    const handler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const port = await listen(createServer(handler).on('clientError', handler.clientError));
    const other = await rawExchange(port, oversized('https://evil.example'));
    expect(other.status).toBe(431);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(other.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
    const outside = await rawExchange(port, oversized(ORIGIN, '/admin/login'));
    expect(outside.status).toBe(431);
    expect(outside.headers['access-control-allow-origin']).toBeUndefined();

    const plain = toNodeHandler(relayOverFakeService().relay);
    const plainPort = await listen(createServer(plain).on('clientError', plain.clientError));
    const noCors = await rawExchange(plainPort, oversized(ORIGIN));
    expect(noCors.status).toBe(431);
    expect(noCors.headers['access-control-allow-origin']).toBeUndefined();
    expect(JSON.parse(noCors.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  // p38: the path node:http refused is read decoded, as the router and the preflight read it.
  it('gives the CORS headers under a base path the request line percent-encodes (/café)', async () => {
    const port = await listen(createNodeServer(relayOverFakeService({ basePath: '/café', cors: { origins: [ORIGIN] } }).relay));
    const answer = await rawExchange(port, oversized(ORIGIN, `/caf%C3%A9${RELAY_ROUTES.playtime}`));
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([431, ORIGIN]);
  });

  // Found in Chromium (test/browser/relay-raw-errors-cors.test.ts): a browser reuses the connection of its earlier
  // requests and sends `Origin` after the headers the page set. Before, a kept-alive socket was closed unanswered (node's
  // own socketOnError answers unless a response is under way) and only the first 16 KiB were searched for `Origin`.
  it('answers on a kept-alive connection, with CORS for an Origin sent after the oversized header', async () => {
    const handler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const port = await listen(createServer(handler).on('clientError', handler.clientError));
    const path = `/campaign${RELAY_ROUTES.playtime}`;
    const first = `POST ${path} HTTP/1.1\r\nHost: relay.example\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`;
    const second = `POST ${path} HTTP/1.1\r\nHost: relay.example\r\nAuthorization: Bearer ${'x'.repeat(20_000)}\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\n\r\n`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(first));
      let text = '';
      socket.on('data', (chunk: Buffer) => {
        const had = text;
        text += chunk.toString('utf8');
        if (!had.includes('UNAUTHORIZED') && text.includes('UNAUTHORIZED')) socket.write(second);
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    const answers = answer.split(/(?=HTTP\/1\.1 )/);
    expect(answers.map((one) => one.split('\r\n')[0])).toEqual(['HTTP/1.1 401 Unauthorized', 'HTTP/1.1 431 Request Header Fields Too Large']);
    expect(answers[1]).toContain(`access-control-allow-origin: ${ORIGIN}\r\n`);
    expect(JSON.parse(answers[1]!.split('\r\n\r\n')[1]!)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  // node:http's parser reads a plain socket's handle itself (`_http_server.js` `parser.consume`), so the bytes it refuses
  // (`error.rawPacket`) are those of its last read alone: a request line that came in an earlier read (a browser's
  // headers over a real network arrive a few TCP segments at a time) was not in them, and the 431 had no CORS headers.
  it.each([
    ['before', 'Origin first, in the read with the request line'],
    ['after', 'Origin after the oversized header, in the refused read'],
  ])('answers 431 with CORS when the request line came in an earlier read than the oversized header (Origin %s it)', async (where) => {
    const handler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const server = createServer(handler);
    const accepted: Socket[] = [];
    server.on('connection', (socket: Socket) => accepted.push(socket)); // a `connection` listener reads nothing itself
    const port = await listen(server);
    const origin = `Origin: ${ORIGIN}\r\n`;
    const start = `POST /campaign${RELAY_ROUTES.playtime} HTTP/1.1\r\nHost: relay.example\r\n${where === 'before' ? origin : ''}`;
    const rest = `Authorization: Bearer ${'x'.repeat(20_000)}\r\n${where === 'after' ? origin : ''}Content-Type: application/json\r\n\r\n`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(start);
        // The rest once the server's socket has read the start (its handle's count), so the two are two reads.
        const sendRest = () => (accepted[0] && accepted[0].bytesRead >= start.length ? socket.write(rest) : setTimeout(sendRest, 5));
        sendRest();
      });
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
    });
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(answer).toContain(`access-control-allow-origin: ${ORIGIN}\r\n`);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  it('answers a malformed request (Content-Length given twice) 400 BAD_REQUEST in the error body', async () => {
    const handler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const port = await listen(createServer(handler).on('clientError', handler.clientError));
    const answer = await rawExchange(
      port,
      `POST /campaign${RELAY_ROUTES.playtime} HTTP/1.1\r\nHost: relay.example\r\nOrigin: ${ORIGIN}\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`,
    );
    expect(answer.status).toBe(400);
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(JSON.parse(answer.body)).toEqual({ status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: expect.stringMatching(/^The request is not valid HTTP \(HPE_/) });
  });

  // node:http's own socketOnError writes its answer and destroys the socket; ending it only (a FIN) left a server
  // socket open for as long as a client that keeps its side open wished (node:http servers are allowHalfOpen), up to the
  // server's headersTimeout/requestTimeout: a hostile client could hold one per malformed request.
  it('closes the socket after answering, even when the client keeps its side open', async () => {
    const handler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const server = createServer(handler).on('clientError', handler.clientError);
    const port = await listen(server);
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () => socket.write(oversized(ORIGIN)));
    let answer = '';
    const ended = new Promise<void>((resolve) => socket.on('end', resolve));
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    try {
      await ended;
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 431 Request Header Fields Too Large');
      await expect.poll(() => new Promise<number>((resolve) => server.getConnections((_, count) => resolve(count)))).toBe(0);
    } finally {
      socket.destroy();
    }
  });

  // One server with two handlers (an Express app with the webhook middleware and the relay): the listener added was the
  // handler's that served first, so when a webhook delivery came first the relay's refusals had no CORS again.
  it("answers with the relay's CORS on a server whose first request another handler (the webhook middleware) served", async () => {
    const relayHandler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const webhooks = webhookMiddleware({ secret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}` });
    const server = createServer((req, res) => void (req.url!.startsWith('/webhooks') ? webhooks(req, res) : relayHandler(req, res)));
    const port = await listen(server);
    await fetch(`http://127.0.0.1:${port}/webhooks`, { method: 'POST', body: '{}' });
    await fetch(`http://127.0.0.1:${port}/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const answer = await rawExchange(port, oversized(ORIGIN));
    expect(answer.status).toBe(431);
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(server.listenerCount('clientError')).toBe(1);
  });

  it("leaves a server with a clientError listener of its own alone, and gives the webhook middleware the same listener", async () => {
    const handler = toNodeHandler(relayOverFakeService().relay);
    const own = () => undefined;
    const server = createServer(handler).on('clientError', own);
    const port = await listen(server);
    await fetch(`http://127.0.0.1:${port}/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(server.listeners('clientError')).toEqual([own]);

    const webhooks = webhookMiddleware({ secret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}` });
    const hookPort = await listen(createServer(webhooks).on('clientError', webhooks.clientError));
    const answer = await rawExchange(hookPort, oversized(ORIGIN, '/webhooks'));
    expect(answer.status).toBe(431);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  // The recorded limit: a parser error before the handler's first request got node:http's empty answer.
  it('a server from createNodeServer answers the very first request node:http refuses in the error body with CORS', async () => {
    const port = await listen(createNodeServer(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay));
    const answer = await rawExchange(port, oversized(ORIGIN));
    expect(answer.status).toBe(431);
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST', message: 'The request is not valid HTTP (HPE_HEADER_OVERFLOW)' });
  });

  it('createNodeServer passes node:http options on and serves the handler', async () => {
    const server = createNodeServer(relayOverFakeService().relay, { maxHeaderSize: 1024 });
    const port = await listen(server);
    const small = await fetch(`http://127.0.0.1:${port}/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(small.status).toBe(401);
    // 2 KiB of headers: over the 1 KiB given, under node:http's default 16 KiB.
    const answer = await rawExchange(port, `POST /campaign${RELAY_ROUTES.playtime} HTTP/1.1\r\nHost: relay.example\r\nAuthorization: Bearer ${'x'.repeat(2048)}\r\n\r\n`);
    expect([answer.status, JSON.parse(answer.body).code]).toEqual([431, 'BAD_REQUEST']);
    expect(server.listenerCount('clientError')).toBe(1);
    expect(() => createNodeServer((() => undefined) as never)).toThrow(TypeError);
  });

  it('attach(server) answers from the first request on any server (https, Express), once, and not over a listener of its own', async () => {
    const handler = toNodeHandler(relayOverFakeService({ cors: { origins: [ORIGIN] } }).relay);
    const server = handler.attach(createServer(handler));
    expect(handler.attach(server)).toBe(server);
    expect(server.listenerCount('clientError')).toBe(1);
    const port = await listen(server);
    const answer = await rawExchange(port, oversized(ORIGIN));
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([431, ORIGIN]);

    const own = () => undefined;
    const mine = createServer(handler).on('clientError', own);
    handler.attach(mine);
    expect(mine.listeners('clientError')).toEqual([own]);
    const webhooks = webhookMiddleware({ secret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}` });
    const hooks = webhooks.attach(createServer(webhooks));
    expect(hooks.listenerCount('clientError')).toBe(1);
  });
});

describe('toNodeHandler: an unmet Expect and CONNECT (node:http answers them before any handler)', () => {
  /** The relay's playtime POST with `Expect: x-unknown` and a body that must not be read as a second request. */
  const unmet = (path = `/campaign${RELAY_ROUTES.playtime}`) => {
    const body = 'GET /campaign/smuggled HTTP/1.1\r\nHost: relay.example\r\n\r\n';
    return `POST ${path} HTTP/1.1\r\nHost: relay.example\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nExpect: x-unknown\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };

  it('answers an Expect other than 100-continue 417 in the error body with the CORS headers, and closes (createNodeServer)', async () => {
    const port = await listen(createNodeServer(relayOverFakeService({ basePath: '/campaign', cors: { origins: [ORIGIN] } }).relay));
    const answer = await rawExchange(port, unmet());
    expect(answer.status).toBe(417);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers.connection).toBe('close');
    expect(answer.headers['access-control-allow-origin']).toBe(ORIGIN);
    // One answer only: the body sent after the refused head was not read as a request of its own.
    expect(answer.body.match(/HTTP\/1\.1/g)).toBeNull();
    expect(JSON.parse(answer.body)).toMatchObject({ status: 417, code: 'BAD_REQUEST', message: expect.stringContaining('x-unknown') });
  });

  it('answers CONNECT 400 in the error body rather than dropping the connection (createNodeServer)', async () => {
    const port = await listen(createNodeServer(relayOverFakeService({ basePath: '/campaign' }).relay));
    const answer = await rawExchange(port, 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringContaining('CONNECT') });
  });
});

// The recorded limit (p32): `http.createServer(toNodeHandler(relay))`, a server the SDK is not handed, added these
// listeners at the first request it served, so the very first request an unmet Expect, a CONNECT or headers over 16 KiB
// got node:http's own answer (an empty 417 with the connection kept, a dropped socket, an empty 431 without CORS).
describe('toNodeHandler as the request listener of a server it is not given: the very first request', () => {
  const unmet = () => {
    const body = 'GET /campaign/smuggled HTTP/1.1\r\nHost: relay.example\r\n\r\n';
    return `POST /campaign${RELAY_ROUTES.playtime} HTTP/1.1\r\nHost: relay.example\r\nOrigin: ${ORIGIN}\r\nContent-Type: application/json\r\nExpect: x-unknown\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
  };
  const plainServer = () => createServer(toNodeHandler(relayOverFakeService({ basePath: '/campaign', cors: { origins: [ORIGIN] } }).relay));

  it('answers an unmet Expect 417 in the error body with CORS, and closes', async () => {
    const answer = await rawExchange(await listen(plainServer()), unmet());
    expect([answer.status, answer.headers['content-type'], answer.headers.connection, answer.headers['access-control-allow-origin']]).toEqual([417, 'application/json', 'close', ORIGIN]);
    expect(answer.body.match(/HTTP\/1\.1/g)).toBeNull();
    expect(JSON.parse(answer.body)).toMatchObject({ status: 417, code: 'BAD_REQUEST', message: expect.stringContaining('x-unknown') });
  });

  it('answers CONNECT 400 in the error body', async () => {
    const answer = await rawExchange(await listen(plainServer()), 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringContaining('CONNECT') });
  });

  it('answers headers over 16 KiB 431 in the error body with CORS', async () => {
    const answer = await rawExchange(await listen(plainServer()), oversized(ORIGIN));
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([431, ORIGIN]);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  it('answers CONNECT 400 in the error body on a server whose request listener is the webhook middleware', async () => {
    const webhooks = webhookMiddleware({ secret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}` });
    const answer = await rawExchange(await listen(createServer(webhooks)), 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n');
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringContaining('CONNECT') });
  });

  it('leaves a server whose request listener is not the handler (a wrapper, as Express is) and its own listeners alone', async () => {
    const handler = toNodeHandler(relayOverFakeService().relay);
    const wrapped = createServer((req, res) => void handler(req, res));
    const own = () => undefined;
    const mine = createServer(handler).on('connect', own);
    await rawExchange(await listen(wrapped), 'CONNECT 127.0.0.1:443 HTTP/1.1\r\nHost: 127.0.0.1:443\r\n\r\n').catch(() => undefined);
    expect(wrapped.listenerCount('connect')).toBe(0);
    const port = await listen(mine);
    await fetch(`http://127.0.0.1:${port}/campaign${RELAY_ROUTES.playtime}`, { method: 'POST', body: '{}' });
    expect(mine.listeners('connect')).toEqual([own]);
    expect(mine.listenerCount('checkExpectation')).toBe(1);
  });
});

// p38, found probing the relay with raw sockets: node:http answers an HTTP/1.1 request without `Host` itself
// (`requireHostHeader`, `_http_server.js` `parserOnIncoming`) with an empty 400, before any listener sees it.
describe('toNodeHandler: an HTTP/1.1 request without Host', () => {
  const noHost = () => {
    const body = '{"sessions":[]}';
    return `POST /campaign${RELAY_ROUTES.playtime} HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
  };
  const relay = () => relayOverFakeService({ basePath: '/campaign' }).relay;
  const expectErrorBody400 = (answer: { status: number; headers: Record<string, string>; body: string }) => {
    expect([answer.status, answer.headers['content-type']]).toEqual([400, 'application/json; charset=utf-8']);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringContaining('host') });
  };

  it('is answered 400 in the error body by createNodeServer', async () => {
    expectErrorBody400(await rawExchange(await listen(createNodeServer(relay())), noHost()));
  });

  it('is answered 400 in the error body by a server whose request listener is the handler or the webhook middleware', async () => {
    expectErrorBody400(await rawExchange(await listen(createServer(toNodeHandler(relay()))), noHost()));
    const webhooks = webhookMiddleware({ secret: `whsec_${Buffer.from('0123456789abcdef0123456789abcdef').toString('base64')}` });
    expectErrorBody400(await rawExchange(await listen(createServer(webhooks)), noHost()));
  });

  it("keeps node:http's own answer where asked (createNodeServer's requireHostHeader) or where other listeners serve too", async () => {
    /** node:http's own flag (Node's types do not declare it). */
    const requiresHost = (server: Server) => (server as Server & { requireHostHeader?: boolean }).requireHostHeader;
    expect(requiresHost(createNodeServer(relay(), { requireHostHeader: true }))).toBe(true);
    const handler = toNodeHandler(relay());
    const wrapped = createServer((req, res) => void handler(req, res));
    const answer = await rawExchange(await listen(wrapped), noHost());
    expect([answer.status, answer.headers['content-type']]).toEqual([400, undefined]);
    expect(requiresHost(wrapped)).toBe(true);
  });
});

// p32, found trickling a request's headers at createNodeServer(relay): node:http's own time-outs (Node 20: 60 s, checked
// every 30 s) held such a connection 90 s, where a body trickled the same way is cut at the relay's 10 s.
describe('createNodeServer: a client trickling its headers', () => {
  it('has a 10 s header time-out unless given, within a requestTimeout given, and keeps the options given', () => {
    const relay = relayOverFakeService().relay;
    const plain = createNodeServer(relay);
    expect([plain.headersTimeout, plain.requestTimeout]).toEqual([10_000, 300_000]);
    expect(createNodeServer(relay, { requestTimeout: 4_000 }).headersTimeout).toBe(4_000);
    expect(createNodeServer(relay, { headersTimeout: 20_000 }).headersTimeout).toBe(20_000);
  });

  // p34, reviewing withTimeouts: options spread as given, so a config's unset field (`headersTimeout: undefined`)
  // replaced the 10 s default with node:http's 60 s; `null` (which node:http takes as no options) threw a TypeError.
  it('takes an option set to undefined, and null options, as not given', () => {
    const relay = relayOverFakeService().relay;
    const unset = createNodeServer(relay, { headersTimeout: undefined, requestTimeout: undefined, connectionsCheckingInterval: undefined });
    expect([unset.headersTimeout, unset.requestTimeout]).toEqual([10_000, 300_000]);
    expect(createNodeServer(relay, { headersTimeout: undefined, requestTimeout: 4_000 }).headersTimeout).toBe(4_000);
    expect(createNodeServer(relay, null as never).headersTimeout).toBe(10_000); // from JavaScript
  });

  it('answers 408 in the error body once the header time-out has passed, not at node:http\'s 30 s check', async () => {
    const port = await listen(createNodeServer(relayOverFakeService().relay, { headersTimeout: 300, requestTimeout: 600 }));
    const answer = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(`POST /campaign${RELAY_ROUTES.playtime} HTTP/1.1\r\n`));
      const trickle = setInterval(() => socket.writable && socket.write('x-line: 1\r\n'), 100);
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(trickle);
        resolve(text);
      });
    });
    expect(answer.startsWith('HTTP/1.1 408 ')).toBe(true);
    expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toMatchObject({ status: 408, code: 'BAD_REQUEST' });
  }, 15_000);
});
