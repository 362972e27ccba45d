/** Requests are checked against the spec's schemas before anything is sent. */
import type * as z from 'zod/mini';
import { check } from '../schema/validate.js';
import { ValidationError } from './errors.js';

/**
 * The parsed request (unknown fields dropped, so exactly the spec's fields go on the wire), or a
 * `ValidationError` with the same `code` and `details` a server-side VALIDATION_ERROR carries.
 * @throws ValidationError
 */
export function validated<S extends z.ZodMiniType>(schema: S, value: unknown, field?: string): z.output<S> {
  const result = check(schema, value, field);
  if (result.success) return result.data;
  const summary = result.details.map((d) => `${d.path} ${d.message}`).join('; ');
  throw new ValidationError({ code: 'VALIDATION_ERROR', message: `Invalid request: ${summary}`, details: result.details });
}
