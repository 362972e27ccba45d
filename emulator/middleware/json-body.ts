/** Reads and checks JSON bodies: size, content type, syntax, nesting. */
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { MAX_JSON_DEPTH, numbersOutOfRange, OUT_OF_RANGE_MESSAGE, SERVICE_MAX_BODY_BYTES, scanJsonDepth } from '../../core/schema/json-limits.js';
import { conflictingContentType, isJsonContentType, unsupportedEncodingMessage, utf8Text } from '../../core/relay/request-body.js';
import type { AppEnv } from '../app-env.js';
import { withoutPrototypes } from '../data-only.js';
import { fail, invalid } from '../respond.js';

/** Bodies above this answer 413: the service's limit, which the relay splits its merged calls under. */
export const MAX_BODY_BYTES = SERVICE_MAX_BODY_BYTES;
/** Deeper JSON answers 400 (it could not be stored and shown back safely); the relay refuses it per item. */
export { MAX_JSON_DEPTH };

const capped = bodyLimit({
  maxSize: MAX_BODY_BYTES,
  // `Connection: close`: the rest of the body is never read, and Node then drops the socket; a client told keep-alive
  // would send its next request on it and see a network error ("other side closed") for a request it made right.
  onError: (c) => (c.header('connection', 'close'), fail(c as never, 413, 'BAD_REQUEST', `Request body exceeds ${MAX_BODY_BYTES} bytes`)),
});

/**
 * 413 `BAD_REQUEST` (assumed code) for a body over {@link MAX_BODY_BYTES}, using hono's bodyLimit (which reads a
 * body sent without a Content-Length); a body whose reading fails is {@link unreadableBody}.
 */
export const limitBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  let read = false;
  try {
    return await capped(c, () => ((read = true), next()));
  } catch (error) {
    if (read) throw error;
    return unreadableBody(c);
  }
};

/**
 * 400 `BAD_REQUEST` for a body that stopped arriving (the client closed the connection, or its stream failed): bad
 * input, not an emulator fault, so neither a 500 nor an "unexpected error" in the log.
 */
function unreadableBody(c: Context<AppEnv>): Response {
  return fail(c, 400, 'BAD_REQUEST', 'The request body could not be read: the connection closed before it ended');
}

/**
 * 400 `BAD_REQUEST` with `message` for a body that did not decode as UTF-8 JSON, or 415 when its headers say why: a
 * `Content-Encoding` (gzip) or a `charset` other than UTF-8 the emulator does not undo, as the relay answers
 * (core/relay/request-body.ts). assumed: code `BAD_REQUEST` for 415, as for a body that is not JSON.
 */
function undecodable(c: Context<AppEnv>, message: string): Response {
  const unsupported = unsupportedEncodingMessage(c.req.raw.headers);
  return unsupported === undefined ? fail(c, 400, 'BAD_REQUEST', message) : fail(c, 415, 'BAD_REQUEST', unsupported);
}

/**
 * Parses the body of POST/PUT/PATCH, and of a DELETE that has one (`isTest`, spec "Test mode"), into `c.get('json')`.
 * When `required`, a body that is not
 * `application/json` answers 415 (code `BAD_REQUEST`, assumed) and malformed or too deep JSON, or bytes that are not
 * UTF-8, 400 `BAD_REQUEST` (415 when a declared charset or Content-Encoding explains them); a number beyond a
 * double's range (`1e400`) 400 `VALIDATION_ERROR` naming its path.
 * When not required (control endpoints), an empty body reads as `{}` if it declares no type or JSON. assumed: any
 * other declared type answers 415 even when empty, so an HTML form (which cannot send JSON) never gets through.
 */
export function parseJsonBody(required: boolean): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(c.req.method)) return next();
    let bytes: ArrayBuffer;
    try {
      // The raw request's own reader: hono's `c.req.arrayBuffer()` looks for a cached body with `for...in` over `{}`
      // (hono request.js `#cachedBody`), which lists a key enumerable on a polluted `Object.prototype`, and then
      // calls `.then` on its value: every body read as "could not be read".
      bytes = await c.req.raw.arrayBuffer();
    } catch {
      return unreadableBody(c);
    }
    // A DELETE may come without a body (then it has no JSON); one it carries is read as any other write's.
    if (c.req.method === 'DELETE' && bytes.byteLength === 0) return next();
    const type = c.req.header('content-type');
    const text = utf8Text(bytes); // undefined for bytes that are not UTF-8: refused below, as the relay refuses them
    if (!required && text?.trim() === '' && (type === undefined || isJsonContentType(type))) {
      c.set('json', {});
      return next();
    }
    if (!isJsonContentType(type ?? null)) {
      return fail(c, 415, 'BAD_REQUEST', conflictingContentType(type) ?? 'Request body must be JSON with Content-Type: application/json');
    }
    if (text === undefined) return undecodable(c, 'Request body is not valid UTF-8');
    // Measured on the text before parsing: the relay applies the same rule to the same text.
    if (scanJsonDepth(text).depth > MAX_JSON_DEPTH) return fail(c, 400, 'BAD_REQUEST', `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return undecodable(c, 'Request body is not valid JSON');
    }
    // `1e400` parses as Infinity, which would be stored and shown back as null: refused, naming where, as the relay does.
    const outOfRange = numbersOutOfRange(value);
    if (outOfRange.length > 0) return invalid(c, outOfRange.map((path) => ({ path, message: OUT_OF_RANGE_MESSAGE })));
    // No prototypes: a field the body lacks must not be read from a polluted `Object.prototype` (data-only.ts).
    c.set('json', withoutPrototypes(value));
    await next();
  };
}
