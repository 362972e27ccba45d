/**
 * `npm run tour`: the local emulator, a game server's relay in front of it, and a short tour that runs every
 * part of the SDK end to end against them. Both keep running afterwards for your own game or server.
 * Ports: EMULATOR_PORT (default 8787) and RELAY_PORT (default 8788); 0 picks free ones.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { webhookMiddleware, toNodeHandler } from '../adapters/node/index.js';
import { CampaignClient, PlaytimeTracker } from '../core/index.js';
import { createMemoryPlatform } from '../core/testing.js';
import { CampaignServer, createRelay } from '../core/server/index.js';
import { DEMO_ACTIVE_CAMPAIGN_ID, DEMO_COUPONS, DEMO_CREATOR_KEYS, DEMO_USERS, startEmulator } from '../emulator/index.js';

const emulator = await startEmulator({ port: Number(process.env['EMULATOR_PORT'] ?? 8787) });
const environment = { baseUrl: emulator.url };
const server = new CampaignServer({ serverKey: emulator.serverKey, environment });

// The game server: a relay that trusts a demo header as its "auth" (a real game checks its own session token).
const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get('x-demo-user') ?? '' }) });
const relayServer = createServer(toNodeHandler(relay));
await new Promise<void>((resolve) => relayServer.listen(Number(process.env['RELAY_PORT'] ?? 8788), '127.0.0.1', resolve));
const relayUrl = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}/campaign`;

// A webhook receiver on the game server, registered with the emulator.
const webhooks = createServer();
await new Promise<void>((resolve) => webhooks.listen(0, '127.0.0.1', resolve));
const hook = await server.webhooks.create({ url: `http://127.0.0.1:${(webhooks.address() as AddressInfo).port}/`, eventType: 'coupon.redeemed' });
const receiver = webhookMiddleware({ secret: hook.secret });
webhooks.on('request', (req, res) => void receiver(req, res));

console.log(`Emulator  ${emulator.url}\n  Client key ${emulator.clientKey}\n  Server key ${emulator.serverKey}\nRelay     ${relayUrl}\n`);

// 1. A game client reads the campaign and its creators with the Client key.
const client = new CampaignClient({ clientKey: emulator.clientKey, environment });
const campaign = await client.campaigns.get(DEMO_ACTIVE_CAMPAIGN_ID);
const creators = await client.campaigns.listCreators(campaign.campaignId);
console.log(`1. ${JSON.stringify(campaign.campaignName)} with ${creators.length} creators: ${creators.map((c) => c.creatorKey).join(', ')}`);

// 2. It plays a session; the tracker delivers it through the relay, exactly once.
const userId = DEMO_USERS.noBoost;
const tracker = new PlaytimeTracker({
  platform: createMemoryPlatform({ fetch: (input, init) => fetch(input, init) }),
  userId,
  relay: { url: relayUrl, headers: () => ({ 'x-demo-user': userId }) },
});
tracker.start({ campaignId: campaign.campaignId, creatorKey: DEMO_CREATOR_KEYS[0] });
await new Promise((resolve) => setTimeout(resolve, 1_200));
await tracker.stop();
const flushed = new Promise((resolve) => tracker.once('flushed', resolve));
await tracker.flush();
console.log(`2. Playtime through the relay: ${JSON.stringify(await flushed)}`);
await tracker.dispose();

// 3. The game server redeems a coupon; the signed webhook arrives with the same callbackId.
const callbackId = `tour-${Date.now()}`;
const redemption = await server.coupons.redeem({ couponCode: DEMO_COUPONS.daily, userId, callbackId });
const event = await receiver.waitFor({ callbackId, timeoutMs: 10_000 });
console.log(`3. Coupon ${redemption.couponCode}: success=${redemption.success}; verified webhook ${event.type} (callbackId ${event.callbackId})`);

// 4. A player whose boost is past the 30-day cooldown moves it to another creator, through the relay.
const changed = await fetch(`${relayUrl}/sponsor`, {
  method: 'PUT',
  headers: { 'content-type': 'application/json', 'x-demo-user': DEMO_USERS.changeable },
  body: JSON.stringify({ newCreatorKey: DEMO_CREATOR_KEYS[2] }),
});
console.log(`4. Boost change through the relay: ${changed.status} ${JSON.stringify(await changed.json())}`);

const stop = async () => {
  relayServer.close();
  webhooks.close();
  await emulator.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
console.log(`\nState: ${emulator.url}/_emulator/state   Web view: ${emulator.url}/webview   Ctrl+C stops.`);
