/**
 * What the bytes node:http's parser refused say of the request (its target and `Origin`), for the CORS headers of the
 * answer (client-error.ts).
 */

/** What the refused bytes say of the request, when they carry it: its target (path and query) and its `Origin`. */
export interface RefusedRequest {
  target: string | undefined;
  origin: string | undefined;
}

/**
 * The target and `Origin` of the request at the start of `packet`, the bytes node:http's parser refused
 * (`error.rawPacket`): known when the request line (and the header) arrived in the same read as the error (a header
 * over 16 KiB sent at once), else undefined. With `continued`, `packet` may begin inside the request's headers (a
 * later TLS record of it, request-starts.ts): its `Origin` is read all the same.
 */
export function refusedRequest(packet: unknown, continued = false): RefusedRequest {
  if (!Buffer.isBuffer(packet)) return { target: undefined, origin: undefined };
  // The whole read (node:http hands its parser at most 64 KiB at once): a browser sends `Origin` after the headers
  // the page set, so past the 16 KiB that overflowed.
  const text = packet.subarray(0, 65536).toString('latin1');
  const line = /^[A-Z]+ (\/[!-~]*) HTTP\/1\.[01]\r\n/.exec(text);
  if (!line && !continued) return { target: undefined, origin: undefined };
  // The header lines up to the blank line that ends them, each with its CRLF (the last one's too: a browser's `Origin`
  // is often the last); a field cut off at the end of the bytes is not read.
  const end = text.indexOf('\r\n\r\n');
  const head = text.slice(line ? line[0].length - 2 : 0, end === -1 ? undefined : end + 2);
  return { target: line?.[1], origin: /(?:^|\r\n)origin:[ \t]*([!-~]+)[ \t]*\r\n/i.exec(head)?.[1] };
}
