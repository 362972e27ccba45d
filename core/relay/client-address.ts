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
