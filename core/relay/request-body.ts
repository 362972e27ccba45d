/**
 * Reading a client's JSON body with a byte cap. The cap counts the bytes that actually arrive, so a
 * missing or lying `Content-Length` cannot get a larger body past it.
 */
import { readCapped } from '../http/read-capped.js';
import { errorResponse } from './answers.js';

/** The parsed body, or the error answer to send instead. */
export type BodyResult = { ok: true; value: unknown } | { ok: false; response: Response };

/** True for `application/json` and `application/<anything>+json`, with or without parameters. */
export function isJsonContentType(header: string | null): boolean {
  if (header === null) return false;
  const type = (header.split(';')[0] ?? '').trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/**
 * Reads and parses a JSON request body of at most `maxBytes` bytes.
 * Answers 400 `BAD_REQUEST` for a wrong content type, an empty body, bytes that are not UTF-8 or text
 * that is not JSON, and 413 for a body over the cap. assumed: the spec names no code for 413; BAD_REQUEST.
 */
export async function readJsonBody(request: Request, maxBytes: number): Promise<BodyResult> {
  if (!isJsonContentType(request.headers.get('content-type'))) {
    return fail(errorResponse(400, 'BAD_REQUEST', 'Content-Type must be application/json'));
  }
  let bytes: Uint8Array | undefined;
  try {
    bytes = await readCapped(request, maxBytes);
  } catch {
    return fail(errorResponse(400, 'BAD_REQUEST', 'The body could not be read')); // the client went away mid-body
  }
  if (bytes === undefined) return fail(tooLarge(maxBytes));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail(errorResponse(400, 'BAD_REQUEST', 'The body is not valid UTF-8'));
  }
  if (text.trim() === '') return fail(errorResponse(400, 'BAD_REQUEST', 'The body is empty; a JSON object is expected'));
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return fail(errorResponse(400, 'BAD_REQUEST', 'The body is not valid JSON'));
  }
}

function tooLarge(maxBytes: number): Response {
  return errorResponse(413, 'BAD_REQUEST', `The body exceeds the relay's limit of ${maxBytes} bytes`);
}

function fail(response: Response): BodyResult {
  return { ok: false, response };
}
