/** Where requests go. @see spec "What the service does" (Live and Sandbox environments) */
import { invalid } from './request-validation.js';

/** `live`, `sandbox`, or your own base address (the emulator, a proxy). */
export type Environment = 'live' | 'sandbox' | { baseUrl: string };

/**
 * Base addresses of the two environments. assumed: the spec shows them only as `{base_url}` and
 * `{sandbox_base_url}`; pass `{ baseUrl }` to use any other.
 */
export const BASE_URLS = {
  live: 'https://api.game-campaign.com',
  sandbox: 'https://sandbox-api.game-campaign.com',
} as const;

/**
 * The base address of an environment, without a trailing slash.
 * @throws TypeError for an unknown environment, or a base address with a query or fragment (paths go after it)
 */
export function baseUrlOf(environment: Environment): string {
  const url = typeof environment === 'string' ? BASE_URLS[environment] : environment.baseUrl;
  // A query or fragment would stand in front of every path appended to the base.
  if (typeof url !== 'string' || !/^https?:\/\/[^?#]*$/.test(url)) {
    throw new TypeError(`Unknown environment ${JSON.stringify(environment)}: use 'live', 'sandbox' or { baseUrl: 'https://…' } with no query or fragment`);
  }
  return url.replace(/\/+$/, '');
}

/**
 * The service's endpoint for a key: the environment's base address, and the key as a bearer token. Keys have
 * the form `<key_id>:<secret>` (spec, Authentication rule 1), in visible ASCII: a header cannot carry anything else, so
 * a key pasted with a curly quote or a zero-width space would fail every request as a connection error.
 * A missing key (`undefined` or `''`: an unset environment variable) is said to be missing. `options` are the
 * constructor's (`environment`, and a misplaced top-level `baseUrl` refused).
 * @throws TypeError for a missing or malformed key, an unknown environment or a top-level `baseUrl`
 */
export function apiEndpoint(key: unknown, kind: 'Client' | 'Server', options: { environment?: Environment } = {}): { baseUrl: string; headers: { authorization: string } } {
  if (typeof key !== 'string' || !/^[!-9;-~]+:[!-~]+$/.test(key)) {
    throw new TypeError(`${kind} key ${key ? '' : 'missing: '}must have the form <key_id>:<secret>`);
  }
  // A top-level `baseUrl` (where one guesses it goes; TypeScript refuses it, JavaScript did not) sent every request
  // to the sandbox in silence: read as an environment, it is refused with the message saying what goes there.
  return { baseUrl: baseUrlOf((options as { baseUrl?: Environment }).baseUrl ?? options.environment ?? 'sandbox'), headers: { authorization: `Bearer ${key}` } };
}

/**
 * Percent-encodes every interpolated value: path`/v1/server/payments/${id}`. A value of `.` or `..` is refused:
 * URL parsing resolves it (encoded or not) to another endpoint.
 * @throws ValidationError for a `.` or `..` value, or one {@link encoded} refuses
 */
export function path(strings: TemplateStringsArray, ...values: Array<string | number>): string {
  return values.reduce<string>((out, value, i) => {
    if (value === '.' || value === '..') invalid([{ path: '(path)', message: `"${value}" cannot be a path parameter` }]);
    return out + encoded(value, '(path)') + strings[i + 1];
  }, strings[0]!);
}

/**
 * `encodeURIComponent(value)`; a string with a lone surrogate (half an emoji, as text cut at a UTF-16 length leaves)
 * cannot be written in a URL, and is a `ValidationError` naming `field` rather than a `URIError`.
 * @throws ValidationError
 */
export function encoded(value: string | number | boolean, field: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return invalid([{ path: field, message: 'must not hold a lone surrogate (half an emoji)' }]);
  }
}
