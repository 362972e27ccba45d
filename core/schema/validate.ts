/** Turning zod issues into the spec's `details: [{ path, message }]` (server side: the server, relay, emulator, webhooks). */
import type * as z from 'zod/mini';
import { invalid } from '../http/request-validation.js';
import type { ErrorDetail } from './errors.js';

export type Validated<T> = { success: true; data: T } | { success: false; details: ErrorDetail[] };

/** Validates without throwing; the one place zod issues become `details`. */
export function check<S extends z.ZodMiniType>(schema: S, value: unknown, field?: string): Validated<z.output<S>> {
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return { success: true, data: result.data };
  return { success: false, details: result.error.issues.map((issue) => toDetail(issue, field)) };
}

/**
 * The parsed value (unknown fields dropped, so exactly the spec's fields go on the wire), or a
 * `ValidationError` with the same `code` and `details` a server-side VALIDATION_ERROR carries. Where a server
 * runs (`CampaignServer`); game client code checks with the rule table instead (`http/request-validation.ts`).
 * @throws ValidationError
 */
export function validated<S extends z.ZodMiniType>(schema: S, value: unknown, field?: string): z.output<S> {
  const result = check(schema, value, field);
  return result.success ? result.data : invalid(result.details);
}

/** `sessions.0.creatorKey`-style path under `field` (a path parameter's name), `(body)` for the root. */
function toDetail(issue: z.core.$ZodIssue, field?: string): ErrorDetail {
  const segments = field === undefined ? issue.path.map(String) : [field, ...issue.path.map(String)];
  const path = segments.length ? segments.join('.') : '(body)';
  return { path, message: issue.message === 'Invalid input' ? describe(issue) : issue.message };
}

/** zod/mini ships no message locale (size); these cover the issues our own checks leave unnamed. */
function describe(issue: z.core.$ZodIssue): string {
  if (issue.input === undefined && (issue.code === 'invalid_type' || issue.code === 'invalid_value')) return 'is required';
  switch (issue.code) {
    case 'invalid_type':
      return `must be ${article(issue.expected)}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return 'is invalid';
  }
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}
