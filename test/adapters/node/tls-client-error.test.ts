/**
 * `toNodeHandler` behind TLS (`https.createServer(options, handler)`, `http2.createSecureServer({ allowHTTP1: true },
 * handler)` read over HTTP/1.1): a request whose headers are over node:http's 16 KiB is answered 431 in the error body
 * with the relay's CORS headers, as over plain HTTP (test/core/relay/node-client-error.test.ts). Before, the answer had
 * no CORS headers, so a portal page's browser hid it ("Failed to fetch"): TLS hands node:http its bytes a record at a
 * time (at most 16 KiB each, RFC 8446 section 5.1), so the bytes the parser refused (`error.rawPacket`) never began
 * with the request line, and the relay could not tell the request was on its path. Real servers and TLS sockets; the
 * certificate is a self-signed one for 127.0.0.1 (fixtures/localhost.*.pem).
 */
import { readFileSync } from 'node:fs';
import http2 from 'node:http2';
import { createServer } from 'node:http';
import https from 'node:https';
import { connect } from 'node:net';
import tls from 'node:tls';
import { describe, expect, it } from 'vitest';
import { createNodeServer, toNodeHandler } from '../../../adapters/node/index.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { relayOverFakeService } from '../../core/relay/fake-service.js';
import { loopbackServers } from '../../helpers/loopback-servers.js';

const ORIGIN = 'https://game.portal-cdn.example';
const TLS_OPTIONS = { key: readFileSync(new URL('fixtures/localhost.key.pem', import.meta.url)), cert: readFileSync(new URL('fixtures/localhost.cert.pem', import.meta.url)) };
const PLAYTIME = `/campaign${RELAY_ROUTES.playtime}`;
const listen = loopbackServers();

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parse(text: string): Answer {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
  return { status: Number(statusLine.split(' ')[1]), headers, body };
}

/**
 * Sends each of `requests` on one TLS connection (HTTP/1.1 by ALPN, as a browser offers it), the next once an answer
 * to the one before has arrived, and reads the answers until the server closes.
 */
function tlsExchange(port: number, requests: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ port, host: '127.0.0.1', ca: TLS_OPTIONS.cert, servername: 'localhost', ALPNProtocols: ['http/1.1'] }, () => socket.write(requests.shift()!));
    let answers = '';
    socket.on('data', (chunk: Buffer) => {
      answers += chunk.toString('utf8');
      if (requests.length > 0) socket.write(requests.shift()!);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answers));
  });
}

/** A POST to `path` whose headers are over node:http's 16 KiB: `Origin` after the long one, where browsers put it. */
const oversized = (origin: string, path = PLAYTIME) =>
  `POST ${path} HTTP/1.1\r\nHost: relay.example\r\nContent-Type: application/json\r\nAuthorization: Bearer ${'x'.repeat(20_000)}\r\nOrigin: ${origin}\r\n\r\n`;

const relayHandler = () => toNodeHandler(relayOverFakeService({ basePath: '/campaign', cors: { origins: [ORIGIN] } }).relay);

describe('toNodeHandler behind TLS: headers over 16 KiB', () => {
  it('https.createServer: 431 in the error body with the CORS headers of an allowed origin, as over plain HTTP', async () => {
    const port = await listen(https.createServer(TLS_OPTIONS, relayHandler()));
    const answer = parse(await tlsExchange(port, [oversized(ORIGIN)]));
    expect([answer.status, answer.headers['access-control-allow-origin'], answer.headers.vary]).toEqual([431, ORIGIN, 'Origin']);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  it('https.createServer: the same with Origin before the long header, and none for another origin or another path', async () => {
    const port = await listen(https.createServer(TLS_OPTIONS, relayHandler()));
    const first = `POST ${PLAYTIME} HTTP/1.1\r\nHost: relay.example\r\nOrigin: ${ORIGIN}\r\nAuthorization: Bearer ${'x'.repeat(20_000)}\r\n\r\n`;
    expect(parse(await tlsExchange(port, [first])).headers['access-control-allow-origin']).toBe(ORIGIN);
    const other = parse(await tlsExchange(port, [oversized('https://evil.example')]));
    expect([other.status, other.headers['access-control-allow-origin']]).toEqual([431, undefined]);
    const outside = parse(await tlsExchange(port, [oversized(ORIGIN, '/other')]));
    expect([outside.status, outside.headers['access-control-allow-origin']]).toEqual([431, undefined]);
  });

  it('https.createServer: an oversized request after one answered on the same connection (a browser reuses it)', async () => {
    const port = await listen(https.createServer(TLS_OPTIONS, relayHandler()));
    const answers = await tlsExchange(port, [`GET /campaign/nowhere HTTP/1.1\r\nHost: relay.example\r\nOrigin: ${ORIGIN}\r\n\r\n`, oversized(ORIGIN)]);
    const second = parse(answers.slice(answers.indexOf('HTTP/1.1 431')));
    expect([second.status, second.headers['access-control-allow-origin']]).toEqual([431, ORIGIN]);
  });

  it('http2.createSecureServer with allowHTTP1, read over HTTP/1.1: 431 with the CORS headers', async () => {
    const port = await listen(http2.createSecureServer({ ...TLS_OPTIONS, allowHTTP1: true }, relayHandler()));
    const answer = parse(await tlsExchange(port, [oversized(ORIGIN)]));
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([431, ORIGIN]);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, code: 'BAD_REQUEST' });
  });

  it('attach(server) on an https server whose request listener is another (Express): 431 with the CORS headers', async () => {
    const handler = relayHandler();
    const server = handler.attach(https.createServer(TLS_OPTIONS, (req, res) => void handler(req, res)));
    const port = await listen(server);
    const answer = parse(await tlsExchange(port, [oversized(ORIGIN)]));
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([431, ORIGIN]);
  });
});

// Found with the TLS case: the refused bytes' header was read up to the blank line with that line's CRLF cut off, so an
// `Origin` sent last (where browsers send it after the headers a page set) was not found, over plain HTTP too.
describe('toNodeHandler over plain HTTP: headers over 16 KiB with Origin last', () => {
  it('431 with the CORS headers of an allowed origin', async () => {
    const port = await listen(createServer(relayHandler()));
    const text = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => socket.write(oversized(ORIGIN)));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
      socket.on('error', reject);
      socket.on('close', () => resolve(answer));
    });
    const answer = parse(text);
    expect([answer.status, answer.headers['access-control-allow-origin']]).toEqual([431, ORIGIN]);
  });
});

// p41: createNodeServer makes a node:http server, which takes TLS options without a word and serves plain HTTP: a game
// server given `{ key, cert }` (spread from its https config, which TypeScript's excess property check does not see)
// listened on 443 without TLS, and every browser's request failed ("Failed to fetch") with nothing in the server's log.
describe('createNodeServer given TLS options', () => {
  it.each([['key and cert', TLS_OPTIONS], ['pfx', { pfx: Buffer.from('x') }], ['SNICallback', { SNICallback: () => undefined }]])('%s: a TypeError naming https.createServer, not a plain HTTP server', (_, tlsOptions) => {
    const options = { requestTimeout: 30_000, ...tlsOptions };
    expect(() => createNodeServer(relayOverFakeService().relay, options)).toThrow(/serves plain HTTP.*https\.createServer/);
  });

  it('options left undefined (an unset config field) are not TLS options', () => {
    const server = createNodeServer(relayOverFakeService().relay, { key: undefined, cert: undefined } as object);
    expect(server.listening).toBe(false);
  });
});
