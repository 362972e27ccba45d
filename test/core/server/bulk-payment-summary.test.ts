/**
 * One `payments.registerBulk` call, one `payment.bulk_created` for the game's listener, although the service sends a
 * summary per request (spec "Register bulk payments": "One payment.bulk_created summary event is triggered per
 * request") and the call is retried after a transient failure: the first attempt applied, its answer lost.
 * The service is the emulator; its deliveries reach a real receiver over node:http.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { BULK_CALLBACK_PREFIX } from '../../../core/schema/payments.js';
import { CampaignServer } from '../../../core/server/index.js';
import { createWebhookReceiver, type WebhookReceiver } from '../../../core/webhooks/receiver.js';
import { createEmulator, type Emulator } from '../../../emulator/index.js';

const payment = (transactionId: string) => ({ userId: 'user-1', transactionId, productId: 'gems', amount: 4.99, currency: 'USD', purchasedAt: '2025-06-01T10:00:00Z' });

describe('payments.registerBulk retried after its answer was lost', () => {
  const cleanup: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  /** The emulator, a receiver subscribed to `payment.bulk_created` over node:http, and a CampaignServer that loses the first answer. */
  async function setup() {
    const emulator: Emulator = createEmulator({ webhookRetryDelayMs: () => 5 });
    cleanup.push(() => emulator.close());
    let receiver: WebhookReceiver | undefined;
    const http: Server = createServer((req, res) => void toNodeHandler(receiver!)(req, res));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    cleanup.push(() => new Promise<void>((resolve) => http.close(() => resolve())));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/webhooks`;
    const sent: unknown[] = [];
    let lose = 1;
    const server = new CampaignServer({
      serverKey: 'sk_sandbox_demo:ss_sandbox_demo_secret',
      environment: { baseUrl: 'http://emulator.local' },
      random: () => 0,
      fetch: async (input, init) => {
        if (String(input).endsWith('/payments/bulk')) sent.push(JSON.parse(String(init?.body)));
        const answer = await emulator.fetch(input as string, init);
        // The service applied the request; its answer never arrived (a connection reset, a proxy's time-out).
        if (String(input).endsWith('/payments/bulk') && lose-- > 0) throw new TypeError('fetch failed');
        return answer;
      },
    });
    const hook = await server.webhooks.create({ url, eventType: 'payment.bulk_created' });
    receiver = createWebhookReceiver({ secret: hook.secret! });
    const summaries: unknown[] = [];
    receiver.on('payment.bulk_created', (event) => void summaries.push(event));
    return { emulator, server, sent, summaries, receiver };
  }

  it('tells the listener once, and every attempt carries one callbackId', async () => {
    const { emulator, server, sent, summaries } = await setup();
    const result = await server.payments.registerBulk({ payments: [payment('tx-1'), payment('tx-2')] });
    await emulator.webhooksIdle();

    // The retry found both recorded (SKIPPED), and the service sent a second summary, as the spec says it does.
    expect(result.skipped).toBe(2);
    expect(sent).toHaveLength(2);
    const [first, second] = sent as Array<{ callbackId: string }>;
    expect(first?.callbackId).toMatch(new RegExp(`^${BULK_CALLBACK_PREFIX}`));
    expect(second?.callbackId).toBe(first?.callbackId);
    // The listener hears the call once: the summary of the attempt that recorded the payments.
    expect(summaries).toHaveLength(1);
    expect(summaries[0]).toMatchObject({ type: 'payment.bulk_created', callbackId: first?.callbackId, data: { successful: 2 } });
  });

  it("keeps the caller's own callbackId, and two calls are two summaries", async () => {
    const { emulator, server, sent, summaries } = await setup();
    await server.payments.registerBulk({ payments: [payment('tx-1')], callbackId: 'nightly-1' });
    await server.payments.registerBulk({ payments: [payment('tx-3')] });
    await emulator.webhooksIdle();
    expect((sent as Array<{ callbackId: string }>).map((body) => body.callbackId.startsWith(BULK_CALLBACK_PREFIX) ? 'generated' : body.callbackId)).toEqual(['nightly-1', 'nightly-1', 'generated']);
    // The caller's own id is theirs to reuse: its retry's summary is not held back (both heard); the generated one once.
    expect(summaries.map((event) => (event as { callbackId: string }).callbackId === 'nightly-1')).toEqual([true, true, false]);
  });

  it("does not judge a caller's own callbackId that only begins like the generated ones: two calls, two summaries", async () => {
    const { emulator, server, summaries } = await setup();
    // A studio naming its own ids after the exported prefix (or the ones it saw in events) gives one id to two calls.
    const own = `${BULK_CALLBACK_PREFIX}nightly-2025-06-01`;
    await server.payments.registerBulk({ payments: [payment('tx-4')], callbackId: own }, { maxRetries: 0 }).catch(() => undefined);
    await server.payments.registerBulk({ payments: [payment('tx-5')], callbackId: own });
    await emulator.webhooksIdle();
    // Before, the receiver held back the second call's summary (tx-5, recorded) as a retry of the first.
    expect(summaries.map((event) => (event as { data: { successful: number } }).data.successful)).toEqual([1, 1]);
  });

  it("takes callbackId: '' (an unset setting passed on as '') as none: the call gets its own id and one summary", async () => {
    const { emulator, server, sent, summaries } = await setup();
    await server.payments.registerBulk({ payments: [payment('tx-6'), payment('tx-7')], callbackId: '' });
    await emulator.webhooksIdle();
    // Before, '' went out as the call's id: no summary could be matched to the call, and its retry's was heard too.
    const [first, second] = sent as Array<{ callbackId: string }>;
    expect(first?.callbackId).toMatch(new RegExp(`^${BULK_CALLBACK_PREFIX}[0-9a-f]{32}$`));
    expect(second?.callbackId).toBe(first?.callbackId);
    expect(summaries).toHaveLength(1);
  });

  it('makes its callbackId without crypto.randomUUID, which a browser page that is not a secure context lacks', async () => {
    const { emulator, server, sent } = await setup();
    vi.spyOn(globalThis.crypto, 'randomUUID').mockImplementation(() => {
      throw new TypeError('crypto.randomUUID is not a function');
    });
    await server.payments.registerBulk({ payments: [payment('tx-9')] });
    await emulator.webhooksIdle();
    expect((sent[0] as { callbackId: string }).callbackId).toMatch(new RegExp(`^${BULK_CALLBACK_PREFIX}[0-9a-f]{32}$`));
    vi.restoreAllMocks();
  });
});
