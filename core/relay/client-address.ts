/**
 * Where a request came from, for limits kept per client address. A Fetch-API `Request` has no peer address,
 * so an adapter that knows it (`toNodeHandler`: the socket's address) attaches it under a registered symbol:
 * no header, so a client cannot claim another address, and the symbol is shared by every copy of the package.
 * @see DESIGN section 6 (failed authentications)
 */

/** The property of a `Request` holding the address of the connection it arrived on. */
export const CLIENT_ADDRESS = Symbol.for('game-campaign-sdk.clientAddress');

/** A function that names the client a request came from (`undefined` when unknown: then it is not limited). */
export type ClientAddress = (request: Request) => string | undefined;

/** Attaches the peer address an adapter knows to the request it built. */
export function attachClientAddress(request: Request, address: string | undefined): void {
  if (address) Object.defineProperty(request, CLIENT_ADDRESS, { value: address, enumerable: false });
}

/**
 * The default `clientAddress`: the address an adapter attached (`toNodeHandler` attaches the socket's). Behind
 * a proxy this is the proxy's address; pass `clientAddress` to read the one your proxy forwards.
 */
export function attachedClientAddress(request: Request): string | undefined {
  const address: unknown = (request as unknown as Record<symbol, unknown>)[CLIENT_ADDRESS];
  return typeof address === 'string' && address !== '' ? address : undefined;
}

/**
 * The key an address is limited under (trimmed, a port written after it dropped: `203.0.113.9:41234` is
 * `203.0.113.9`): an IPv6 address by its /64 prefix (`2001:db8:0:7::/64`), an IPv4-mapped one
 * (`::ffff:203.0.113.9`, how a dual-stack node:http server reports an IPv4 peer) as the IPv4 address, anything else
 * (IPv4, a key of the game's own) as it is. One IPv6 subscriber or server holds a whole /64 (RFC 6177; a VPS gets
 * one routed, a phone one per connection), so keyed by full address a token guesser rotating through it had 10
 * failures per address, 2^64 times over. assumed: /64, as Cloudflare's and most rate limiters group IPv6; hosts
 * sharing one /64 are one network, as hosts behind one IPv4 NAT address are.
 */
export function limitKeyOfAddress(address: string): string {
  const text = withoutPort(address.trim());
  const groups = ipv6Groups(text);
  if (!groups) return text;
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    return [groups[6]! >> 8, groups[6]! & 255, groups[7]! >> 8, groups[7]! & 255].join('.');
  }
  return `${groups.slice(0, 4).map((group) => group.toString(16)).join(':')}::/64`;
}

/**
 * An address without the port a proxy wrote after it: Azure Application Gateway's `X-Forwarded-For` is a list of
 * `IP:port` (azure.microsoft.com/en-us/blog/rewrite-http-headers-with-azure-application-gateway), and RFC 7239's
 * `Forwarded: for=` allows `"[2001:db8::1]:4711"` and `"192.0.2.43:47011"`. The port is the client's source port,
 * new for each connection: keyed with it, a token guesser opening a new connection per guess was never limited.
 * Only an IPv4 address or a bracketed IPv6 one loses its port; anything else (a bare IPv6 address, whose last group
 * a port would look like, or a key of the game's own) is kept as it is.
 */
function withoutPort(address: string): string {
  const port = /^(\d{1,3}(?:\.\d{1,3}){3}|\[[^\]]*\]):\d{1,5}$/.exec(address);
  return port ? (port[1] as string) : address;
}

/** The eight 16-bit groups of an IPv6 address (brackets and a zone `%eth0` allowed), or undefined for anything else. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address.trim().replace(/^\[(.*)\]$/, '$1').replace(/%[^%]*$/, '');
  if (!text.includes(':')) return undefined;
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) as its two groups.
  const v4 = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (v4) {
    const bytes = v4.slice(2).map(Number);
    if (bytes.some((byte) => byte > 255)) return undefined;
    text = `${v4[1]}${((bytes[0]! << 8) | bytes[1]!).toString(16)}:${((bytes[2]! << 8) | bytes[3]!).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (half: string | undefined) => (half ? half.split(':') : []);
  const head = parse(halves[0]);
  const tail = parse(halves[1]);
  const given = [...head, ...tail];
  if (!given.every((group) => /^[0-9a-f]{1,4}$/i.test(group))) return undefined;
  if (halves.length === 1 ? given.length !== 8 : given.length > 7) return undefined;
  const zeros = Array<string>(8 - given.length).fill('0');
  return [...head, ...zeros, ...tail].map((group) => parseInt(group, 16));
}

/**
 * Attaches the peer address the runtime's server hands the handler beside the request (its second argument), when
 * nothing attached one before: `@hono/node-server`'s bindings (`incoming.socket.remoteAddress`, also under `server`,
 * as its `getConnInfo` reads them; what Hono's `c.env` is on Node), Bun's `Server` (`requestIP(request).address`,
 * Bun.serve's `fetch(request, server)`) and Deno's `ServeHandlerInfo` (`remoteAddr.hostname`, Deno.serve's
 * `handler(request, info)`). A Worker's second argument is its bindings, none of which has these shapes.
 */
export function attachContextAddress(request: Request, context: unknown): void {
  if (typeof context !== 'object' || context === null || attachedClientAddress(request) !== undefined) return;
  type Context = {
    incoming?: { socket?: { remoteAddress?: unknown } };
    server?: { incoming?: { socket?: { remoteAddress?: unknown } } };
    requestIP?: unknown;
    remoteAddr?: { hostname?: unknown };
  };
  const { incoming, server, requestIP, remoteAddr } = context as Context;
  let address: unknown;
  try {
    address =
      typeof requestIP === 'function'
        ? (requestIP.call(context, request) as { address?: unknown } | null)?.address
        : (remoteAddr?.hostname ?? (incoming ?? server?.incoming)?.socket?.remoteAddress);
  } catch {
    return;
  }
  if (typeof address === 'string') attachClientAddress(request, address);
}
