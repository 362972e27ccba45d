/**
 * What the service refuses in any JSON body, written once: the emulator enforces these rules and the relay
 * applies the same ones per item before it merges batches, so what the relay forwards is never refused for
 * its size or its nesting.
 * @see DESIGN section 6; docs/decisions.md ("Request body limit", "JSON nesting")
 */

/** The largest request body the service takes, in bytes (413 above). assumed: 1 MiB (the spec shows none). */
export const SERVICE_MAX_BODY_BYTES = 1024 * 1024;

/** The deepest JSON the service takes: `{}` is 1 level, `{"a":[1]}` 2. assumed: 64 levels (the spec shows none). */
export const MAX_JSON_DEPTH = 64;

/** How many leading segments a {@link JsonDepthScan} path keeps (`sessions.3.metadata`). */
const PATH_SEGMENTS = 3;
/** At most this many too-deep paths are reported (an error body names them; it need not name thousands). */
const MAX_REPORTED_PATHS = 20;

/** What {@link scanJsonDepth} found. */
export interface JsonDepthScan {
  /** The deepest nesting in the text. */
  depth: number;
  /** Where the nesting went past the limit: the first segments of the path, dot-joined (`(body)` at the root). */
  tooDeep: string[];
}

/**
 * The nesting depth of JSON text, found without parsing it: one pass over the characters with a counter,
 * so it costs O(n) and no stack whatever the depth (100,000 levels included): the emulator's check of every body,
 * and where the relay names the paths of a body {@link parsedJsonBreaks} found too deep. Brackets inside strings are
 * skipped. The text is not validated: `JSON.parse` still judges its syntax.
 */
export function scanJsonDepth(text: string, maxDepth: number = MAX_JSON_DEPTH): JsonDepthScan {
  const segments: Array<string | number> = [];
  const inArray: boolean[] = [];
  const tooDeep = new Set<string>();
  let depth = 0;
  let deepest = 0;
  let keyStart = -1;
  let keyEnd = -1;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      const start = i + 1;
      i = closingQuote(text, start);
      if (depth >= 1 && depth <= PATH_SEGMENTS && !inArray[depth - 1]) {
        keyStart = start;
        keyEnd = i;
      }
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      depth++;
      if (depth > deepest) deepest = depth;
      if (depth <= PATH_SEGMENTS) {
        inArray[depth - 1] = c === 0x5b;
        segments[depth - 1] = c === 0x5b ? 0 : '';
      }
      if (depth === maxDepth + 1 && tooDeep.size < MAX_REPORTED_PATHS) tooDeep.add(pathOf(segments, depth - 1));
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    } else if (depth >= 1 && depth <= PATH_SEGMENTS) {
      if (c === 0x3a /* : */ && !inArray[depth - 1] && keyEnd >= 0) segments[depth - 1] = keyText(text, keyStart, keyEnd);
      else if (c === 0x2c /* , */ && inArray[depth - 1]) segments[depth - 1] = (segments[depth - 1] as number) + 1;
    }
  }
  return { depth: deepest, tooDeep: [...tooDeep] };
}

/**
 * True when JSON text holds more than `maxValues` values, counted as the brackets that open a container and the
 * commas that add a member or an element (outside strings), in one pass that stops at the first value too many.
 * What a parse costs in memory follows that count more than the text's length: 32 MiB of `[{},{},...]` took 715 MiB
 * of V8's heap to parse, 32 MiB of `[[[...]]]` 928 MiB, and a heap of 512 MiB ended the process (Node 20,
 * `process.memoryUsage`). `CampaignServer` reads the service's answers through it (core/server/server-fetch.ts).
 */
export function holdsMoreValuesThan(text: string, maxValues: number): boolean {
  let values = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = closingQuote(text, i + 1);
    else if ((c === 0x7b /* { */ || c === 0x5b /* [ */ || c === 0x2c) /* , */ && ++values > maxValues) return true;
  }
  return false;
}

