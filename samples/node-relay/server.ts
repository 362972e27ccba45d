/**
 * A game server's relay on plain node:http: the few lines a game server adds so its clients can record play
 * time, boost creators and open the campaign web view without ever holding the Server key.
 *
 * Run against the local emulator: `npx game-campaign-emulator` (prints a Server key), then
 * `CAMPAIGN_SERVER_KEY=… CAMPAIGN_BASE_URL=http://127.0.0.1:8787 npx tsx samples/node-relay/server.ts`.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CampaignServer, createRelay } from 'game-campaign-sdk/server';
import { toNodeHandler } from 'game-campaign-sdk/node';

const server = new CampaignServer({
  serverKey: process.env['CAMPAIGN_SERVER_KEY'] ?? '',
  environment: process.env['CAMPAIGN_BASE_URL'] ? { baseUrl: process.env['CAMPAIGN_BASE_URL'] } : 'sandbox',
});

/** Your own session check: the relay acts only for the player it names, whatever the request body says. */
async function playerOf(request: Request): Promise<{ userId: string } | null> {
  const token = request.headers.get('authorization')?.replace(/^Bearer /, '');
  return token ? lookUpSession(token) : null;
}

// Stands in for your session store.
const sessions = new Map([['demo-token', 'user_new']]);
async function lookUpSession(token: string): Promise<{ userId: string } | null> {
  const userId = sessions.get(token);
  return userId ? { userId } : null;
}

const relay = createRelay({ server, authenticate: playerOf, basePath: '/campaign' });
const http = createServer(toNodeHandler(relay));
// Time-outs a public server should set (the relay also cuts a body that trickles).
http.requestTimeout = 30_000;
http.headersTimeout = 10_000;
http.listen(Number(process.env['PORT'] ?? 8080), () => console.log(`relay on http://localhost:${(http.address() as AddressInfo).port}/campaign`));
