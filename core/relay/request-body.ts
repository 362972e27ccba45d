/**
 * Reading a client's JSON body with a byte cap, a read time-out and a nesting cap. The cap holds for the bytes
 * that actually arrive, so a missing or lying `Content-Length` cannot get a larger body past it (see
 * {@link bodyBytes}); the time-out frees the request of a body that trickles in; the nesting is measured on
 * the parsed value before anything else reads it.
 */
import { BodyTimeout, declaresMoreThan, readWithin } from '../http/read-capped.js';
import { MAX_JSON_DEPTH, numbersOutOfRange, OUT_OF_RANGE_MESSAGE, parsedJsonBreaks, scanJsonDepth } from '../schema/json-limits.js';
import { errorResponse, validationErrorResponse } from './answers.js';
import { bodyBytes } from './body-bytes.js';

/**
 * The parsed body, or the error answer to send instead. `ascii`: every string in `value` is ASCII, so JSON written
 * from it has as many UTF-8 bytes as characters (the relay's measure of its upstream body then needs no walk).
 */
export type BodyResult = { ok: true; value: unknown; ascii: boolean } | { ok: false; response: Response };

/**
 * True for `application/json` and `application/<anything>+json`, with or without parameters. A `Content-Type` sent
 * twice arrives joined with ", " (Fetch's `Headers.get`, as undici and node:http join repeated field lines): taken
 * when every copy names the same JSON type with at most one set of parameters (`application/json` twice), refused
 * when they differ. assumed: RFC 9110 section 5.3 lets a recipient refuse a repeated singleton field; the same
 * value repeated means one thing, while two different types (or charsets) leave the body's meaning unknown.
 */
export function isJsonContentType(header: string | null): boolean {
  const copies = contentTypeCopies(header);
  const types = new Set(copies.map((copy) => (copy.split(';')[0] ?? '').trim().toLowerCase()));
  const parameters = new Set(copies.map((copy) => copy.slice((copy + ';').indexOf(';') + 1).replace(/\s/g, '').toLowerCase()));
  parameters.delete('');
  const [type] = types;
  return types.size === 1 && parameters.size <= 1 && (type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type!));
}

