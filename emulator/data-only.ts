/**
 * Plain data without a prototype. A test process may hold a library that polluted `Object.prototype` (a deep merge
 * of untrusted JSON: `Object.prototype.isTest = true`, `Object.prototype.campaignId = 'x'`); an object literal or a
 * parsed body then inherits those keys, so a field it lacks read as the polluted value: every write became a
 * test-mode one, a session was stored with the polluted campaign. Bodies, schema outputs, fixtures and records have
 * their prototype set to null, so a missing field reads `undefined` whatever the process holds.
 */
import { check, withoutPrototypes } from '../core/schema/validate.js';

/** `ownFields`: a shallow copy of the caller's options without a prototype (their object is left as it is). */
export { ownFields } from '../core/own-options.js';
/** core/schema/validate.ts `check`: its output has no prototypes (zod builds it as `{}`, which inherits). */
export { check, withoutPrototypes };

/**
 * `record` itself set to a null prototype (what it holds is left as it is): a stored record's optional fields are read
 * (`token.campaignId`); what it holds came from a body (already without prototypes) or is only written out as JSON.
 */
export function withoutPrototype<T extends object>(record: T): T {
  return Object.setPrototypeOf(record, null) as T;
}

