/**
 * The hosts a developer tests on, which no public network carries: the only ones a relay's `webviewUrl` may name over
 * `http:` (see ./webview-url.ts). assumed: loopback (`localhost`, `*.localhost`, 127.0.0.0/8, `[::1]`), private and
 * link-local IPv4 (10/8, 172.16/12, 192.168/16, 169.254/16), IPv6 unique local (fc00::/7) and link-local (fe80::/10),
 * a name without a dot (no public DNS name is one: ICANN does not delegate dotless names, so only a hosts file, a
 * local resolver or Docker's network reaches it, as `http://emulator` in the emulator guide), and the names reserved
 * for local use: `.local` (mDNS, RFC 6762), `.test` (RFC 6761), `.internal` (ICANN, 2024), `.home.arpa` (RFC 8375).
 * Not 0.0.0.0 (no destination; Chromium blocks it), not 100.64/10 (a carrier's shared space crosses a café's
 * network), not IPv4-mapped IPv6 (`[::ffff:127.0.0.1]`) nor the retired fec0::/10.
 */

const LOCAL_NAME = /(^|\.)(localhost|local|test|internal|home\.arpa)$/;
const IPV4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/;
/** The first group of 4 hex digits: fc00::/7 (fc.., fd..) and fe80::/10 (fe8., fe9., fea., feb.). A shorter first group is below fc00. */
const LOCAL_IPV6 = /^(f[cd][0-9a-f]{2}|fe[89ab][0-9a-f]):/;

/**
 * Whether `hostname`, a WHATWG URL's (lower case, IPv4 in dotted decimal whatever form was written, IPv6 in
 * brackets and compressed), is a host a developer tests on.
 */
export function isLocalHost(hostname: string): boolean {
  const host = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (host.startsWith('[')) return host === '[::1]' || LOCAL_IPV6.test(host.slice(1));
  const ipv4 = IPV4.exec(host);
  if (ipv4) {
    const [a, b] = [Number(ipv4[1]), Number(ipv4[2])];
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254);
  }
  return !host.includes('.') || LOCAL_NAME.test(host);
}
