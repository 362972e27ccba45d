/**
 * webhookMiddleware over real HTTP with every case of issue 15 (seven types by (a)-(e)): each genuine
 * delivery answered 204 and emitted with its typed view and `raw`; each with one byte changed answered 401
 * invalid_signature and not emitted.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { webhookMiddleware, type WebhookMiddleware } from '../../../adapters/node/webhook-receiver.js';
import { WEBHOOK_EVENT_TYPES } from '../../../core/schema/webhooks.js';
import { signWebhook } from '../../../core/webhooks/sign.js';
import { SECRET } from '../../core/webhooks/fixtures.js';
import { oneByteChanged, SHAPE_CASES } from '../../core/webhooks/shape-cases.js';

let server: Server;
let url: string;
let middleware: WebhookMiddleware;
const byType: unknown[] = [];
const unknown: unknown[] = [];
const all: unknown[] = [];

beforeAll(async () => {
  middleware = webhookMiddleware({ secret: SECRET });
  for (const type of WEBHOOK_EVENT_TYPES) middleware.on(type, (event) => void byType.push(event));
  middleware.on('unknown', (event) => void unknown.push(event));
  middleware.on('event', (event) => void all.push(event));
  server = createServer(middleware);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/campaign`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  byType.length = 0;
  unknown.length = 0;
  all.length = 0;
});

/** Posts `payload` signed now (real clock) as the service would, optionally changing it after signing. */
async function deliver(body: object, id: string, change: (payload: string) => string = (p) => p) {
  const payload = JSON.stringify(body);
  const { headers } = signWebhook({ payload, secret: SECRET, id });
  const response = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: change(payload) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('webhookMiddleware accepts every genuine delivery, whatever its shape', () => {
  it.each(SHAPE_CASES.map((c) => [c.name, c] as const))('%s', async (_, c) => {
    expect(await deliver(c.body, `${c.deliveryId}_node`)).toEqual({ status: 204, body: undefined });

    const expected = { ...c.expected, raw: c.body, ...(c.body['id'] === undefined ? { id: `${c.deliveryId}_node` } : {}) };
    expect(all).toEqual([expected]);
    expect(c.known ? byType : unknown).toEqual([expected]);
    expect(c.known ? unknown : byType).toEqual([]);
  });

  it.each(SHAPE_CASES.map((c) => [c.name, c] as const))('%s, one byte changed: 401 invalid_signature', async (_, c) => {
    expect(await deliver(c.body, `${c.deliveryId}_tampered`, oneByteChanged)).toEqual({ status: 401, body: { error: 'invalid_signature' } });
    expect(all).toEqual([]);
  });
});
