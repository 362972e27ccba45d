/**
 * What CampaignServer parses of an answer: JSON whose parse would cost far more memory than its bytes (many tiny
 * values) is refused before JSON.parse sees it, as a body over `maxResponseBytes` is; the spec's own
 * answers pass. Measured on Node 20: 32 MiB of `[{},{},...]` took 715 MiB of the heap to parse, `[[[...]]]` 928 MiB,
 * and a process with a 512 MiB heap died of either.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { ConnectionError, isCampaignError } from '../../../core/http/errors.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { deliveryLog, paymentDetail } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';

afterEach(() => vi.restoreAllMocks());

/** The error a call rejects with. */
async function rejection(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error('resolved');
    },
    (error: Error) => error,
  );
}

/** Whether JSON.parse was handed a text at least `length` long (the transport's parse of the body). */
function parsedTextOf(length: number, spy: { mock: { calls: unknown[][] } }): boolean {
  return spy.mock.calls.some(([text]) => typeof text === 'string' && text.length >= length);
}

describe("CampaignServer's structural limit on an answer", () => {
  it('refuses an answer of more values than one per 16 bytes of maxResponseBytes before parsing it, as a ConnectionError that says why', async () => {
    // 6 MiB of empty objects: under the 32 MiB default, 2,097,153 values (the limit is 2,097,152).
    const body = `{"data":[${'{},'.repeat(2_097_151)}{}]}`;
    const fake = createFakeFetch(reply.text(200, body, { 'content-type': 'application/json' }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0 });
    const parse = vi.spyOn(JSON, 'parse');

    const error = await rejection(server.webhooks.logs(1));

    expect([error instanceof ConnectionError, error.message]).toEqual([
      true,
      'Connection failed: the response body holds more than 2097152 JSON values (one per 16 bytes of maxResponseBytes), so it was not parsed',
    ]);
    expect(parsedTextOf(body.length, parse)).toBe(false);
  });

  it('parses an answer nesting 100,000 levels within the value limit: JSON.parse does not recurse, and each level counts as a value', async () => {
    const levels = 100_000;
    const deep = `{"data":{"id":1,"extra":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
    const fake = createFakeFetch(reply.text(200, deep));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0, validateResponses: false });

    const payment = (await server.payments.get('tx-1')) as unknown as { id: number; extra: unknown[] };
    let depth = 0;
    for (let level: unknown = payment.extra; Array.isArray(level); level = level[0]) depth++;
    expect([payment.id, depth]).toEqual([1, levels]);
  });

  it("reads the spec's answers at the densest they come: delivery logs filling the byte cap, a 1000-item bulk result under a tight cap", async () => {
    // About 23 bytes a value: 1 MiB of delivery logs (the list is not paged) under a 1 MiB cap.
    const logs = Array.from({ length: 4400 }, (_, n) => ({ ...deliveryLog, id: `log-${n}` }));
    const logsText = JSON.stringify({ data: logs });
    // 1000 results with 1-character ids: 12 bytes a value, under the 10,000 values any cap allows.
    const results = Array.from({ length: 1000 }, (_, n) => ({ sessionId: String(n % 10), status: 'SKIPPED' }));
    const bulkText = JSON.stringify({ data: { totalRequested: 1000, successful: 0, failed: 0, skipped: 1000, results } });
    const fake = createFakeFetch(reply.text(200, logsText), reply.text(200, bulkText));
    const bytes = (text: string) => new TextEncoder().encode(text).length;
    expect(bytes(logsText)).toBeLessThanOrEqual(1024 * 1024);

    const wide = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0, maxResponseBytes: 1024 * 1024 });
    await expect(wide.webhooks.logs(1)).resolves.toHaveLength(4400);
    const tight = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0, maxResponseBytes: bytes(bulkText) });
    const sessions = results.map((result) => ({ ...result, userId: 'u', durationSeconds: 1, startedAt: paymentDetail.purchasedAt, endedAt: paymentDetail.purchasedAt }));
    const recorded = await tight.playtime.recordBulk({ sessions: sessions.map(({ status: _status, ...session }) => session) }).catch((error: unknown) => (isCampaignError(error) ? error.message : error));
    expect(recorded).toMatchObject({ skipped: 1000 });
  });

  it('leaves a body that is no JSON to the transport as before (a proxy\'s page with many commas is its status\'s error)', async () => {
    const page = `<html>${'a, '.repeat(20_000)}</html>`;
    const fake = createFakeFetch(reply.text(502, page, { 'content-type': 'text/html' }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0, maxResponseBytes: 64 * 1024 });
    const error = await rejection(server.payments.get('tx-1'));
    expect([error instanceof ConnectionError, isCampaignError(error) && error.status]).toEqual([false, 502]);
  });
});
