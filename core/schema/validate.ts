/** Turning zod issues into the spec's `details: [{ path, message }]` (server side: the server, relay, emulator, webhooks). */
import type * as z from 'zod/mini';
import { invalid } from '../http/request-validation.js';
import type { ErrorDetail } from './errors.js';

export type Validated<T> = { success: true; data: T } | { success: false; details: ErrorDetail[] };

/**
 * Validates without throwing; the one place zod issues become `details`. The value is read through an own-fields copy,
 * and the output's objects have no prototype ({@link withoutPrototypes}):
 * zod builds an object's output by reading each field of its schema off the input (zod/v4/core/schemas.ts `$ZodObject`:
 * `input[key]`, `key in input`), so under a polluted `Object.prototype` (`Object.prototype.isTest = true`, left by a deep
 * merge of untrusted JSON in another package) a field the caller left out was read through the prototype and sent, by
 * `CampaignServer` and by the relay alike.
 */
export function check<S extends z.ZodMiniType>(schema: S, value: unknown, field?: string): Validated<z.output<S>> {
  const result = schema.safeParse(ownFields(value, new Map()), { reportInput: true });
  // Its output without prototypes too: zod builds it as `{}`, and every caller reads the fields a body left out.
  if (result.success) return { success: true, data: withoutPrototypes(result.data) };
  return { success: false, details: result.error.issues.map((issue) => toDetail(issue, field)) };
}

/**
 * The parsed value (unknown fields dropped, so exactly the spec's fields go on the wire; its objects without a
 * prototype, so a field it lacks reads `undefined` under a polluted `Object.prototype`: `validated(PageQuery, {}).limit`
 * read `Object.prototype.limit` and went out in the query), or a
 * `ValidationError` with the same `code` and `details` a server-side VALIDATION_ERROR carries. Where a server
 * runs (`CampaignServer`); game client code checks with the rule table instead (`http/request-validation.ts`).
 * @throws ValidationError
 */
export function validated<S extends z.ZodMiniType>(schema: S, value: unknown, field?: string): z.output<S> {
  const result = check(schema, value, field);
  return result.success ? result.data : invalid(result.details);
}

/**
 * `value` with every plain object in it (arrays' items included) set to a null prototype, in place; other objects (a
 * `Date`) as they are. An own `__proto__` key (JSON.parse makes one an own property) stays an own key. Give it a parsed
 * body or a schema's output, never a caller's object. An object already without a prototype is taken as done with all it
 * holds: every such object came from this walk or from {@link ownFields} (a parsed body's objects, which a schema's
 * output passes on as they are). Bodies reach it after the nesting check, so its walk is at most `MAX_JSON_DEPTH` deep.
 */
export function withoutPrototypes<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    for (const item of value) withoutPrototypes(item);
    return value;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  Object.setPrototypeOf(value, null);
  for (const key of Object.keys(value)) withoutPrototypes((value as Record<string, unknown>)[key]);
  return value;
}

/**
 * `value` with every plain object in it (its prototype `Object.prototype` or null) copied to a null-prototype object of
 * its own enumerable fields, and arrays copied; anything else (a `Date`, a `Uint8Array`) as it is. The caller's value is
 * not changed. `copies` keeps one copy per object, so a shared or cyclic one stays shared or cyclic, as zod saw it.
 */
function ownFields(value: unknown, copies: Map<object, unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const done = copies.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(ownFields(item, copies));
    return copy;
  }
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const copy: Record<string, unknown> = Object.create(null);
  copies.set(value, copy);
  for (const key of Object.keys(value)) copy[key] = ownFields((value as Record<string, unknown>)[key], copies);
  return copy;
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
