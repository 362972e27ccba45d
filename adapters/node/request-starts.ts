/**
 * The start of the request each TLS connection is reading (its target and, when it came in the same bytes, its
 * `Origin`), for the answer to a request node:http's parser refuses. Over plain HTTP node:http's parser reads from the
 * socket's handle up to 64 KiB at once, so the bytes it refused (`error.rawPacket`) began with the request line when it
 * was sent at once; over TLS it reads what the TLS socket emits, one record at a time (at most 16 KiB of plain text:
 * RFC 8446 section 5.1, RFC 5246 section 6.2.1), so headers over node:http's 16 KiB overflow in a later record than the
 * request line, and the answer could not say which path (and so which CORS headers) the request was for.
 */
import type { Duplex } from 'node:stream';
import type { TLSSocket } from 'node:tls';
import { refusedRequest, type RefusedRequest } from './refused-request.js';

const starts = new WeakMap<Duplex, RefusedRequest>();
const watched = new WeakSet<Duplex>();

/**
 * Remembers the start of each request `socket` reads, from now on, if it is a TLS socket read as HTTP/1.x (node:http
 * adds its own `data` listener to those; a plain socket's handle is read by the parser directly, and an HTTP/2 one by
 * its session). Called once per socket, more calls do nothing.
 */
export function rememberRequestStarts(socket: Duplex): void {
  const tlsSocket = socket as Partial<TLSSocket>;
  if (tlsSocket.encrypted !== true || tlsSocket.alpnProtocol === 'h2' || watched.has(socket)) return;
  watched.add(socket);
  socket.on('data', (chunk: unknown) => {
    // A request starts with its method's capital letters; body bytes and header continuations are passed over.
    if (!Buffer.isBuffer(chunk) || chunk[0]! < 0x41 || chunk[0]! > 0x5a) return;
    const start = refusedRequest(chunk);
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
