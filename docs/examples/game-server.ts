// A game server: the Server API, the relay for its game clients, and a webhook receiver (type-checked by `npm test`).
import { createServer } from 'node:http';
import { CampaignServer, createRelay, isCampaignError, type CouponRedemption } from 'game-campaign-sdk/server';
import { toNodeHandler, webhookMiddleware } from 'game-campaign-sdk/node';

declare function sessionUser(authorization: string | null): Promise<{ userId: string } | null>;
declare function grant(userId: string, reward: CouponRedemption['reward']): void; // the game's own inventory

const server = new CampaignServer({ serverKey: process.env['CAMPAIGN_SERVER_KEY']!, environment: 'sandbox', maxRetries: 1 });

export async function grantWelcome(userId: string): Promise<void> {
  try {
    const result = await server.coupons.redeem({ couponCode: 'WELCOME', userId, callbackId: `welcome-${userId}` });
    if (result.success) grant(userId, result.reward);
    else console.warn(result.errorCode, result.errorMessage); // not redeemed (e.g. an unknown code): nothing to grant
  } catch (error) {
    if (isCampaignError(error, 'USER_CODE_LIMIT')) return; // already redeemed as often as allowed
    throw error;
  }
}

export async function everyUsage(userId: string): Promise<string[]> {
  const codes: string[] = [];
  // Per-call options apply to every page request: here the whole walk is cut off after 10 s.
  for await (const usage of server.coupons.listUsage(userId, { limit: 100 }, { signal: AbortSignal.timeout(10_000) })) codes.push(usage.couponCode);
  return codes;
}

const relay = createRelay({ server, authenticate: (request) => sessionUser(request.headers.get('authorization')) });
createServer(toNodeHandler(relay)).listen(8080);

const webhooks = webhookMiddleware({ secret: process.env['CAMPAIGN_WEBHOOK_SECRET']! });
webhooks.on('coupon.redeemed', (event) => console.log(event.data.userId, event.data.reward, event.callbackId));
webhooks.on('unknown', (event) => console.info('webhook of a type this SDK does not know', event.type, event.raw));
createServer(webhooks).listen(8081);
