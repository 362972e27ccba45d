/**
 * The start of the request each HTTP/1.x connection is reading (its target and, when it came in the same bytes, its
 * `Origin`), for the answer to a request node:http's parser refuses: the bytes it refused (`error.rawPacket`) are those
 * of its last read alone (`_http_server.js` `onParserExecuteCommon`: the `data` chunk, or `parser.getCurrentBuffer()`
 * of a socket it reads itself), so a request line that came in an earlier read is not in them. Over TLS the parser reads
 * what the TLS socket emits, one record at a time (at most 16 KiB of plain text: RFC 8446 section 5.1, RFC 5246
 * section 6.2.1), so headers over node:http's 16 KiB always overflow in a later record than the request line. Over
 * plain HTTP a browser's headers cross a real network a few TCP segments at a time, and the parser reads what has come.
 */
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { refusedRequest, type RefusedRequest } from './refused-request.js';

const starts = new WeakMap<Duplex, RefusedRequest>();
const watched = new WeakSet<Duplex>();

/** `\r\n\r\n`, where a request's header ends. */
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * Remembers the start of each request `socket` reads, from now on, if it is read as HTTP/1.x (an HTTP/2 one is read by
 * its session). Called once per socket, more calls do nothing. A plain socket's handle is read by node:http's parser
 * itself until a `data` listener is added: node:http then reads it through `data` events (`_http_server.js`
 * `generateSocketListenerWrapper` unconsumes it, as for any listener a server's code adds), its own listener first, so
 * this one sees each read after the parser did.
 */
export function rememberRequestStarts(socket: Duplex): void {
  if ((socket as Partial<TLSSocket>).alpnProtocol === 'h2' || watched.has(socket)) return;
  watched.add(socket);
  socket.on('data', (chunk: unknown) => {
    // A request starts with its method's capital letters; body bytes and header continuations are passed over.
    if (!Buffer.isBuffer(chunk) || chunk[0]! < 0x41 || chunk[0]! > 0x5a) return;
    // Its header only, not the body that came with it (up to 64 KiB a read): what refusedRequest reads of it.
    const end = chunk.indexOf(HEADER_END);
    const start = refusedRequest(end === -1 ? chunk : chunk.subarray(0, end + HEADER_END.length));
    if (start.target !== undefined) starts.set(socket, start);
  });
}

/**
 * What is known of the request `socket`'s parser refused in `packet`: from `packet` when it holds the request line,
 * else from the start of the request the socket was reading (`Origin` from either).
 */
export function requestRefusedOn(socket: Duplex, packet: unknown): RefusedRequest {
  const refused = refusedRequest(packet);
  if (refused.target !== undefined) return refused;
  const start = starts.get(socket);
  return { target: start?.target, origin: start?.origin ?? refusedRequest(packet, true).origin };
}
