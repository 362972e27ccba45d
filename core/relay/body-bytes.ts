/**
 * The bytes of a client's body, at most a cap of them. A body that declares its length is read whole by the
 * runtime's own reader (on node:http, @hono/node-server's direct read of the socket, with no Web stream and no
 * second `Request` built around it: most of what the relay paid to read a body beyond what any proxy pays);
 * one that does not is counted chunk by chunk as it arrives ({@link readCapped}).
 */
import { unlessAborted } from '../http/exchange.js';
import { readCapped } from '../http/read-capped.js';

/** `Content-Length` as a number of bytes, or undefined when it is absent or not a plain decimal. */
export function declaredLength(header: string | null): number | undefined {
  return header !== null && /^\d{1,15}$/.test(header) ? Number(header) : undefined;
}

/**
 * The body's bytes, or undefined when there are more than `maxBytes`: at once when its `Content-Length` says
 * so, else once they are counted. assumed: a declared length is what arrives, up to the cap, because the HTTP
 * server that parsed the request ends the body there (node:http, Bun, Deno and edge runtimes all do, and
 * refuse a body that also claims `Transfer-Encoding`); a `Request` built in process with a header that does
 * not match its body is read whole, then refused by its real size all the same.
 * @throws when the body cannot be read, or `signal`'s reason once it aborts (a declared body's read is then
 * left to end with its connection, which the relay's 408 closes; an undeclared one is cancelled)
 */
export async function bodyBytes(request: Request, maxBytes: number, signal: AbortSignal): Promise<Uint8Array | undefined> {
  const declared = declaredLength(request.headers.get('content-length'));
  if (declared === undefined) return readCapped(request, maxBytes, signal);
  if (declared > maxBytes) return undefined;
  const bytes = new Uint8Array(await unlessAborted(request.arrayBuffer(), signal, () => signal.reason));
  return bytes.byteLength > maxBytes ? undefined : bytes;
}
