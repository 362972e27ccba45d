// A game server's relay and webhook receiver in Express (`npm install express game-campaign-sdk`).
// The relay and the webhook middleware read the raw body themselves: mount them BEFORE express.json(), or
// keep the raw bytes (a `verify` hook) if a body parser must run first.
//
// Run against the local emulator: `npx game-campaign-emulator` (prints a Server key), then
// `CAMPAIGN_SERVER_KEY=… CAMPAIGN_BASE_URL=http://127.0.0.1:8787 CAMPAIGN_WEBHOOK_SECRET=whsec_… node server.mjs`
// (the webhook secret is the one `server.webhooks.create(...)` returned for this receiver's URL).
import express from 'express';
import { CampaignServer, createRelay } from 'game-campaign-sdk/server';
import { toNodeHandler, webhookMiddleware } from 'game-campaign-sdk/node';

const server = new CampaignServer({
  serverKey: process.env.CAMPAIGN_SERVER_KEY,
  environment: process.env.CAMPAIGN_BASE_URL ? { baseUrl: process.env.CAMPAIGN_BASE_URL } : 'sandbox',
});
const app = express();

// Your auth runs first and leaves the player on the request; the relay trusts only that.
app.use('/campaign', yourAuth, toNodeHandler(createRelay({ server, authenticate: (request) => playerFromHeader(request) })));

// Verified, de-duplicated webhook events; each handler runs once per delivery.
const webhooks = webhookMiddleware({ secret: process.env.CAMPAIGN_WEBHOOK_SECRET });
webhooks.on('coupon.redeemed', (event) => grantReward(event.data.userId, event.data.reward));
webhooks.on('sponsor.changed', (event) => console.log('boost', event.data.userId, event.data.oldCreatorKey, '->', event.data.newCreatorKey));
app.post('/webhooks/campaign', webhooks);

app.use(express.json()); // your own routes after this
const listening = app.listen(Number(process.env.PORT ?? 8080), () => console.log(`relay on http://localhost:${listening.address().port}/campaign`));

/** Stands in for your session middleware: it sets a header only your server can set. */
function yourAuth(req, res, next) {
  const userId = sessions.get(req.get('authorization')?.replace(/^Bearer /, '') ?? '');
  if (!userId) return res.status(401).json({ code: 'UNAUTHORIZED', message: 'log in first' });
  req.headers['x-authenticated-user'] = userId;
  next();
}
function playerFromHeader(request) {
  const userId = request.headers.get('x-authenticated-user');
  return userId ? { userId } : null;
}
const sessions = new Map([['demo-token', 'user_new']]);
function grantReward(userId, reward) {
  console.log('grant', userId, reward);
}
