/**
 * An HTTP/1.0 request with `Transfer-Encoding`. RFC 9112 section 6.1: a server that receives one "MUST treat the message
 * as if the framing is faulty" (chunked is an HTTP/1.1 coding; a proxy in front may have read the body otherwise), and
 * close the connection. Bun, Deno and workerd refuse it before any handler (a bare 400; probed on Bun 1.4.4, Deno 2.9.6,
 * workerd 1.20261117.1: "unexpected transfer-encoding parsed"); node:http (llhttp) read it by its chunks and the relay
 * served it (p50). Now 400 `BAD_REQUEST` in the spec's error body on Node, the same status as elsewhere.
 */
import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import { errorResponse } from '../../core/relay/answers.js';

/** The 400 for `req` when it is HTTP/1.0 and names a transfer coding; undefined for any other request. */
export function faultyFraming(req: IncomingMessage | Http2ServerRequest): Response | undefined {
  if (req.httpVersion !== '1.0' || req.headers['transfer-encoding'] === undefined) return undefined;
  return errorResponse(400, 'BAD_REQUEST', 'The request cannot be read: an HTTP/1.0 request cannot carry Transfer-Encoding, so its body has no trusted length', undefined, {
    connection: 'close',
  });
}
