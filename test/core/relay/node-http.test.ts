import { createServer, request as httpRequest, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { relayOverFakeService, sessions } from './fake-service.js';

const service = relayOverFakeService({ maxBodyBytes: 4096, coalesceWindowMs: 0 });
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(toNodeHandler(service.relay));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/campaign`;
});

afterAll(async () => {
  await new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
});

/** A raw node:http request with a chunked body (no content-length). */
function sendChunked(path: string, chunks: string[]): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(`${base}${path}`);
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { authorization: 'Bearer user:alice', 'content-type': 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    req.end();
  });
}

describe('the relay over node:http (toNodeHandler)', () => {
  it('records playtime through a real HTTP request', async () => {
    const response = await fetch(`${base}${RELAY_ROUTES.playtime}`, {
      method: 'POST',
      headers: { authorization: 'Bearer user:alice', 'content-type': 'application/json' },
      body: JSON.stringify({ sessions: sessions('alice', 2) }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({
      data: {
        totalRequested: 2,
        successful: 2,
        failed: 0,
        skipped: 0,
        results: [
          { sessionId: 's-alice-0', status: 'SUCCESS' },
          { sessionId: 's-alice-1', status: 'SUCCESS' },
        ],
      },
    });
    expect(service.bulkCalls().map((c) => c.body)).toEqual([{ sessions: sessions('alice', 2) }]);
  });

  it('answers 401 with the error body when authentication fails', async () => {
    const response = await fetch(`${base}${RELAY_ROUTES.sponsor}`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ status: 401, error: 'Unauthorized', message: 'Authentication failed', code: 'UNAUTHORIZED' });
  });

  it('caps a chunked body without content-length at maxBodyBytes', async () => {
    const body = JSON.stringify({ sessions: sessions('alice', 60) });
    expect(body.length).toBeGreaterThan(4096);
    const before = service.fake.calls.length;
    const answer = await sendChunked(RELAY_ROUTES.playtime, [body.slice(0, 2000), body.slice(2000, 4000), body.slice(4000)]);
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ status: 413, error: 'Payload Too Large', code: 'BAD_REQUEST', message: "The body exceeds the relay's limit of 4096 bytes" });
    expect(service.fake.calls.length).toBe(before);
  });

  it('answers 404 outside the relay routes', async () => {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/elsewhere`);
    expect(response.status).toBe(404);
    expect((await response.json()).code).toBe('NOT_FOUND');
  });
});

