/**
 * Reading delivery headers from whatever a server framework hands over: a Fetch `Headers`, a plain object
 * with names in any case, or node's `IncomingHttpHeaders` (values `string | string[]`).
 */

/** The headers of a delivery, as any server framework gives them. */
export type WebhookHeadersInput =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>;

/** Case-insensitive read access to the headers of one delivery (a Fetch `Headers` satisfies it). */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * One reader over any header shape. Repeated headers are joined with a space (node gives them as an array),
 * so several `webhook-signature` headers read like one header holding several signatures.
 * @throws TypeError when `headers` is not an object
 */
export function readHeaders(headers: WebhookHeadersInput): HeaderReader {
  if (typeof headers !== 'object' || headers === null) throw new TypeError('headers must be a Headers object or a plain object of header names to values');
  if (typeof headers.get === 'function') return headers as HeaderReader;
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(' ') : value;
    if (typeof text !== 'string') continue;
    const key = name.toLowerCase();
    const before = byName.get(key);
    byName.set(key, before === undefined ? text : `${before} ${text}`);
  }
  return { get: (name) => byName.get(name.toLowerCase()) ?? null };
}
