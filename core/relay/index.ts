/**
 * The relay, server side: `createRelay` and what its options and answers are made of. The wire it
 * speaks is in `protocol.ts`; the client side (`sender.ts`) belongs to the tracker.
 * @see DESIGN section 6
 */
export {
  createRelay,
  DEFAULT_COALESCE_WINDOW_MS,
  DEFAULT_MAX_BODY_BYTES,
  type Relay,
  type RelayAuthenticate,
  type RelayOptions,
} from './relay.js';
export { DEFAULT_RELAY_RATE_LIMIT } from './rate-limit.js';
export { USER_MISMATCH_ERROR } from './playtime.js';
export { RELAY_ROUTES, type RelayPlaytimeRequest, type RelaySession, type RelaySponsorRequest, type RelayWebviewRequest, type RelayWebviewToken } from './protocol.js';
