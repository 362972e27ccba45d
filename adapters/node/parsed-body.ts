/** A body a framework's parser (Express's `express.json()`, `raw()`, `text()`) read before the relay: its bytes again. */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { errorResponse, validationErrorResponse } from '../../core/relay/answers.js';
import { TOO_DEEP_MESSAGE } from '../../core/relay/request-body.js';

/**
 * A body parser mounted before us has read the stream: @hono/node-server then takes `req.rawBody`, and only as
 * a Buffer. A string `rawBody` (a `verify` hook that kept text) becomes its UTF-8 bytes; without one, the
 * parser's result does: the bytes (`express.raw()`), the text (`express.text()`) or JSON written back
 * (`express.json()`: the relay's routes take nothing else). The webhook middleware refuses that last case
 * before calling us, since a signature covers the exact bytes.
 */
export function useParsedBody(req: (IncomingMessage | Http2ServerRequest) & { rawBody?: unknown; body?: unknown }): Response | undefined {
  // @hono/node-server takes `rawBody` only as a Buffer (`instanceof Buffer`): bytes in another shape are made one, and
  // anything else (`null`, a number a hook left) is no raw body, so the parser's result is used. Before, with a stream
  // already read, either was answered 400 "The body could not be read".
  if (req.rawBody !== undefined && !Buffer.isBuffer(req.rawBody)) req.rawBody = asBytes(req.rawBody);
  if (req.rawBody !== undefined || !req.readableDidRead || req.body === undefined) return undefined;
  const { body } = req;
  // The bytes (`express.raw()`), the text (`express.text()`), or bytes in another shape (a framework's Uint8Array, an
  // ArrayBuffer: before, written as JSON, `{"0":123,...}`).
  const bytes = asBytes(body);
  if (bytes) {
    req.rawBody = bytes;
    return undefined;
  }
  const text = parsedBodyText(body);
  if (typeof text === 'string') req.rawBody = Buffer.from(text);
  return text instanceof Response ? text : undefined;
}

/** Marks a non-finite number in a parsed body, replaced in the text by a number JSON.parse reads as Infinity again. */
const NOT_FINITE = '\u0000game-campaign-sdk:not-finite\u0000';

/**
 * A parser's result written back as JSON text, as the client's bytes would have read. A number the parser read as
 * Infinity (`1e400`: JSON.parse's) is written `1e400`, so the relay refuses it naming where, as it refuses it in a body
 * it reads itself; `JSON.stringify` wrote `null`, which was forwarded as the player's. A value JSON.stringify cannot
 * write is answered 400 in the spec's error body: nesting deeper than its stack (a few thousand levels, well under
 * express.json()'s 100 KB) as the relay answers JSON nested too deep, a BigInt (a parser that keeps large integers) as
 * BAD_REQUEST. Before, the thrown error left the handler's promise rejected: no answer, and under Express 4 (which drops
 * a middleware's promise) an unhandled rejection, which ends a Node process.
 */
function parsedBodyText(body: unknown): string | Response {
  let text: string | undefined;
  try {
    text = JSON.stringify(body, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? `${NOT_FINITE}${value < 0 ? '-' : ''}` : value));
  } catch (error) {
    if (error instanceof RangeError) return validationErrorResponse([{ path: '(body)', message: TOO_DEEP_MESSAGE }]);
    return unwritable(error instanceof TypeError ? error.message : 'reading it threw');
  }
  // A value JSON.stringify leaves out (a `toJSON` answering undefined, a function): before, `text.includes` threw.
  if (typeof text !== 'string') return unwritable(`it is ${typeof body === 'object' ? 'an object whose toJSON gives nothing' : `a ${typeof body}`}`);
  // As JSON.stringify writes the marker (its NULs escaped); a client's string equal to it is refused as its own number.
  const marker = JSON.stringify(NOT_FINITE);
  return text.includes(marker.slice(1, -1)) ? text.split(JSON.stringify(`${NOT_FINITE}-`)).join('-1e400').split(marker).join('1e400') : text;
}

/**
 * 400 `BAD_REQUEST` for a parser's result that cannot be written back. JSON.stringify's own TypeError (a BigInt, a
 * circular object) is named; what a getter of the parser's object threw is not sent: it is the server's (before, its
 * message went to the player, and a thrown value with no `message` and no `toString`, a null-prototype object, threw
 * again in the catch, the handler's promise rejected with no answer).
 */
function unwritable(why: string): Response {
  return errorResponse(400, 'BAD_REQUEST', `The body a parser mounted before the relay read cannot be written back as JSON (${why})`);
}

/** `value` as a Buffer when it is a body's bytes or text: a Buffer, a string (UTF-8), any view of bytes, an ArrayBuffer. */
export function asBytes(value: unknown): Buffer | undefined {
  if (Buffer.isBuffer(value)) return value;
  if (typeof value === 'string') return Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return Object.prototype.toString.call(value) === '[object ArrayBuffer]' ? Buffer.from(value as ArrayBuffer) : undefined;
}
