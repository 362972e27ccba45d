/**
 * Reading a request body with a byte cap that counts the bytes that actually arrive, so a missing or lying
 * `Content-Length` cannot get a larger body past it, and within a deadline. The relay, the webhook receiver and the
 * emulator read with it, and `CampaignServer` the service's answers.
 */
import { SERVICE_MAX_BODY_BYTES } from '../schema/json-limits.js';

/** The default body cap of the relay and the webhook receiver: the service's own limit (1 MiB, assumed). */
export const DEFAULT_BODY_LIMIT_BYTES = SERVICE_MAX_BODY_BYTES;

/**
 * The body's bytes, or undefined when it is over `maxBytes`: at once when its `Content-Length` says so, else as
 * soon as more than that has arrived (the rest is not read). A request's, or a response's (`CampaignServer` reads
 * the service's answers so).
 * @throws when the body cannot be read, or `signal`'s reason once it aborts (the rest is then not read)
 */
export async function readCapped(request: Pick<Request, 'headers' | 'body'>, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array | undefined> {
  if (declaresMoreThan(request.headers, maxBytes)) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const aborted = signal ? abortedPromise(signal, reader) : undefined;
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await (aborted ? Promise.race([reader.read(), aborted]) : reader.read());
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined); // the client is told 413; what it still sends is discarded
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * True when the `Content-Length` says the body is over `maxBytes`: refused before anything touches `request.body` or
 * `request.bodyUsed`. On Deno (2.9) either getter makes the body's stream, and a request whose stream exists but was
 * not read to its end keeps its connection open after the answer, waiting for the body to be read or drained (PRs
 * denoland/deno#36629, #36690): a client that sent a 2 MiB body to a relay's 413 was left on an open, half-read socket,
 * one that sent only the head for as long as it liked. Untouched, Deno closes it as Node, Bun and workerd do.
 */
export function declaresMoreThan(headers: Headers, maxBytes: number): boolean {
  return Number(headers.get('content-length')) > maxBytes;
}

/** What a body read still under way at its deadline rejects with ({@link readWithin}). */
export class BodyTimeout extends Error {}

/**
 * `read`'s outcome, given a signal that aborts it with a {@link BodyTimeout} once `timeoutMs` pass: a body that trickles
 * in (or stalls) no longer holds its request open. The relay's and the webhook receiver's one body deadline.
 * @throws BodyTimeout at the deadline; what `read` throws
 */
export async function readWithin<T>(timeoutMs: number, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new BodyTimeout()), timeoutMs);
  try {
    return await read(deadline.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** Rejects with the signal's reason once it aborts, cancelling the read so the stream is released. */
function abortedPromise(signal: AbortSignal, reader: ReadableStreamDefaultReader<Uint8Array>): Promise<never> {
  const aborted = new Promise<never>((_, reject) => {
    const abort = () => {
      reject(signal.reason); // first: cancelling settles the pending read too, and the race must see the abort
      reader.cancel().catch(() => undefined);
    };
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
  aborted.catch(() => undefined); // an abort after the body was read is nobody's error
  return aborted;
}
