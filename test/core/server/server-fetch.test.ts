/**
 * What CampaignServer's fetch guards against: a redirect (fetch would follow it, sending the request elsewhere or
 * turning a POST into a bodiless GET) and a response body without end (read whole into memory before).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../../../core/server/server-fetch.js';
import { ConnectionError, isCampaignError } from '../../../core/http/errors.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { paymentDetail } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';
const REDEEM = { couponCode: 'WELCOME', userId: 'user-1', callbackId: 'order-42' };

type Seen = { method: string | undefined; url: string | undefined; authorization: string | undefined };

const servers: http.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A loopback HTTP server answering with `answer`; every request it saw is in `seen`. */
async function listen(answer: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization });
    req.resume().on('end', () => answer(req, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => expect.unreachable('resolved'),
    (error: Error) => error,
  );
}

describe('CampaignServer and redirects', () => {
  it.each([307, 308])('a %i to another address sends nothing there and names it', async (status) => {
    const elsewhere = await listen((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":{"ott":"theirs","expiresIn":60}}'));
    const service = await listen((req, res) => res.writeHead(status, { location: `${elsewhere.url}${req.url}` }).end());
    const server = new CampaignServer({ serverKey: SERVER_KEY, environment: { baseUrl: service.url }, maxRetries: 0 });

    const error = await rejection(server.webview.createToken({ userId: 'user-1', codeChallenge: 'a'.repeat(43) }));

    expect(elsewhere.seen).toEqual([]);
    expect(service.seen).toHaveLength(1);
    expect(isCampaignError(error)).toBe(true);
    expect(error).toMatchObject({ status, code: 'UNKNOWN' });
    expect(error.message).toBe(
      `The service answered ${status} redirecting to ${elsewhere.url}/v1/server/webview/ott: CampaignServer does not follow redirects ` +
        '(the request would go to another address, or change method). Check the environment (its baseUrl) and any proxy in between.',
    );
  });

  it.each([301, 302, 303])('a %i does not turn a redeem into a GET', async (status) => {
    const service = await listen((req, res) => (req.method === 'POST' ? res.writeHead(status, { location: '/v1/server/coupons/redeem/' }).end() : res.writeHead(404).end()));
    const server = new CampaignServer({ serverKey: SERVER_KEY, environment: { baseUrl: service.url } });

    const error = await rejection(server.coupons.redeem(REDEEM));

    expect(service.seen.map((request) => request.method)).toEqual(['POST']);
    expect(error).toMatchObject({ status, message: expect.stringContaining(`answered ${status} redirecting to /v1/server/coupons/redeem/`) });
  });

  it('a 304 is not taken for a redirect', async () => {
    const service = await listen((_, res) => res.writeHead(304).end());
    const error = await rejection(new CampaignServer({ serverKey: SERVER_KEY, environment: { baseUrl: service.url } }).payments.get('tx-1'));
    expect(error).toMatchObject({ status: 304, message: 'HTTP 304' });
  });
});

describe('CampaignServer and a response body without end', () => {
  /** A 200 whose body sends `chunks` of 1 KiB (Infinity: never ends); `cancelled` once the reader gave up. */
  function stream(chunks: number, headers: Record<string, string> = {}) {
    const state = { sent: 0, cancelled: false };
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (state.sent === 0) controller.enqueue(new TextEncoder().encode('{"data":"'));
        if (state.sent === chunks) {
          controller.enqueue(new TextEncoder().encode('"}'));
          return controller.close();
        }
        state.sent++;
        controller.enqueue(new Uint8Array(1024).fill(0x78));
      },
      cancel() {
        state.cancelled = true;
      },
    });
    return { state, reply: () => new Response(body, { status: 200, headers: { 'content-type': 'application/json', ...headers } }) };
  }

  it('stops reading past maxResponseBytes, as a ConnectionError that says why', async () => {
    const endless = stream(Infinity);
    const fake = createFakeFetch(endless.reply());
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxResponseBytes: 64 * 1024, maxRetries: 0 });

    const error = await rejection(server.payments.get('tx-1'));

    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.message).toBe('Connection failed: the response body is over 65536 bytes (maxResponseBytes), so it was not read');
    expect(endless.state.cancelled).toBe(true);
    expect(endless.state.sent).toBeLessThanOrEqual(65);
  });

  it('refuses a Content-Length over the cap without reading', async () => {
    const big = stream(100, { 'content-length': String(100 * 1024 + 11) });
    const fake = createFakeFetch(big.reply());
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxResponseBytes: 64 * 1024, maxRetries: 0 });

    await expect(server.payments.get('tx-1')).rejects.toThrow('the response body is over 65536 bytes');
    expect(big.state.sent).toBeLessThanOrEqual(1);
    expect(big.state.cancelled).toBe(true);
  });

  it('reads a body up to the cap, and retries a GET cut there like a dropped connection', async () => {
    const json = JSON.stringify({ data: paymentDetail });
    const fake = createFakeFetch(stream(Infinity).reply(), reply.text(200, json));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxResponseBytes: new TextEncoder().encode(json).length, random: () => 0 });

    await expect(server.payments.get('tx-1')).resolves.toEqual(paymentDetail);
    expect(fake.calls).toHaveLength(2);
  });

  it('does not retry a redeem cut there (it may have been applied)', async () => {
    const fake = createFakeFetch(stream(Infinity).reply());
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxResponseBytes: 4096 });

    await expect(server.coupons.redeem(REDEEM)).rejects.toBeInstanceOf(ConnectionError);
    expect(fake.calls).toHaveLength(1);
  });

  it("leaves alone a fetch's response whose body is no web stream (node-fetch's Node stream; a stand-in with text alone)", async () => {
    const text = JSON.stringify({ data: paymentDetail });
    const nodeFetchLike = { ok: true, status: 200, headers: new Headers(), body: Readable.from([text]), text: async () => text };
    const standIn = { ok: true, status: 200, headers: new Headers(), text: async () => text };
    for (const response of [nodeFetchLike, standIn]) {
      const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: async () => response as unknown as Response, maxResponseBytes: 16 });
      await expect(server.payments.get('tx-1')).resolves.toEqual(paymentDetail);
    }
  });

  it('refuses a fetch option that is not a function at construction, not as a ConnectionError of every call', () => {
    expect(() => new CampaignServer({ serverKey: SERVER_KEY, fetch: 'fetch' as never })).toThrow(new TypeError('fetch must be a function (a fetch implementation), got string'));
  });

  it('defaults to 32 MiB and refuses a cap that is not a whole number >= 1', () => {
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(33_554_432);
    for (const maxResponseBytes of [0, -1, 1.5, NaN, Infinity]) {
      expect(() => new CampaignServer({ serverKey: SERVER_KEY, maxResponseBytes })).toThrow(
        new TypeError(`maxResponseBytes must be a whole number of bytes >= 1, got ${maxResponseBytes}`),
      );
    }
  });
});
