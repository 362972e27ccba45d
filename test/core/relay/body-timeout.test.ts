/**
 * A body that trickles in is cut at the read time-out (default 10 s) with 408, on the Fetch-API handler
 * (fake timers) and over real node:http (a short configured time-out); nothing is forwarded.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { DEFAULT_BODY_TIMEOUT_MS, RELAY_ROUTES } from '../../../core/relay/index.js';
import { read, RELAY, relayOverFakeService, sessions } from './fake-service.js';

/** A body that sends one byte of `text` per second of the (fake or real) clock, and never ends early. */
function trickle(text: string, onCancel?: () => void): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let sent = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream({
    pull(controller) {
      return new Promise<void>((resolve) => {
        timer = setTimeout(() => {
          if (sent < bytes.length) controller.enqueue(bytes.subarray(sent, ++sent));
          else controller.close();
          resolve();
        }, 1000);
      });
    },
    cancel() {
      clearTimeout(timer);
      onCancel?.();
    },
  });
}

const trickling = (body: ReadableStream<Uint8Array>) =>
  new Request(`${RELAY}${RELAY_ROUTES.playtime}`, {
    method: 'POST',
    headers: { authorization: 'Bearer user:alice', 'content-type': 'application/json' },
    body,
    duplex: 'half',
  } as RequestInit);

afterEach(() => {
  vi.useRealTimers();
});

describe('body read time-out', () => {
  it('answers 408 once the default 10 s have passed with the body still arriving at 1 byte/s, and forwards nothing', async () => {
    vi.useFakeTimers();
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    let cancelled = false;
    let answered = false;
    const answer = relay.fetch(trickling(trickle(JSON.stringify({ sessions: sessions('alice', 1) }), () => (cancelled = true)))).then((r) => ((answered = true), r));
    await vi.advanceTimersByTimeAsync(DEFAULT_BODY_TIMEOUT_MS - 1);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const result = await read(await answer);
    expect(result.status).toBe(408);
    expect(result.body).toEqual({ status: 408, error: 'Request Timeout', code: 'BAD_REQUEST', message: `The body did not arrive within ${DEFAULT_BODY_TIMEOUT_MS} ms` });
    expect(result.headers.get('connection')).toBe('close');
    expect(cancelled).toBe(true); // the rest of the body is not read
    expect(fake.calls).toEqual([]);
  });

  it('takes a slow body that completes within the time-out', async () => {
    vi.useFakeTimers();
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0, bodyTimeoutMs: 60_000 });
    const text = JSON.stringify({ sessions: sessions('alice', 1) }).slice(0, 50);
    // Only 50 bytes at 1 byte/s: the JSON is cut, so 400, but after the whole body was read, not 408.
    const answer = relay.fetch(trickling(trickle(text)));
    await vi.advanceTimersByTimeAsync(51_000);
    expect((await answer).status).toBe(400);
    expect(bulkCalls()).toEqual([]);
  });

  it('answers 408 over node:http to a client that declared its length and sends 1 byte/s, and closes the connection', async () => {
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 0, bodyTimeoutMs: 300 });
    const server: Server = createServer(toNodeHandler(relay));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const text = JSON.stringify({ sessions: sessions('alice', 1) });
    try {
      const { status, closed } = await new Promise<{ status: number; closed: Promise<void> }>((resolve, reject) => {
        const headers = { authorization: 'Bearer user:alice', 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) };
        const req = httpRequest({ host: '127.0.0.1', port, path: `/campaign${RELAY_ROUTES.playtime}`, method: 'POST', headers }, (res) => {
          res.resume();
          // The relay stops reading: the connection it answered on ends with the answer (Connection: close).
          const closed = new Promise<void>((done) => req.socket?.once('close', () => done()));
          resolve({ status: res.statusCode ?? 0, closed });
        });
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        let sent = 0;
        req.write(text[sent++]);
        const writer = setInterval(() => {
          if (sent < text.length && !req.destroyed && req.socket?.writable) req.write(text[sent++]);
          else clearInterval(writer);
        }, 1000);
        req.on('close', () => clearInterval(writer));
      });
      expect(status).toBe(408);
      await closed;
      expect(fake.calls).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('answers 408 over node:http to a client sending 1 byte/s', async () => {
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 0, bodyTimeoutMs: 300 });
    const server: Server = createServer(toNodeHandler(relay));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const status = await new Promise<number>((resolve, reject) => {
        const req = httpRequest(
          { host: '127.0.0.1', port, path: `/campaign${RELAY_ROUTES.playtime}`, method: 'POST', headers: { authorization: 'Bearer user:alice', 'content-type': 'application/json' } },
          (res) => {
            clearInterval(writer);
            res.resume();
            resolve(res.statusCode ?? 0);
            req.destroy();
          },
        );
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        const text = JSON.stringify({ sessions: sessions('alice', 1) });
        let sent = 0;
        req.write(text[sent++]);
        const writer = setInterval(() => {
          if (sent < text.length && !req.destroyed) req.write(text[sent++]);
        }, 1000);
      });
      expect(status).toBe(408);
      expect(fake.calls).toEqual([]);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
