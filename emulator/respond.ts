/** Building responses: `{ data }`, pages, the spec's error body, query coercion and bulk item errors. */
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import * as z from 'zod/mini';
import { CODE_BY_STATUS, errorBody, type ErrorCode, type ErrorDetail } from '../core/schema/errors.js';
import { WriteOptions, type Pagination } from '../core/schema/primitives.js';
import { check } from './data-only.js';
import type { AppContext } from './app-env.js';

/**
 * `value` as JSON with `status`. Not hono's `c.json`: it spreads its headers into an object and reads it with
 * `for...in` (hono context.js `setDefaultContentType`, `#newResponse`), which also lists a key enumerable on
 * `Object.prototype`, so in a process where a library polluted it (`Object.prototype.x = {}`) every answer, the 500
 * for that failure included, threw ("v is not iterable"). The headers here are an init object `new Headers` reads by
 * its own keys only.
 */
export function json(c: AppContext, value: unknown, status: ContentfulStatusCode = 200): Response {
  return c.body(JSON.stringify(value), { status, headers: { 'content-type': 'application/json' } });
}

/** `{ data }` with status 200 (or the one given). */
export function ok(c: AppContext, data: unknown, status: ContentfulStatusCode = 200): Response {
  return json(c, { data }, status);
}

/** An error response in the spec's shape. */
export function fail(c: AppContext, status: ContentfulStatusCode, code: ErrorCode, message: string, details?: ErrorDetail[]): Response {
  return json(c, errorBody(status, code, message, details), status);
}

/** 400 (or 422) `VALIDATION_ERROR` with `details`; the message names the first problem and counts the others. */
export function invalid(c: AppContext, details: ErrorDetail[], status: 400 | 422 = 400): Response {
  const more = details.length > 1 ? ` (and ${details.length - 1} more)` : '';
  return fail(c, status, 'VALIDATION_ERROR', `Request validation failed: ${describeDetails(details.slice(0, 1))}${more}`, details);
}

/**
 * The code of an error the emulator did not answer itself (a hono `HTTPException`): the spec's code for the
 * status where the spec names one, `INTERNAL_ERROR` for 5xx. assumed: any other 4xx, 413 and 415 included,
 * answers `BAD_REQUEST`, as the body checks do for 413 and 415.
 */
export function codeForStatus(status: number): ErrorCode {
  return CODE_BY_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
}

/** The app's `onError`: an `HTTPException` in the spec's error body, anything else 500 `INTERNAL_ERROR` (logged). */
export function answerError(error: Error, c: AppContext): Response {
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    return fail(c, status, codeForStatus(status), error.message || 'Request failed');
  }
  console.error('[game-campaign-emulator] unexpected error', error);
  return fail(c, 500, 'INTERNAL_ERROR', 'Internal error in the emulator');
}

/** 404 `NOT_FOUND`. */
export function notFound(c: AppContext, message: string): Response {
  return fail(c, 404, 'NOT_FOUND', message);
}

/** `path: message` of every detail, joined with `; ` (the `error` of a FAILED bulk item). */
export function describeDetails(details: ErrorDetail[]): string {
  return details.map((detail) => `${detail.path}: ${detail.message}`).join('; ');
}

/** A decimal numeral (`12`, `1.5`): what a query's number is written as. `Number()` would also read `0x10`, `1e1`, ` 5`. */
const DECIMAL = /^-?\d+(\.\d+)?$/;

/**
 * The request's query parameters, each by its decoded name, in an object without a prototype. Not hono's
 * `c.req.query()`: it fills `{}` with `results[name] ??= value` (hono utils/url.ts `_getQueryParam`), so a name
 * enumerable on a polluted `Object.prototype` (`limit`) was never set, and a schema then read the inherited value.
 * decodable-url.ts has already refused names and values that do not decode and names given twice.
 */
export function queryOf(c: AppContext): Record<string, string> {
  const query: Record<string, string> = Object.create(null);
  for (const [name, value] of new URL(c.req.url).searchParams) query[name] = value;
  return query;
}

/**
 * Query strings as typed values for schema checks: decimal numerals of `numbers` become numbers, `true`/`false` of
 * `booleans` become booleans; anything else stays a string so the schema reports it (`must be a number`). The
 * result has no prototype: a schema reading an optional parameter the query lacks must not find it inherited.
 */
export function coerceQuery(query: Record<string, string>, numbers: string[], booleans: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = Object.assign(Object.create(null), query);
  for (const name of numbers) {
    const value = Object.hasOwn(query, name) ? query[name] : undefined;
    if (value !== undefined && DECIMAL.test(value)) out[name] = Number(value);
  }
  for (const name of booleans) {
    const value = Object.hasOwn(query, name) ? query[name] : undefined;
    if (value === 'true' || value === 'false') out[name] = value === 'true';
  }
  return out;
}

/** One page of `items`: page 1 and limit 20 by default; a page past the end is empty. */
export function paginate<T>(items: readonly T[], page = 1, limit = 20): { data: T[]; pagination: Pagination } {
  const start = (page - 1) * limit;
  return {
    data: items.slice(start, start + limit),
    pagination: { page, limit, total: items.length, totalPages: Math.ceil(items.length / limit) },
  };
}

/**
 * Splits the problems of a bulk body into those of the envelope (answered 400 as a whole) and those inside
 * items of the `field` array (reported per item).
 */
export function envelopeProblems(details: ErrorDetail[], field: string): ErrorDetail[] {
  const itemPath = new RegExp(`^${field}\\.\\d+(\\.|$)`);
  return details.filter((detail) => !itemPath.test(detail.path));
}

const WriteOptionsOnly = z.object(WriteOptions);

/** `isTest` and `callbackId` of a body whose envelope already passed its schema. */
export function writeOptionsOf(body: unknown): { isTest: boolean; callbackId?: string } {
  const checked = check(WriteOptionsOnly, body);
  if (!checked.success) return { isTest: false };
  return { isTest: checked.data.isTest === true, ...(checked.data.callbackId !== undefined ? { callbackId: checked.data.callbackId } : {}) };
}
