// Server options a developer writing plain JavaScript (or passing `any`) puts where they guess they go, which TypeScript
// refuses and JavaScript passed on unread: a top-level `baseUrl` sent every request to the sandbox, a constructor's
// `timeout` or a call's `timeoutMs` (each the other's name) kept the default time-out. Found by the docs audit (see
// test/core/client/misplaced-options.test.ts for the game client's side). Now a TypeError naming where it goes.
import { describe, expect, it } from 'vitest';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { paymentDetail } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';
const EMULATOR = 'http://127.0.0.1:8787';

describe('CampaignServer: a top-level baseUrl', () => {
  it('refuses it naming environment: { baseUrl }', () => {
    expect(() => new CampaignServer({ serverKey: SERVER_KEY, baseUrl: EMULATOR } as never)).toThrow(new TypeError('new CampaignServer: `baseUrl` is not an option here; use `environment: { baseUrl }`'));
  });

  it('takes environment: { baseUrl }', async () => {
    const fake = createFakeFetch(reply.ok(paymentDetail));
    await new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, environment: { baseUrl: EMULATOR } }).payments.get('tx-1');
    expect(fake.calls.map((call) => new URL(call.url).origin)).toEqual([EMULATOR]);
  });
});

describe("CampaignServer: each time-out under the other's name", () => {
  it('refuses a constructor `timeout` (the per-call name), naming timeoutMs', () => {
    expect(() => new CampaignServer({ serverKey: SERVER_KEY, timeout: 5_000 } as never)).toThrow(new TypeError('new CampaignServer: `timeout` is not an option here; use `timeoutMs`'));
  });

  it("refuses a call's `timeoutMs` (the constructor's name), naming timeout, sending nothing", async () => {
    const fake = createFakeFetch(reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await expect(server.payments.get('tx-1', { timeoutMs: 5_000 } as never)).rejects.toThrow(new TypeError("a call's options: `timeoutMs` is not an option here; use `timeout`"));
    expect(fake.calls).toHaveLength(0);
    await expect(server.payments.get('tx-1', { timeout: 5_000 })).resolves.toBeDefined();
  });
});