/** The index of the quote that closes a string opened before `start` (the text's end when it is unclosed). */
function closingQuote(text: string, start: number): number {
  let at = start;
  for (;;) {
    const quote = text.indexOf('"', at);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** A key as JSON means it (escapes resolved when it has any). */
function keyText(text: string, start: number, end: number): string {
  const raw = text.slice(start, end);
  if (!raw.includes('\\')) return raw;
  try {
    return JSON.parse(`"${raw}"`) as string;
  } catch {
    return raw;
  }
}

function pathOf(segments: ReadonlyArray<string | number>, containers: number): string {
  const kept = segments.slice(0, Math.min(containers, PATH_SEGMENTS));
  return kept.length === 0 ? '(body)' : kept.join('.');
}

/** True when every character is ASCII (then the UTF-8 length is the string's length). */
const ASCII_ONLY = /^[\x00-\x7f]*$/;

/**
 * The UTF-8 byte length of a string, without encoding it. JSON text from `JSON.stringify` holds no lone
 * surrogate (it escapes them), so each surrogate half is 2 of a pair's 4 bytes.
 */
export function utf8Length(text: string): number {
  if (ASCII_ONLY.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) bytes += c < 0x800 || (c >= 0xd800 && c <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}

/** The detail message of a number {@link numbersOutOfRange} finds. */
export const OUT_OF_RANGE_MESSAGE = 'must be a finite number (this one is beyond the range of a JSON number, about 1.8e308)';

/**
 * Where parsed JSON holds a number that is not finite: `1e400` in the text parses as Infinity, which
 * `JSON.stringify` writes back as `null`, so a `metadata` value was stored or forwarded as `null` (data changed
 * without an error). Full dot-joined paths (`sessions.3.metadata.score`, `(body)` at the root), at most 20.
 * Called only once the nesting passed ({@link parsedJsonBreaks}, or the emulator's scan of the text), so the walks are
 * at most {@link MAX_JSON_DEPTH} deep; paths are built only when there is one. Game clients need no such check:
 * `JSON.stringify` never writes a number that is not finite.
 */
export function numbersOutOfRange(value: unknown): string[] {
  const paths: string[] = [];
  if (breaks(value, Infinity) === NON_FINITE) walk(value, '', paths);
  return paths;
}

/**
 * Which of the service's limits parsed JSON breaks: `'depth'` when it nests deeper than `maxDepth` (counted as
 * {@link scanJsonDepth} counts the text: `{}` is 1 level), else `'number'` when it holds a number that is not finite
 * (see {@link numbersOutOfRange}), else undefined. One walk that never goes more than `maxDepth + 1` levels down, so
 * it needs no more stack whatever was parsed; the relay checks every body with it after `JSON.parse`, which does not
 * recurse on the engines a relay runs on (V8: Node, Deno, workerd; JavaScriptCore: Bun; 1,000,000 levels parsed on
 * each), in place of a scan of the whole text before parsing. A walk that finds nothing reads every value (about 30 µs
 * for a 1000-session batch, an eighth of its `JSON.parse`); a scan of the text for what may overflow cost more than the
 * walk: an `e` and 3 digits are in most batches' UUIDs (`npm run bench`: the relay at 1.19x a bare proxy, 1.13x
 * before).
 */
export function parsedJsonBreaks(value: unknown, maxDepth: number = MAX_JSON_DEPTH): 'depth' | 'number' | undefined {
  const found = breaks(value, maxDepth);
  return found === TOO_DEEP ? 'depth' : found === NON_FINITE ? 'number' : undefined;
}

/** What {@link breaks} found, the worse the larger. */
const NOTHING = 0;
const NON_FINITE = 1;
const TOO_DEEP = 2;

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * {@link parsedJsonBreaks}' walk: `levels` containers may still open at `value`. It stops at the first container too
 * deep, and goes on past a number that is not finite to look for one (nesting is answered first, as the text scan
 * answered it). Objects are read key by key (`for...in`) rather than through `Object.values`, whose array per object
 * was half of this walk's time over a 1000-session batch. Own keys only: `for...in` also lists what is enumerable on
 * the prototype, and an object put there (`Object.prototype.x = {}`, as a prototype pollution through another
 * package's merge does) is its own `x` again, so the walk recursed until the stack ran out and every body was
 * answered 500.
 */
function breaks(value: unknown, levels: number): number {
  if (typeof value !== 'object') return typeof value === 'number' && !Number.isFinite(value) ? NON_FINITE : NOTHING;
  if (value === null) return NOTHING;
  if (levels <= 0) return TOO_DEEP;
  let found = NOTHING;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const inner = breaks(value[i], levels - 1);
      if (inner === TOO_DEEP) return TOO_DEEP;
      if (inner > found) found = inner;
    }
  } else {
    for (const key in value) {
      if (!hasOwn.call(value, key)) continue;
      const inner = breaks((value as Record<string, unknown>)[key], levels - 1);
      if (inner === TOO_DEEP) return TOO_DEEP;
      if (inner > found) found = inner;
    }
  }
  return found;
}

function walk(value: unknown, path: string, paths: string[]): void {
  if (paths.length >= MAX_REPORTED_PATHS) return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) paths.push(path === '' ? '(body)' : path);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) walk(item, path === '' ? key : `${path}.${key}`, paths);
  }
}
