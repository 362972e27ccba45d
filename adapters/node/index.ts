/**
 * `game-campaign-sdk/node`: Node wiring for the Fetch-API handlers of the server entry.
 * @packageDocumentation
 */
export { createNodeServer, toNodeHandler, type ClientErrorListener, type FetchHandler, type NodeHandler, type NodeHandlerWithClientError } from './to-node-handler.js';
export { webhookMiddleware, type WebhookMiddleware } from './webhook-receiver.js';
