/**
 * The spec's rules a game client applies itself, as plain predicates: game-client bundles carry no zod runtime
 * (DESIGN section 11). Only what must not leave the device, or would cost a pointless round trip, is checked
 * here; the relay checks every body it forwards with the SDK's zod schemas (core/relay/protocol.ts), and its
 * `VALIDATION_ERROR` reaches the game as the same `ValidationError` with `details`.
 */
import { ValidationError } from './http/errors.js';

/** Creator search text: 1 to 10 characters (spec "Limits"), counted as `SearchText` counts them (UTF-16 units). */
export function isSearchText(query: unknown): query is string {
  return typeof query === 'string' && query.length > 0 && query.length <= 10;
}

/**
 * Returns `value` when it is a non-empty string (the `Id` rule).
 * @throws ValidationError naming `path`, as the relay's VALIDATION_ERROR would
 */
export function checkedId(value: unknown, path: string): string {
  if (typeof value === 'string' && value) return value;
  const message = value === undefined ? 'is required' : 'must not be empty';
  throw new ValidationError({ code: 'VALIDATION_ERROR', message: `Invalid request: ${path} ${message}`, details: [{ path, message }] });
}
