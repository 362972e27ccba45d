/**
 * Answers over HTTP/2 without the connection-specific header fields HTTP/2 has no place for (RFC 9113 section 8.2.2):
 * the relay's and toNodeHandler's answers that end an HTTP/1.1 connection carry `Connection: close` (a body that did
 * not arrive in time, a request that cannot be read). node:http2's compatibility response drops such a field and warns
 * once per process (lib/internal/http2/compat.js `connectionHeaderMessageWarn`: "UnsupportedWarning: The provided
 * connection header is not valid..."), a line in the game server's log that named nothing of ours and asked nothing of
 * its operator. The stream ends with the answer; nothing else changes.
 */
import type { Http2ServerResponse } from 'node:http2';

/** The fields RFC 9113 section 8.2.2 names as connection-specific (`te` aside, which an answer does not carry). */
const CONNECTION_FIELDS = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade']);

/** Makes `response` (an HTTP/2 one) leave the connection-specific fields out of the head it writes. */
export function withoutConnectionFields(response: Http2ServerResponse): void {
  const writeHead = response.writeHead.bind(response) as (status: number, ...rest: unknown[]) => Http2ServerResponse;
  response.writeHead = ((status: number, ...rest: unknown[]) => writeHead(status, ...rest.map(withoutFields))) as Http2ServerResponse['writeHead'];
}

function withoutFields(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([name]) => !CONNECTION_FIELDS.has(name.toLowerCase())));
}
