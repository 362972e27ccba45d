/**
 * `game-campaign-sdk/server`: the Server API for the game's own server (Node, Bun, Deno, edge workers).
 * @packageDocumentation
 */
export { CampaignServer, type CampaignServerOptions } from './campaign-server.js';
export type { Playtime } from './playtime.js';
export type { Payments } from './payments.js';
export type { Coupons } from './coupons.js';
export type { Sponsors } from './sponsors.js';
export type { Webview } from './webview.js';
export type { Webhooks } from './webhooks.js';
export type { ServerCampaigns } from './campaigns.js';
export * from '../relay/index.js';
export * from '../webhooks/index.js';
export * from '../http/errors.js';
export { BASE_URLS, type Environment } from '../http/environment.js';
export type { LogEntry, TransportOptions, RetryPolicy, ResponseValidator } from '../http/transport.js';
export type { RequestOptions } from '../http/transport.js';
export { validateResponse } from '../schema/responses.js';
export type { Page, PagePromise } from '../http/page.js';
// A value as well as a type: the declarations (dist/server.d.ts) already say `const`, so `WebhookEventType.options`
// (every event type the SDK knows, for one receiver per type) type-checked and then failed to import.
export { WebhookEventType } from '../schema/webhooks.js';
export type * from '../types.js';
