/**
 * Game-client arguments are checked against the spec's rules before anything is sent, with the plain rule
 * table (`schema/rules.ts`) rather than zod, so client bundles carry no zod runtime. Same `ValidationError`,
 * same `details`, same messages as the zod schemas built from that table (a property test proves it).
 */
import type { ErrorDetail } from '../schema/errors.js';
import { broken, checkFields, type Rule } from '../schema/rules.js';
import { ValidationError } from './errors.js';

/**
 * `value` when it keeps `rule`, else a `ValidationError` whose detail names `field`.
 * @throws ValidationError
 */
export function validated<T>(rule: Rule<T>, value: unknown, field: string): T {
  const message = broken(rule as Rule<never>, value);
  return message ? invalid([{ path: field, message }]) : (value as T);
}

/**
 * {@link validated} field by field ({@link checkFields}). Returns `value` as given.
 * @throws ValidationError
 */
export function validatedFields<T extends object>(fields: Record<string, Rule<never>>, value: T, prefix?: string): T {
  const details = checkFields(fields, value as Record<string, unknown>, prefix);
  return details.length ? invalid(details) : value;
}

/** Throws the `ValidationError` of a request that breaks the spec's rules (client and server alike). */
export function invalid(details: ErrorDetail[]): never {
  throw new ValidationError({ code: 'VALIDATION_ERROR', message: `Invalid request: ${summarize(details)}`, details });
}

/** Details in one line: `path message; path message` (error messages, and the tracker's `dropped` events). */
export function summarize(details: ErrorDetail[]): string {
  return details.map((detail) => `${detail.path} ${detail.message}`).join('; ');
}
