/**
 * Reading delivery headers from whatever a server framework hands over: a Fetch `Headers`, a plain object
 * with names in any case, a `Map` of names to values (read case-insensitively), `[name, value]` pairs, or node's
 * `IncomingHttpHeaders` (values `string | string[]`).
 */

/** The headers of a delivery, as any server framework gives them. */
export type WebhookHeadersInput =
  | { get(name: string): string | null }
  | Readonly<Record<string, string | readonly string[] | undefined>>
  | ReadonlyArray<readonly [string, string]>
  | ReadonlyMap<string, string | readonly string[]>;

/** Case-insensitive read access to the headers of one delivery (a Fetch `Headers` satisfies it). */
export interface HeaderReader {
  get(name: string): string | null;
}

/**
 * One reader over any header shape. Repeated headers are joined with a space (node gives them as an array),
 * so several `webhook-signature` headers read like one header holding several signatures. A list is read as
 * `[name, value]` pairs (Fetch's HeadersInit sequence, `[...request.headers]`): read as an object, its keys were
 * `0`, `1`, `2`, and a genuine delivery was refused as `missing_headers`.
 * @throws TypeError when `headers` is not an object, or a list that is not of `[name, value]` pairs (node's flat `req.rawHeaders`)
 */
export function readHeaders(headers: WebhookHeadersInput): HeaderReader {
  if (typeof headers !== 'object' || headers === null) throw new TypeError('headers must be a Headers object or a plain object of header names to values');
  // A Map (any realm) has a get() too, but a case-sensitive one: read its entries like any other shape.
  const isMap = Object.prototype.toString.call(headers) === '[object Map]';
  if (!isMap && typeof (headers as { get?: unknown }).get === 'function') return headers as HeaderReader;
  const entries = isMap ? mapEntries(headers as unknown as ReadonlyMap<unknown, unknown>) : Array.isArray(headers) ? pairs(headers) : Object.entries(headers as Record<string, unknown>);
  const byName = new Map<string, string>();
  for (const [name, value] of entries) {
    const text = Array.isArray(value) ? value.filter((v) => typeof v === 'string').join(' ') : value;
    if (typeof text !== 'string') continue;
    const key = name.toLowerCase();
    const before = byName.get(key);
    byName.set(key, before === undefined ? text : `${before} ${text}`);
  }
  return { get: (name) => byName.get(name.toLowerCase()) ?? null };
}

/** A Map's string-named entries (a Map from another realm fails `instanceof`, so read through Map.prototype). */
function mapEntries(map: ReadonlyMap<unknown, unknown>): Array<[string, unknown]> {
  const out: Array<[string, unknown]> = [];
  Map.prototype.forEach.call(map, (value: unknown, name: unknown) => {
    if (typeof name === 'string') out.push([name, value]);
  });
  return out;
}

/** The `[name, value]` pairs of a list. @throws TypeError for any other list */
function pairs(list: readonly unknown[]): Array<[string, unknown]> {
  if (!list.every((pair) => Array.isArray(pair) && pair.length === 2 && typeof pair[0] === 'string')) {
    throw new TypeError('headers given as a list must be [name, value] pairs; pass the Headers object or req.headers (not req.rawHeaders)');
  }
  return list as Array<[string, unknown]>;
}
