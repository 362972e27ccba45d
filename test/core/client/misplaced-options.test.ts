// @vitest-environment happy-dom
// Options a developer writing plain JavaScript (or passing `any`) puts where they guess they go. TypeScript refuses
// them; JavaScript did not: `new CampaignClient({ clientKey, baseUrl })` (the same for CampaignServer and the game
// facade, which builds its CampaignClient from its own options) sent every request to the sandbox in silence. Found by
// the docs audit. Now a TypeError naming where the address goes, before anything is sent.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { CampaignClient } from '../../../core/client/campaign-client.js';
import { createGameCampaign } from '../../../adapters/browser/index.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { creator } from '../schema/samples.js';

const CLIENT_KEY = 'ck_test_1:pub1ic';
const EMULATOR = 'http://127.0.0.1:8787';
// Game clients: the environment's own message (no bytes of a message of its own), which says `{ baseUrl }` is an environment.
const clientMessage = `Unknown environment ${JSON.stringify(EMULATOR)}: use 'live', 'sandbox' or { baseUrl: 'https://…' } with no query or fragment`;

describe('a top-level baseUrl', () => {
  it('CampaignClient refuses it with a TypeError saying environment takes { baseUrl }, sending nothing', () => {
    const fake = createFakeFetch(reply.ok(creator));
    expect(() => new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch, baseUrl: EMULATOR } as never)).toThrow(new TypeError(clientMessage));
    // Beside an environment too: the address was meant, and would have been dropped.
    expect(() => new CampaignClient({ clientKey: CLIENT_KEY, environment: 'sandbox', baseUrl: EMULATOR } as never)).toThrow(new TypeError(clientMessage));
    expect(fake.calls).toHaveLength(0);
  });

  it("the game facade (its CampaignClient reads the facade's options) refuses it the same way", () => {
    expect(() => createGameCampaign({ clientKey: CLIENT_KEY, relay: { url: '/campaign' }, userId: 'player-1', baseUrl: EMULATOR } as never)).toThrow(new TypeError(clientMessage));
  });

  it('the place that works still works', async () => {
    const fake = createFakeFetch(reply.ok(creator));
    await new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch, environment: { baseUrl: EMULATOR } }).creators.get('ABC12');
    expect(fake.calls.map((call) => new URL(call.url).origin)).toEqual([EMULATOR]);
  });
});
