/**
 * The relay, server side: `createRelay` and what its options and answers are made of. The wire it
 * speaks is in `protocol.ts`; the client side (`sender.ts`) belongs to the tracker.
 * @see DESIGN section 6
 */
export {
  createRelay,
  DEFAULT_AUTHENTICATE_TIMEOUT_MS,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_COALESCE_WINDOW_MS,
  DEFAULT_MAX_BODY_BYTES,
  type Relay,
  type RelayAuthenticate,
  type RelayOptions,
} from './relay.js';
export { DEFAULT_RELAY_RATE_LIMIT } from './rate-limit.js';
export { USER_MISMATCH_ERROR } from './playtime.js';
export { relayCallbackId } from './callback-id.js';
export {
  DEFAULT_CLOCK_SKEW_MS,
  DEFAULT_MAX_SESSION_AGE_MS,
  DURATION_SLACK_SECONDS,
  REFUSED_BY_POLICY_ERROR,
  type AcceptSession,
} from './plausibility.js';
export { DAILY_CAP_ERROR, MAX_DAILY_PLAYTIME_SECONDS, type DailyPlaytimeCapOptions } from './daily-cap.js';
export { DEFAULT_FAILED_AUTH_LIMIT } from './failed-auth.js';
export { type ClientAddress } from './client-address.js';
export { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS, DEFAULT_CORS_MAX_AGE_SECONDS, type RelayCorsOptions } from './cors.js';
export { RELAY_ROUTES, type RelayPlaytimeRequest, type RelaySession, type RelaySponsorRequest, type RelayWebviewRequest, type RelayWebviewToken } from './protocol.js';
