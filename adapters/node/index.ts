/**
 * `game-campaign-sdk/node`: Node wiring for the Fetch-API handlers of the server entry.
 * @packageDocumentation
 */
export { toNodeHandler, type FetchHandler, type NodeHandler } from './to-node-handler.js';
export { webhookMiddleware, type WebhookMiddleware } from './webhook-receiver.js';