/** Writes `text` on a new socket to 127.0.0.1:`port` and resolves with everything answered until the socket closes. */
function rawExchange(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('the relay over node:http: a Content-Type line sent twice', () => {
  // @hono/node-server appends each raw header line, so the relay reads `application/json, application/json`.
  const send = (second: string) => {
    const body = JSON.stringify({ sessions: sessions('ct-twice', 1) });
    return rawExchange(
      (server.address() as AddressInfo).port,
      `POST /campaign${RELAY_ROUTES.playtime} HTTP/1.1\r\nHost: relay.test\r\nAuthorization: Bearer user:ct-twice\r\nContent-Type: application/json\r\nContent-Type: ${second}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  };

  it('forwards the batch when both lines say application/json, and refuses two different types', async () => {
    const before = service.fake.calls.length;
    expect(await send('application/json')).toMatch(/^HTTP\/1\.1 200 /);
    expect(service.fake.calls.length).toBe(before + 1);
    expect(await send('text/plain')).toMatch(/^HTTP\/1\.1 400 [\s\S]*sent more than once with different values/);
    expect(service.fake.calls.length).toBe(before + 1);
  });
});

// @hono/node-server answers a request it cannot turn into a Fetch Request with an empty 400 unless given an
// errorHandler (getRequestListener: handleRequestError), and a handler's failure with an empty 500 or a text/plain
// 500 carrying the error's message (handleResponseError). Written on a raw socket, as a hostile client sends them.
describe('toNodeHandler: requests that never reach the handler, and a handler that fails', () => {
  it.each([
    ['a Host that is not a host name', 'GET /campaign/playtime/sessions HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n', 'Invalid URL'],
  ])('answers %s with 400 and the spec\'s error body, and nothing reaches the service', async (_, request, named) => {
    const before = service.fake.calls.length;
    const answer = await rawExchange((server.address() as AddressInfo).port, request);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head.toLowerCase()).toContain('content-type: application/json');
    expect(JSON.parse(body)).toEqual({ status: 400, error: 'Bad Request', message: `The request cannot be read: ${named}`, code: 'BAD_REQUEST' });
    expect(service.fake.calls.length).toBe(before);
  });

  // p50: @hono/node-server refused `OPTIONS *` (400 "Invalid URL"); Deno hands a handler `http://host/*` for it and
  // workerd a URL ending in `*`, where the relay has no route: 404 NOT_FOUND now on Node too.
  it('hands OPTIONS * to the handler as `/*`, as Deno does: the relay answers 404 NOT_FOUND, nothing reaches the service', async () => {
    const before = service.fake.calls.length;
    const answer = await rawExchange((server.address() as AddressInfo).port, 'OPTIONS * HTTP/1.1\r\nHost: relay.test\r\nConnection: close\r\n\r\n');
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect([head.split(' ')[1], (JSON.parse(body) as { code: string; message: string })]).toEqual(['404', expect.objectContaining({ code: 'NOT_FOUND', message: expect.stringMatching(/^No relay route OPTIONS \/\*/) })]);
    expect(service.fake.calls.length).toBe(before);
  });

  // p49: @hono/node-server refused a backslash in the path (400 "Backslash in request path") where Bun, Deno and workerd
  // read it as `/` (the WHATWG URL parser; the relay routes their raw URLs so): one request, one answer everywhere.
  it('reads a backslash in the path as `/`, as the other runtimes do: the route it names is served, one climbing out of the base is a 404', async () => {
    const before = service.fake.calls.length;
    const post = (target: string) =>
      rawExchange(
        (server.address() as AddressInfo).port,
        `POST ${target} HTTP/1.1\r\nHost: relay.test\r\nAuthorization: Bearer user:alice\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`,
      );
    const read = (answer: string) => {
      const [head = '', body = ''] = answer.split('\r\n\r\n');
      const parsed = JSON.parse(body) as { code: string; message: string };
      return [Number(head.split(' ')[1]), parsed.code, parsed.message];
    };
    expect([read(await post('/campaign\\playtime\\sessions')), read(await post('/campaign\\..\\sponsor?a=\\'))]).toEqual([
      [400, 'VALIDATION_ERROR', 'Invalid request: sessions is required'],
      [404, 'NOT_FOUND', "No relay route POST /sponsor: the relay's routes are under /campaign (end the client's relay.url with it, or set createRelay's basePath)"],
    ]);
    expect(service.fake.calls.length).toBe(before);
  });

  it('answers a handler that throws or rejects with 500 INTERNAL_ERROR in the spec\'s error body, without its message', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failing = createServer(
      toNodeHandler({
        fetch: (request) => {
          if (new URL(request.url).pathname === '/throws') throw new Error('secret detail');
          return Promise.reject(new Error('secret detail'));
        },
      }),
    );
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    try {
      for (const path of ['/throws', '/rejects']) {
        const response = await fetch(`http://127.0.0.1:${(failing.address() as AddressInfo).port}${path}`);
        expect(response.status).toBe(500);
        const text = await response.text();
        expect(text).not.toContain('secret detail');
        expect(JSON.parse(text)).toEqual({ status: 500, error: 'Internal Server Error', message: 'The handler failed to answer the request', code: 'INTERNAL_ERROR' });
      }
      expect(errors).toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      await new Promise<void>((resolve) => failing.close(() => resolve()));
    }
  });
});

describe('the relay behind a body parser (express.json() before it)', () => {
  it.each([
    ['the parsed req.body', 'bob', (raw: string) => ({ body: JSON.parse(raw) as unknown })],
    ['a string req.rawBody kept by a verify hook', 'carol', (raw: string) => ({ body: JSON.parse(raw) as unknown, rawBody: raw })],
    // p34: @hono/node-server takes rawBody only as a Buffer; these were answered 400 "The body could not be read".
    ['a Uint8Array req.rawBody kept by a verify hook', 'gina', (raw: string) => ({ body: JSON.parse(raw) as unknown, rawBody: new Uint8Array(Buffer.from(raw)) })],
    ['the parsed req.body beside a req.rawBody of null', 'hugo', (raw: string) => ({ body: JSON.parse(raw) as unknown, rawBody: null })],
  ])('takes %s as the body: the sessions are recorded, not refused as empty', async (_, user, leftByParser) => {
    const behindParser = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      Object.assign(req, leftByParser(Buffer.concat(chunks).toString('utf8'))); // what the parser leaves
      await toNodeHandler(service.relay)(req, res);
    });
    await new Promise<void>((resolve) => behindParser.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(behindParser.address() as AddressInfo).port}/campaign${RELAY_ROUTES.playtime}`;
      const response = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer user:${user}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sessions: sessions(user, 1) }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { data: { results: unknown[] } }).data.results).toEqual([{ sessionId: `s-${user}-0`, status: 'SUCCESS' }]);
    } finally {
      await new Promise<void>((resolve) => behindParser.close(() => resolve()));
    }
  });
});

// p32, found probing the relay behind a parser: what a parser left that JSON.stringify cannot write back threw in the
// handler (no answer; under Express 4, which drops a middleware's promise, an unhandled rejection ends the process),
// and a number the parser read as Infinity (`1e400`) was written back as null and forwarded as the player's.
describe('the relay behind a body parser: a parsed body that does not write back as it came', () => {
  /** A server that parses the body as express.json() does and calls the handler as Express 4 does (its promise dropped). */
  async function behindParser(parse: (raw: string) => unknown): Promise<{ url: string; close(): Promise<void>; rejections: unknown[] }> {
    const handler = toNodeHandler(service.relay);
    const rejections: unknown[] = [];
    const server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      Object.assign(req, { body: parse(Buffer.concat(chunks).toString('utf8')) });
      handler(req, res).catch((error: unknown) => {
        rejections.push(error);
        res.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/campaign${RELAY_ROUTES.playtime}`,
      close: () => new Promise<void>((resolve) => server.close(() => resolve())),
      rejections,
    };
  }
  const post = (url: string, body: string) =>
    fetch(url, { method: 'POST', headers: { authorization: 'Bearer user:dora', 'content-type': 'application/json' }, body }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('answers a body nested deeper than JSON.stringify goes 400 VALIDATION_ERROR, the handler not failing', async () => {
    const parser = await behindParser((raw) => JSON.parse(raw));
    try {
      const depth = 50_000; // 100,000 bytes: under express.json()'s 100 KB; JSON.stringify gives up after a few thousand
      const answer = await post(parser.url, `{"sessions":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      expect(answer).toEqual({ status: 400, body: expect.objectContaining({ code: 'VALIDATION_ERROR', details: [{ path: '(body)', message: expect.stringContaining('nested deeper') }] }) });
      expect(parser.rejections).toEqual([]);
    } finally {
      await parser.close();
    }
  });

  it('answers a BigInt a parser kept 400 BAD_REQUEST', async () => {
    const parser = await behindParser((raw) => ({ ...(JSON.parse(raw) as object), big: 10n ** 30n }));
    try {
      const answer = await post(parser.url, JSON.stringify({ sessions: sessions('dora', 1) }));
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ status: 400, code: 'BAD_REQUEST', message: expect.stringContaining('cannot be written back as JSON') });
      expect(parser.rejections).toEqual([]);
    } finally {
      await parser.close();
    }
  });

  // p34, reviewing parsedBodyText with what a parser or a game server's own middleware may leave: a value JSON.stringify
  // writes as nothing threw at `text.includes` (no answer, an unhandled rejection under Express 4); a thrown value with
  // no message or toString threw again in the catch; a getter's own error message went to the player; bytes in a
  // Uint8Array were written as `{"0":123,...}` and refused.
  it.each([
    ['an object whose toJSON gives undefined', () => ({ toJSON: () => undefined }), 'toJSON gives nothing'],
    ['a function', () => () => undefined, 'a function'],
    ['a getter throwing a null-prototype object', () => Object.defineProperty({}, 'sessions', { enumerable: true, get: () => { throw Object.create(null); } }), 'reading it threw'],
    ['a getter throwing an Error of its own', () => Object.defineProperty({}, 'sessions', { enumerable: true, get: () => { throw new Error('db password hunter2'); } }), 'reading it threw'],
  ])('answers %s 400 BAD_REQUEST, the handler not failing, nothing of the server\'s error sent', async (_, parse, says) => {
    const parser = await behindParser(parse);
    try {
      const answer = await post(parser.url, JSON.stringify({ sessions: sessions('dora', 1) }));
      expect(answer).toEqual({ status: 400, body: expect.objectContaining({ code: 'BAD_REQUEST', message: expect.stringContaining(says) }) });
      expect(JSON.stringify(answer.body)).not.toContain('hunter2');
      expect(parser.rejections).toEqual([]);
    } finally {
      await parser.close();
    }
  });

  it('takes bytes a parser left as a Uint8Array or an ArrayBuffer as the body', async () => {
    for (const parse of [(raw: string) => new Uint8Array(Buffer.from(raw)), (raw: string) => new Uint8Array(Buffer.from(`  ${raw}`)).subarray(2), (raw: string) => new Uint8Array(Buffer.from(raw)).slice().buffer]) {
      const parser = await behindParser(parse);
      try {
        const answer = await post(parser.url, JSON.stringify({ sessions: sessions('dora', 1) }));
        // Forwarded as the player's (the service may answer a repeat SKIPPED), not refused as an object `{"0":123,...}`.
        expect(answer).toMatchObject({ status: 200, body: { data: { results: [{ sessionId: 's-dora-0', status: expect.any(String) }] } } });
      } finally {
        await parser.close();
      }
    }
  });

  it('refuses a number the parser read as Infinity, naming where, as in a body the relay reads itself (not forwarded as null)', async () => {
    const parser = await behindParser((raw) => JSON.parse(raw));
    const calls = service.bulkCalls().length;
    try {
      const body = JSON.stringify({ sessions: sessions('dora', 1, 100) }).replace('"durationSeconds":60', '"durationSeconds":60,"metadata":{"score":1e400,"low":-1e400}');
      const answer = await post(parser.url, body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'sessions.0.metadata.score' }, { path: 'sessions.0.metadata.low' }] });
      expect(service.bulkCalls().length).toBe(calls);
    } finally {
      await parser.close();
    }
  });
});
