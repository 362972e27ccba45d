/**
 * Requests the relay answers before routing, the same on every runtime where the request reaches it (p50): a method it
 * does not recognize, and an expectation it cannot meet. Before, each runtime answered them its own way: an unknown
 * method (`FOO`, `post`) was a 405 or 404 on Deno, node:http's parser refused it (a 400), workerd answered a bare 501
 * and Bun closed the connection; an `Expect` other than `100-continue` was a 417 on Node only (adapters/node
 * client-error.ts), served as if absent elsewhere.
 * - RFC 9110 section 9.1: a method is case-sensitive, and "an origin server that receives a request method that is
 *   unrecognized or not implemented SHOULD respond with the 501 (Not Implemented) status code". assumed: the relay
 *   recognizes the methods RFC 9110 defines and PATCH (RFC 5789); any other is 501 `BAD_REQUEST` (the spec names no
 *   code for it, as for the 405), whatever the path. A recognized method a route does not take stays its 405.
 * - CONNECT asks for a tunnel to its target (RFC 9110 section 9.3.6), which only a proxy makes: 400 `BAD_REQUEST`, as
 *   `toNodeHandler` answers it on Node (adapters/node client-error.ts, since p31).
 * - RFC 9112 section 6.1: a server that receives a transfer coding it does not understand "SHOULD respond with 501".
 *   node:http, Deno and workerd take away `chunked` and hand the rest on undecoded (`gzip, chunked`: the relay read the
 *   gzip bytes as its JSON), Bun refuses it (bare 400). 501 `BAD_REQUEST` (probed p50).
 * - RFC 9110 section 10.1.1: a server MAY answer 417 to an expectation other than `100-continue`. assumed: 417
 *   `BAD_REQUEST`, as `toNodeHandler` has answered it since p31; the expectation is met when `100-continue` is one of
 *   its members, as node:http reads it (`_http_server.js` `continueExpression`, `/(?:^|\W)100-continue(?:$|\W)/i`).
 * Both close the connection: a body the client still sends is not read as a next request.
 */
import { errorBody } from '../schema/errors.js';

/** RFC 9110 section 9's methods and PATCH. */
const RECOGNIZED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** node:http's reading of an `Expect` that asks for `100-continue`. */
const CONTINUE_EXPECTATION = /(?:^|\W)100-continue(?:$|\W)/i;

/** 501 for a method the relay does not recognize, 400 for CONNECT, 417 for an expectation it cannot meet; else undefined. */
export function unservedRequest(request: Request): Response | undefined {
  if (!RECOGNIZED_METHODS.has(request.method)) {
    return refused(501, 'Not Implemented', `The method ${JSON.stringify(request.method)} is not one the relay recognizes (methods are case-sensitive)`);
  }
  // node:http answers CONNECT itself (adapters/node client-error.ts: 400, not a proxy). Bun and Deno hand it on, its
  // authority-form target read as a path (`CONNECT 127.0.0.1:443` routed as `3`: a 404); a path-form one was a 405.
  if (request.method === 'CONNECT') return refused(400, 'Bad Request', 'The request cannot be read: CONNECT asks for a tunnel, and the relay is not a proxy');
  const coding = otherTransferCoding(request.headers.get('transfer-encoding'));
  if (coding !== undefined) {
    return refused(501, 'Not Implemented', `The transfer coding ${JSON.stringify(coding)} is not one the relay decodes (only chunked, which the server decodes)`);
  }
  const expectation = request.headers.get('expect');
  if (expectation !== null && !CONTINUE_EXPECTATION.test(expectation)) {
    return refused(417, 'Expectation Failed', `The expectation ${JSON.stringify(expectation)} cannot be met: the relay meets only Expect: 100-continue`);
  }
  return undefined;
}

/** The first coding of a `Transfer-Encoding` other than `chunked` (case-insensitive, RFC 9112 section 7), or undefined. */
function otherTransferCoding(header: string | null): string | undefined {
  return header?.split(',').map((coding) => coding.trim()).find((coding) => coding.toLowerCase() !== 'chunked');
}

/** The spec's error body (its `error` the status's name, which the client-side table leaves out), closing the connection. */
function refused(status: number, name: string, message: string): Response {
  return new Response(JSON.stringify({ ...errorBody(status, 'BAD_REQUEST', message), error: name }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', connection: 'close' },
  });
}
