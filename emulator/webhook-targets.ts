/**
 * Where the emulator delivers webhooks: loopback, and the hosts the studio named (`webhookHosts`). Every holder of
 * the sandbox Server key (a fixed, published one by default) can register a receiver; on a shared dev box
 * (`--host 0.0.0.0`) an open target list let any of them make the emulator post to other machines of its network
 * (cloud metadata, internal services). assumed: a local emulator needs loopback and the hosts it is told of.
 */
import type { ErrorDetail } from '../core/schema/errors.js';

/** Longest receiver address taken. assumed: the common 2048-character URL limit of browsers and proxies. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

/**
 * The host names of `hosts` as a URL's `hostname` writes them (lower case, IPv6 in brackets, IPv4 dotted).
 * @throws TypeError for an entry that is not a bare host (a scheme, port, path or user name)
 */
export function webhookHostSet(hosts: readonly string[]): ReadonlySet<string> {
  // A lone string would be read character by character, each one a host.
  if (!Array.isArray(hosts)) throw new TypeError(`Invalid webhookHosts: must be an array of host names, got ${JSON.stringify(hosts)}`);
  const set = new Set<string>();
  for (const host of hosts) {
    const hostname = hostnameOf(host);
    if (hostname === undefined) throw new TypeError(`Invalid webhookHosts: ${JSON.stringify(host)} is not a host name or IP address (no scheme, port or path)`);
    set.add(hostname);
  }
  return set;
}

/** True for a bare host name or IP address (what {@link webhookHostSet} takes). */
export function isBareHost(host: string): boolean {
  return hostnameOf(host) !== undefined;
}

function hostnameOf(host: unknown): string | undefined {
  if (typeof host !== 'string' || host === '' || /[/?#@\s]/.test(host)) return undefined;
  try {
    const parsed = new URL(`http://${host.includes(':') && !host.startsWith('[') ? `[${host}]` : host}`);
    return parsed.port === '' && parsed.host === parsed.hostname ? parsed.hostname : undefined;
  } catch {
    return undefined;
  }
}

/** True for a loopback host as a URL's `hostname` writes it: `localhost`, 127.0.0.0/8, `[::1]`. */
export function isLoopbackHostname(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The problem with a receiver address that passed the schema (an absolute http(s) URL), or undefined. A user name
 * or password is refused too: fetch refuses such a URL (WHATWG Fetch, "main fetch"), so every delivery would fail.
 */
export function receiverUrlProblem(url: string, allowed: ReadonlySet<string>): ErrorDetail | undefined {
  if (url.length > MAX_WEBHOOK_URL_LENGTH) return { path: 'url', message: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` };
  const { hostname, username, password } = new URL(url);
  if (username !== '' || password !== '') return { path: 'url', message: 'must not carry a user name or password' };
  if (!isLoopbackHostname(hostname) && !allowed.has(hostname)) {
    return { path: 'url', message: "must name a loopback host (localhost, 127.0.0.1, [::1]) or one of the emulator's webhookHosts" };
  }
  return undefined;
}
