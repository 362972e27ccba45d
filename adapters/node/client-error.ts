/**
 * Answers for the requests node:http refuses before any handler sees them, in the spec's error body: its parser's errors
 * (`clientError`: a request line and headers over 16 KiB, a `Content-Length` given twice, a control character in a
 * header, a bad chunk size). node:http's own answer (`_http_server.js` `socketOnError`) is an empty 400 or 431, which a
 * client reads as an error with no code or message, and which a browser hides from a page on another origin (no CORS
 * header: "Failed to fetch"). One implementation for `toNodeHandler` (the relay, the webhook receiver) and the
 * emulator's server (emulator/http-errors.ts).
 * @see spec "Errors" (error body, all error responses)
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { errorBody } from '../../core/schema/errors.js';

/** The status node:http gives each parser error (`socketOnError`); any other is 400. */
const STATUS_BY_PARSER_ERROR: Readonly<Record<string, number>> = {
  HPE_HEADER_OVERFLOW: 431,
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 413,
  ERR_HTTP_REQUEST_TIMEOUT: 408,
};

/** The spec's error body as JSON text, its `error` node:http's name of the status where the spec's table has none (431). */
export function errorText(status: number, code: string, message: string): string {
  const body = errorBody(status, code, message);
  return JSON.stringify(body.error === 'Error' ? { ...body, error: STATUS_CODES[status] ?? 'Error' } : body);
}

/** What the refused bytes say of the request, when they carry it: its target (path and query) and its `Origin`. */
export interface RefusedRequest {
  target: string | undefined;
  origin: string | undefined;
}

/** How a server answers a refused request. */
export interface ClientErrorAnswers {
  /** The spec's error body for `status` as JSON text. */
  body(status: number, message: string): string;
  /** The CORS headers owed to the request (none when it is unknown or not allowed). */
  cors(request: RefusedRequest): Record<string, string>;
}

/**
 * The target and `Origin` of the request at the start of `packet`, the bytes node:http's parser refused
 * (`error.rawPacket`): known when the request line (and the header) arrived in the same read as the error (a header
 * over 16 KiB sent at once), else undefined.
 */
export function refusedRequest(packet: unknown): RefusedRequest {
  if (!Buffer.isBuffer(packet)) return { target: undefined, origin: undefined };
  // The whole read (node:http hands its parser at most 64 KiB at once): a browser sends `Origin` after the headers
  // the page set, so past the 16 KiB that overflowed.
  const text = packet.subarray(0, 65536).toString('latin1');
  const line = /^[A-Z]+ (\/[!-~]*) HTTP\/1\.[01]\r\n/.exec(text);
  const head = line ? text.slice(line[0].length - 2).split('\r\n\r\n')[0]! : '';
  return { target: line?.[1], origin: /\r\norigin:[ \t]*([!-~]+)[ \t]*\r\n/i.exec(head)?.[1] };
}

/**
 * A `clientError` listener: what node:http's default does (`_http_server.js` `socketOnError`), with the spec's error
 * body and the CORS headers `answers` gives: an answer on a socket that can take one unless a response of its own is
 * already under way there (`socket._httpMessage` with its head sent: writing would corrupt it), else the socket is
 * closed as node:http closes it. A kept-alive connection that was answered before is answered too: browsers reuse
 * connections, so the request that overflows is seldom a connection's first (before, such a socket was closed without
 * an answer, which a page read as "Failed to fetch").
 */
export function clientErrorListener(answers: ClientErrorAnswers): (error: NodeJS.ErrnoException, socket: Duplex) => void {
  return (error, socket) => {
    const inFlight = (socket as Socket & { _httpMessage?: { _headerSent?: boolean } | null })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight?._headerSent) {
      socket.destroy();
      return;
    }
    const status = STATUS_BY_PARSER_ERROR[error.code ?? ''] ?? 400;
    const text = answers.body(status, `The request is not valid HTTP (${error.code ?? 'parse error'})`);
    const extra = Object.entries(answers.cors(refusedRequest((error as { rawPacket?: unknown }).rawPacket)))
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    // Destroyed once the answer is written, as node:http destroys it: end() alone leaves the reading side open
    // (node:http servers are allowHalfOpen), so a client that kept its side open held the socket until the server's
    // headersTimeout/requestTimeout.
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\n${extra}Connection: close\r\n\r\n${text}`,
      () => socket.destroy(),
    );
  };
}
