/**
 * The full webhook loop on the emulator: register a receiver, redeem a coupon with a callbackId, receive the
 * signed `coupon.redeemed` event through webhookMiddleware, and find the delivery in the webhook's log.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookMiddleware, type WebhookMiddleware } from '../../adapters/node/webhook-receiver.js';
import { CampaignServer } from '../../core/server/index.js';
import { DEMO_COUPONS } from '../../emulator/fixtures.js';
import { startEmulator } from '../../emulator/index.js';
import { OTHER_SECRET } from '../core/webhooks/fixtures.js';

let emulator: Awaited<ReturnType<typeof startEmulator>>;
let server: CampaignServer;
let receiverServer: Server;
let receiverBase: string;
/** Middleware per path, mounted once the webhook's secret is known (the URL must be registered first). */
const routes = new Map<string, WebhookMiddleware>();

beforeAll(async () => {
  emulator = await startEmulator({ port: 0 });
  server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } });
  receiverServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    const middleware = routes.get(req.url ?? '');
    if (middleware) void middleware(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => receiverServer.listen(0, '127.0.0.1', resolve));
  receiverBase = `http://127.0.0.1:${(receiverServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await emulator?.close();
  await new Promise((resolve) => receiverServer?.close(resolve));
});

describe('webhook loop on the emulator', () => {
  it('delivers a verified coupon.redeemed event carrying the callbackId, logged as SUCCESS 204', async () => {
    const hook = await server.webhooks.create({ url: `${receiverBase}/webhooks/ok`, eventType: 'coupon.redeemed', retryCount: 0 });
    const webhooks = webhookMiddleware({ secret: hook.secret });
    routes.set('/webhooks/ok', webhooks);
    const received: Array<string | undefined> = [];
    webhooks.on('coupon.redeemed', (event) => void received.push(event.data.couponCode));
    const callbackId = `loop-${Date.now()}`;

    const redemption = await server.coupons.redeem({ couponCode: DEMO_COUPONS.welcome, userId: 'webhook-loop-user', callbackId });
    const event = await webhooks.waitFor({ callbackId, type: 'coupon.redeemed', timeoutMs: 10_000 });

    expect(event.type).toBe('coupon.redeemed');
    expect(event.callbackId).toBe(callbackId);
    expect(event.data.couponCode).toBe(DEMO_COUPONS.welcome);
    expect(event.data.userId).toBe('webhook-loop-user');
    expect(event.data.usageId).toBe(redemption.usageId);
    expect(received).toEqual([DEMO_COUPONS.welcome]);

    await emulator.webhooksIdle();
    const logs = await server.webhooks.logs(hook.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ eventType: 'coupon.redeemed', status: 'SUCCESS', responseStatus: 204, attempt: 1, callbackId });
    // The body as sent, and (every assumed field present with its type) the typed view of it.
    const { raw, ...view } = event;
    expect(logs[0]?.payload).toEqual(raw);
    expect(view).toEqual(raw);
  });

  it('is refused by a receiver holding another secret: logged as FAILED 401, nothing emitted', async () => {
    const hook = await server.webhooks.create({ url: `${receiverBase}/webhooks/wrong-secret`, eventType: 'coupon.redeemed', retryCount: 0 });
    const webhooks = webhookMiddleware({ secret: OTHER_SECRET });
    routes.set('/webhooks/wrong-secret', webhooks);
    const reasons: unknown[] = [];
    const received: unknown[] = [];
    webhooks.on('error', (error) => void reasons.push((error as { reason?: unknown }).reason));
    webhooks.on('event', (event) => void received.push(event));
    const callbackId = `loop-refused-${Date.now()}`;

    await server.coupons.redeem({ couponCode: DEMO_COUPONS.daily, userId: 'webhook-loop-user', callbackId });
    await emulator.webhooksIdle();

    const logs = await server.webhooks.logs(hook.id);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ eventType: 'coupon.redeemed', status: 'FAILED', responseStatus: 401, attempt: 1, callbackId });
    expect(reasons).toEqual(['invalid_signature']);
    expect(received).toEqual([]);
  });

  it('rotating the secret: both webhooks deliver to a receiver holding both secrets, each logged SUCCESS, the event emitted once', async () => {
    // A new secret is a new webhook (the spec returns a secret only at creation); the old one is deleted after.
    const url = `${receiverBase}/webhooks/rotating`;
    const old = await server.webhooks.create({ url, eventType: 'coupon.redeemed', retryCount: 0 });
    const fresh = await server.webhooks.create({ url, eventType: 'coupon.redeemed', retryCount: 0 });
    const webhooks = webhookMiddleware({ secret: [fresh.secret!, old.secret!] });
    routes.set('/webhooks/rotating', webhooks);
    const received: string[] = [];
    webhooks.on('event', (event) => void received.push(event.type));
    const callbackId = `loop-rotating-${Date.now()}`;

    await server.coupons.redeem({ couponCode: DEMO_COUPONS.daily, userId: 'webhook-loop-rotating', callbackId });
    await emulator.webhooksIdle();

    const logs = [...(await server.webhooks.logs(old.id)), ...(await server.webhooks.logs(fresh.id))];
    // The emulator sends one webhook-id per event to every webhook: the second delivery is a replay, answered 200.
    expect(logs.map((log) => [log.status, log.responseStatus]).sort()).toEqual([['SUCCESS', 200], ['SUCCESS', 204]]);
    expect(received).toEqual(['coupon.redeemed']);
    await server.webhooks.delete(old.id);
  });
});
