/** Requests are checked against the spec's schemas before anything is sent. */
import type * as z from 'zod/mini';
import type { ErrorDetail } from '../schema/errors.js';
import { check, checkFields } from '../schema/validate.js';
import { ValidationError } from './errors.js';

/**
 * The parsed request (unknown fields dropped, so exactly the spec's fields go on the wire), or a
 * `ValidationError` with the same `code` and `details` a server-side VALIDATION_ERROR carries.
 * @throws ValidationError
 */
export function validated<S extends z.ZodMiniType>(schema: S, value: unknown, field?: string): z.output<S> {
  const result = check(schema, value, field);
  if (result.success) return result.data;
  return invalid(result.details);
}

/**
 * {@link validated} field by field ({@link checkFields}): for client-side arguments, whose rules are the
 * spec's scalar ones. Returns `value` as given.
 * @throws ValidationError
 */
export function validatedFields<T extends object>(fields: Record<string, z.ZodMiniType>, value: T, prefix?: string): T {
  const details = checkFields(fields, value as Record<string, unknown>, prefix);
  return details.length ? invalid(details) : value;
}

function invalid(details: ErrorDetail[]): never {
  const summary = details.map((d) => `${d.path} ${d.message}`).join('; ');
  throw new ValidationError({ code: 'VALIDATION_ERROR', message: `Invalid request: ${summary}`, details });
}