/** The copies of a `Content-Type` that may have been sent more than once (split at commas outside quoted strings). */
function contentTypeCopies(header: string | null | undefined): string[] {
  return (header?.match(/(?:[^,"]|"(?:[^"\\]|\\.)*"?)+/g) ?? []).filter((copy) => copy.trim() !== '');
}

/** For a refused `Content-Type` sent more than once with different values, the message that says so. */
export function conflictingContentType(header: string | null | undefined): string | undefined {
  const copies = new Set(contentTypeCopies(header).map((copy) => copy.replace(/\s/g, '').toLowerCase()));
  return copies.size > 1 ? `Content-Type was sent more than once with different values (${JSON.stringify(header!.slice(0, 100))}); send it once, as application/json` : undefined;
}

/** How a body is read: its byte cap and how long it may take to arrive. */
export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** The message of a nesting detail; the path names where it went too deep (`sessions.3.metadata`). */
export const TOO_DEEP_MESSAGE = `must not be nested deeper than ${MAX_JSON_DEPTH} levels in the request body`;

/** Decodes a whole body at once (no stream state), refusing bytes that are not UTF-8. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body's text, or undefined when its bytes are not UTF-8: JSON is UTF-8 (RFC 8259 section 8.1), and a byte
 * replaced by U+FFFD would change the data without an error. The relay's and the emulator's.
 */
export function utf8Text(bytes: Uint8Array | ArrayBuffer): string | undefined {
  try {
    return UTF8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * Reads and parses a JSON request body of at most `maxBytes` bytes, arriving within `timeoutMs`.
 * Answers 400 `BAD_REQUEST` for a wrong content type, an empty body, bytes that are not UTF-8 or text
 * that is not JSON, 400 `VALIDATION_ERROR` naming where JSON nests deeper than the service takes or writes a
 * number beyond a double's range, 408 for a
 * body still arriving at the time-out, 413 for a body over the cap and 415 for one that does not decode because
 * it is compressed or in another charset. assumed: the spec names no code for 408, 413 or 415; BAD_REQUEST. A body
 * the game's own code read first is its 500 `INTERNAL_ERROR` (the client keeps its data and retries).
 */
export async function readJsonBody(request: Request, limits: BodyLimits): Promise<BodyResult> {
  const contentType = request.headers.get('content-type');
  if (!isJsonContentType(contentType)) return fail(notJson(contentType));
  const { maxBytes, timeoutMs } = limits;
  // Before `bodyUsed`, which on Deno makes the body's stream and so keeps the refused client's connection open.
  if (declaresMoreThan(request.headers, maxBytes)) return fail(tooLarge(maxBytes));
  // The game's `authenticate` read the body itself (`request.json()`): nothing is left to read, through no fault of the client's.
  if (request.bodyUsed) return fail(errorResponse(500, 'INTERNAL_ERROR', 'The request body was read before the relay: an authenticate that reads it must read request.clone()'));
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readWithin(timeoutMs, (signal) => bodyBytes(request, maxBytes, signal));
  } catch (error) {
    if (error instanceof BodyTimeout) return fail(timedOut(timeoutMs));
    return fail(errorResponse(400, 'BAD_REQUEST', 'The body could not be read')); // the client went away mid-body
  }
  if (bytes === undefined) return fail(tooLarge(maxBytes));
  const text = utf8Text(bytes);
  if (text === undefined) return fail(unsupportedEncoding(request) ?? errorResponse(400, 'BAD_REQUEST', 'The body is not valid UTF-8'));
  if (text.trim() === '') return fail(errorResponse(400, 'BAD_REQUEST', 'The body is empty; a JSON object is expected'));
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return fail(unsupportedEncoding(request) ?? errorResponse(400, 'BAD_REQUEST', 'The body is not valid JSON'));
  }
  // Nothing deeper than the service takes is ever checked, stringified or forwarded. `1e400` parses as Infinity, which
  // would be forwarded as null: refused, naming where (the tracker drops that session).
  const broken = parsedJsonBreaks(value);
  if (broken === 'depth') return fail(validationErrorResponse(scanJsonDepth(text).tooDeep.map((path) => ({ path, message: TOO_DEEP_MESSAGE }))));
  if (broken === 'number') return fail(validationErrorResponse(numbersOutOfRange(value).map((path) => ({ path, message: OUT_OF_RANGE_MESSAGE }))));
  // As many characters as bytes: every byte was ASCII (a UTF-8 sequence of 2 to 4 bytes decodes to 1 or 2 characters, a
  // BOM to none). Without a `\u` escape, no string parsed from that text holds anything else.
  return { ok: true, value, ascii: text.length === bytes.byteLength && !text.includes('\\u') };
}

/**
 * For a body that did not decode as UTF-8 JSON: 415 naming the `Content-Encoding` (gzip, br) or `charset` the
 * request declared, which the relay does not undo, rather than a 400 about bytes the sender never chose. Judged
 * only after decoding failed, so a runtime or proxy that inflated the body but left the header is not refused.
 * assumed: the spec names no code for 415; BAD_REQUEST.
 */
function unsupportedEncoding(request: Request): Response | undefined {
  const message = unsupportedEncodingMessage(request.headers);
  return message === undefined ? undefined : errorResponse(415, 'BAD_REQUEST', message);
}

/**
 * The 415 message for a body that did not decode as UTF-8 JSON and whose headers say why (a `Content-Encoding` other
 * than identity, a `charset` other than UTF-8); undefined when they do not. The relay's and the emulator's.
 */
export function unsupportedEncodingMessage(headers: Headers): string | undefined {
  const encoding = (headers.get('content-encoding') ?? '').trim().toLowerCase().slice(0, 40); // named in the message, kept short
  if (encoding !== '' && encoding !== 'identity') return `Content-Encoding ${encoding} is not supported; send the JSON body uncompressed`;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(headers.get('content-type') ?? '')?.[1]?.toLowerCase().slice(0, 40);
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') return `charset ${charset} is not supported; send the JSON body as UTF-8`;
  return undefined;
}

/** 400 `BAD_REQUEST` for a request whose `Content-Type` (`header`) is not JSON. */
export function notJson(header: string | null): Response {
  return errorResponse(400, 'BAD_REQUEST', conflictingContentType(header) ?? 'Content-Type must be application/json');
}

/**
 * 413 with `Connection: close`: what the client still sends of the body is not read (RFC 9110 section 15.5.14: the
 * server MAY close the connection). Node answered `Connection: keep-alive` and then closed it; Bun kept it open
 * waiting for the rest of a body the client may never send. assumed: the spec names no code for 413; BAD_REQUEST.
 */
function tooLarge(maxBytes: number): Response {
  return errorResponse(413, 'BAD_REQUEST', `The body exceeds the relay's limit of ${maxBytes} bytes`, undefined, { connection: 'close' });
}

/**
 * 408 with `Connection: close`: the client is too slow, and what it still sends is not read.
 * assumed: the spec names no code for 408; BAD_REQUEST.
 */
function timedOut(timeoutMs: number): Response {
  return errorResponse(408, 'BAD_REQUEST', `The body did not arrive within ${timeoutMs} ms`, undefined, { connection: 'close' });
}

function fail(response: Response): BodyResult {
  return { ok: false, response };
}
