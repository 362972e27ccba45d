import { describe, expect, it } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { isJsonContentType } from '../../../core/relay/request-body.js';
import { read, RELAY, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const url = `${RELAY}${RELAY_ROUTES.playtime}`;
const auth = { authorization: 'Bearer user:alice' };

function tooLarge(limit: number) {
  return { status: 413, error: 'Payload Too Large', code: 'BAD_REQUEST', message: `The body exceeds the relay's limit of ${limit} bytes` };
}

/** A body that arrives in chunks with no content-length header. */
function streamed(chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

describe('body cap', () => {
  it('answers 413 when content-length exceeds maxBodyBytes, forwarding nothing', async () => {
    const { relay, fake } = relayOverFakeService({ maxBodyBytes: 1000 });
    const body = JSON.stringify({ sessions: sessions('alice', 20) });
    expect(body.length).toBeGreaterThan(1000);
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice')));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(tooLarge(1000));
    expect(fake.calls).toEqual([]);
  });

  it('counts the bytes that arrive when there is no content-length header', async () => {
    const { relay, fake } = relayOverFakeService({ maxBodyBytes: 1000 });
    const body = JSON.stringify({ sessions: sessions('alice', 20) });
    const request = new Request(url, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: streamed([body.slice(0, 600), body.slice(600)]),
      duplex: 'half',
    } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const answer = await read(await relay.fetch(request));
    expect(answer.status).toBe(413);
    expect(answer.body).toEqual(tooLarge(1000));
    expect(fake.calls).toEqual([]);
  });

  it('does not trust a content-length smaller than the body', async () => {
    const { relay, fake } = relayOverFakeService({ maxBodyBytes: 1000 });
    const body = JSON.stringify({ sessions: sessions('alice', 20) });
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice', { 'content-length': '10' })));
    expect(answer.status).toBe(413);
    expect(fake.calls).toEqual([]);
  });

  it('accepts a body of exactly maxBodyBytes, counted in bytes not characters', async () => {
    const json = JSON.stringify({ sessions: sessions('alice', 1) });
    const padded = json + ' '.repeat(500 - new TextEncoder().encode(json).length);
    const { relay } = relayOverFakeService({ maxBodyBytes: 500, coalesceWindowMs: 0 });
    expect((await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, padded, 'alice'))).status).toBe(200);
    const multibyte = JSON.stringify({ sessions: [{ ...sessions('alice', 1)[0], metadata: { name: '가'.repeat(150) } }] });
    expect(multibyte.length).toBeLessThan(500);
    expect(new TextEncoder().encode(multibyte).length).toBeGreaterThan(500);
    expect((await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, multibyte, 'alice'))).status).toBe(413);
  });

  it('caps at 1 MiB by default', async () => {
    const { relay } = relayOverFakeService();
    const body = JSON.stringify({ sessions: sessions('alice', 1), pad: 'x'.repeat(1024 * 1024) });
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice')));
    expect(answer.body).toEqual(tooLarge(1048576));
  });
});

describe('malformed bodies', () => {
  const badRequest = (message: string) => ({ status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message });

  it.each([
    ['text that is not JSON', 'application/json', '{"sessions": [', 'The body is not valid JSON'],
    ['an empty body', 'application/json', '', 'The body is empty; a JSON object is expected'],
    ['JSON sent as text/plain', 'text/plain', JSON.stringify({ sessions: sessions('alice', 1) }), 'Content-Type must be application/json'],
    ['a form', 'application/x-www-form-urlencoded', 'sessions=1', 'Content-Type must be application/json'],
  ])('answers 400 BAD_REQUEST for %s', async (_, contentType, body, message) => {
    const { relay, fake } = relayOverFakeService();
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice', { 'content-type': contentType })));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual(badRequest(message));
    expect(fake.calls).toEqual([]);
  });

  it('answers 400 when there is no content type at all', async () => {
    const { relay } = relayOverFakeService();
    const request = new Request(url, { method: 'POST', headers: auth, body: new Uint8Array([123, 125]) });
    expect(request.headers.get('content-type')).toBeNull();
    const answer = await read(await relay.fetch(request));
    expect(answer.body).toEqual(badRequest('Content-Type must be application/json'));
  });

  it('answers 400 for bytes that are not UTF-8', async () => {
    const { relay } = relayOverFakeService();
    const request = new Request(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) });
    const answer = await read(await relay.fetch(request));
    expect(answer.body).toEqual(badRequest('The body is not valid UTF-8'));
  });

  it('answers 415 naming the Content-Encoding of a compressed body it cannot read, forwarding nothing', async () => {
    const { relay, fake } = relayOverFakeService();
    const json = new TextEncoder().encode(JSON.stringify({ sessions: sessions('alice', 1) }));
    const gzipped = new Uint8Array(await new Response(new Blob([json]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer());
    const request = new Request(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipped });
    const answer = await read(await relay.fetch(request));
    expect(answer.status).toBe(415);
    expect(answer.body).toEqual({ status: 415, error: 'Unsupported Media Type', code: 'BAD_REQUEST', message: 'Content-Encoding gzip is not supported; send the JSON body uncompressed' });
    expect(fake.calls).toEqual([]);
  });

  it('answers 415 naming a charset other than UTF-8 when the body does not decode', async () => {
    const { relay } = relayOverFakeService();
    const utf16 = new Uint8Array([...'{"s":1}'].flatMap((c) => [c.charCodeAt(0), 0]));
    const request = new Request(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json; charset=UTF-16LE' }, body: utf16 });
    const answer = await read(await relay.fetch(request));
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ code: 'BAD_REQUEST', message: 'charset utf-16le is not supported; send the JSON body as UTF-8' });
  });

  it('reads a body that decodes whatever Content-Encoding is left on it (a proxy that inflated it)', async () => {
    const { relay } = relayOverFakeService({ coalesceWindowMs: 0 });
    const answer = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, JSON.stringify({ sessions: sessions('alice', 1) }), 'alice', { 'content-encoding': 'gzip' }));
    expect(answer.status).toBe(200);
  });

  it('answers 400 when the body stream fails mid-way', async () => {
    const { relay } = relayOverFakeService();
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.error(new Error('connection reset'));
      },
    });
    const request = new Request(url, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body, duplex: 'half' } as RequestInit);
    const answer = await read(await relay.fetch(request));
    expect(answer.body).toEqual(badRequest('The body could not be read'));
  });
});

describe('isJsonContentType', () => {
  it.each([
    ['application/json', true],
    ['application/json; charset=utf-8', true],
    ['Application/JSON', true],
    ['application/vnd.game+json', true],
    ['text/json', false],
    ['application/jsonp', false],
    ['multipart/form-data; boundary=x', false],
    [null, false],
  ])('%s -> %s', (header, expected) => {
    expect(isJsonContentType(header)).toBe(expected);
  });
});
