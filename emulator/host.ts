/** The host an emulator's URL names. */
import { isIP } from 'node:net';

/**
 * The host to name in the URL of an emulator listening on `host`: a wildcard address (`0.0.0.0`, `::`: every
 * interface) is no host to call, and under it the control endpoints refuse the request (not a loopback name); the
 * emulator is reached on loopback there. Any other host is named as given.
 */
export function loopbackForWildcard(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  return isIP(host) === 6 && /^[0:]+$/.test(host) ? '::1' : host;
}
