/** Every resource, request and response of the spec as a zod/mini schema, with its inferred type. */
export * from './primitives.js';
export * from './errors.js';
export * from './validate.js';
export * from './playtime.js';
export * from './payments.js';
export * from './coupons.js';
export * from './sponsors.js';
export * from './webview.js';
export * from './webhooks.js';
export * from './campaigns.js';
export * from './events.js';
