/** Reads and checks JSON bodies: size, content type, syntax, nesting. */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DEFAULT_BODY_LIMIT_BYTES } from '../../core/http/read-capped.js';
import { isJsonContentType } from '../../core/relay/request-body.js';
import type { AppEnv } from '../app-env.js';
import { fail } from '../respond.js';

/** Bodies above this answer 413: the relay's default cap. */
export const MAX_BODY_BYTES = DEFAULT_BODY_LIMIT_BYTES;
/** Deeper JSON answers 400 (it could not be stored and shown back safely). assumed. */
export const MAX_JSON_DEPTH = 64;

/** 413 `BAD_REQUEST` (assumed code) for a body over {@link MAX_BODY_BYTES}, using hono's bodyLimit. */
export const limitBody: MiddlewareHandler<AppEnv> = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  onError: (c) => fail(c as never, 413, 'BAD_REQUEST', `Request body exceeds ${MAX_BODY_BYTES} bytes`),
});

/**
 * Parses the body of POST/PUT/PATCH into `c.get('json')`. When `required`, a body that is not
 * `application/json` answers 415 (code `BAD_REQUEST`, assumed) and malformed or too deep JSON 400 `BAD_REQUEST`.
 * When not required (control endpoints), an empty body reads as `{}` if it declares no type or JSON. assumed: any
 * other declared type answers 415 even when empty, so an HTML form (which cannot send JSON) never gets through.
 */
export function parseJsonBody(required: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!['POST', 'PUT', 'PATCH'].includes(c.req.method)) return next();
    const text = await c.req.text();
    const type = c.req.header('content-type');
    if (!required && text.trim() === '' && (type === undefined || isJsonContentType(type))) {
      c.set('json', {});
      return next();
    }
    if (!isJsonContentType(type ?? null)) {
      return fail(c, 415, 'BAD_REQUEST', 'Request body must be JSON with Content-Type: application/json');
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return fail(c, 400, 'BAD_REQUEST', 'Request body is not valid JSON');
    }
    if (depthOf(value) > MAX_JSON_DEPTH) return fail(c, 400, 'BAD_REQUEST', `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    c.set('json', value);
    await next();
  };
}

/** Nesting depth of a parsed JSON value, without recursion (a deep value must not exhaust the stack). */
function depthOf(root: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > MAX_JSON_DEPTH) return deepest;
    for (const child of Object.values(value)) stack.push([child, depth + 1]);
  }
  return deepest;
}
