/**
 * Merges the small playtime batches many clients send at about the same time into few upstream bulk
 * calls, and hands each client exactly its own items' results once the service has answered. A client's
 * outcome depends only on its own batch: merged calls stay under the service's item and byte limits, and a
 * merged call the service refuses (or answers 500) is sent again client by client before anyone is answered.
 * @see DESIGN section 6 (coalescing)
 */
import { isTransientStatus } from '../http/backoff.js';
import { ResponseValidationError, isCampaignError } from '../http/errors.js';
import { SERVICE_MAX_BODY_BYTES, utf8Length } from '../schema/json-limits.js';
import { MAX_BULK_ITEMS, type BulkPlaytimeItem, type BulkPlaytimeResult, type PlaytimeItemResult } from '../schema/playtime.js';
import { renumberSessions } from './session-paths.js';
import { withoutErrorBody } from '../server/error-body.js';

/**
 * Sends one merged batch upstream (in the relay: `server.playtime.recordBulk`). `json` is the request body
 * already written, `JSON.stringify({ sessions, isTest })` to the byte ({@link bulkBody}): each batch is
 * serialized once, when it is measured, and that text is what goes upstream.
 */
export type SendBulk = (sessions: BulkPlaytimeItem[], isTest: boolean, json: string) => Promise<BulkPlaytimeResult>;

/** Options of {@link PlaytimeCoalescer}. */
export interface CoalescerOptions {
  send: SendBulk;
  /**
   * How long the first batch of a buffer waits for others to join it, in ms; 0: never merged, each batch goes
   * upstream at once from the caller's own call (a Cloudflare Worker needs that: see the relay).
   */
  windowMs: number;
  /** Items per upstream call. @defaultValue 1000 (the spec's bulk limit) */
  maxItems?: number;
  /** Bytes of an upstream body, as `JSON.stringify` writes it. @defaultValue the service's limit, 1 MiB */
  maxBytes?: number;
}

/** `{"sessions":[`, before the items of an upstream body. */
const BODY_START = '{"sessions":[';
/** Bytes of `{"sessions":[` and `]}` around the items of an upstream body. */
const ENVELOPE_BYTES = bulkBody('', false).length;
/** Bytes `,"isTest":true` adds to a test-mode body. */
const IS_TEST_BYTES = bulkBody('', true).length - ENVELOPE_BYTES;

/** The UTF-8 size of a bulk item as the upstream body carries it. */
export function serializedSize(session: BulkPlaytimeItem): number {
  return utf8Length(JSON.stringify(session));
}

/**
 * A batch as the upstream body that carries it alone, the size of its items in that body, and each item's size
 * when they were needed. One `JSON.stringify` of the whole body, whose text goes upstream as it is when the
 * batch is sent alone (as a full batch is), and whose items are cut from it when it joins others; the items
 * are measured one by one only when the batch is too large for one upstream body (then it is spread, or an
 * item is too large). Written whole, the body is flattened once, as any proxy's is (by `fetch`, or here when
 * measured); cutting the items out of `JSON.stringify`'s rope, then writing the envelope around them, made two
 * flat copies of every batch.
 */
export interface BatchSize {
  /** The upstream body of the batch alone: `JSON.stringify({ sessions, isTest })` ({@link bulkBody}). */
  body: string;
  /** UTF-8 bytes of the items and the commas between them (the body without its envelope). */
  total: number;
  items?: readonly number[] | undefined;
}

/**
 * {@link BatchSize} of `sessions`; `room` is the most one upstream body holds (see {@link maxItemBytes}). `ascii`: every
 * string in `sessions` is known to be ASCII (the relay read them from a body of ASCII bytes without `\u` escapes), so
 * the body's length is its size: its UTF-8 count, a walk over the whole body, was a fifth of the relay's own work.
 */
export function measureBatch(sessions: readonly BulkPlaytimeItem[], isTest: boolean, room: number, ascii = false): BatchSize {
  const body = JSON.stringify(isTest ? { sessions, isTest } : { sessions });
  const total = (ascii ? body.length : utf8Length(body)) - ENVELOPE_BYTES - (isTest ? IS_TEST_BYTES : 0);
  return total <= room ? { body, total } : { body, total, items: sessions.map(serializedSize) };
}

/** The items of an upstream body ({@link BatchSize.body}), comma-separated, without the array's brackets. */
function itemsOfBody(body: string, isTest: boolean): string {
  return body.slice(BODY_START.length, body.length - (bulkBody('', isTest).length - BODY_START.length));
}

/** `sessions` as JSON, comma-separated, without the array's brackets. */
function itemsJson(sessions: readonly BulkPlaytimeItem[]): string {
  return JSON.stringify(sessions).slice(1, -1);
}

/** The upstream body of items already written as JSON: `JSON.stringify({ sessions, isTest })` to the byte. */
export function bulkBody(itemsJson: string, isTest: boolean): string {
  return `${BODY_START}${itemsJson}]${isTest ? ',"isTest":true' : ''}}`;
}

/** The largest item (serialized) a bulk body of `maxBytes` can carry on its own. */
export function maxItemBytes(isTest: boolean, maxBytes: number = SERVICE_MAX_BODY_BYTES): number {
  return maxBytes - ENVELOPE_BYTES - (isTest ? IS_TEST_BYTES : 0);
}

/** One client's batch: settled once every slice of it sent upstream has an answer. */
interface Part {
  sessions: BulkPlaytimeItem[];
  /** The upstream body of all of `sessions` ({@link BatchSize.body}), for slices that carry them all. */
  body: string;
  results: PlaytimeItemResult[];
  pending: number;
  error: { reason: unknown } | undefined;
  resolve(results: PlaytimeItemResult[]): void;
  reject(error: unknown): void;
}

/** Items `start..end` of a part, going upstream in one call. */
interface Slice {
  part: Part;
  start: number;
  end: number;
}

/** Slices with the same `isTest` that will go upstream together. */
interface Buffer {
  slices: Slice[];
  items: number;
  /** Bytes of the items and the commas between them. */
  bytes: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Coalesces playtime batches per `isTest` value. A buffer goes upstream when its window ends or when it
 * is full (`maxItems`, or `maxBytes` serialized); a batch that would overflow it sends it at once and opens
 * a new one, and a batch too big for any one call is spread over several. If a merged call is refused for
 * good (any 4xx but 401/403, 408 and 429), each client's part is sent on its own, so one client's batch
 * cannot fail another. A transient failure is every part's failure: nothing is acknowledged that the
 * service has not answered, and every client keeps its data.
 */
export class PlaytimeCoalescer {
  readonly #send: SendBulk;
  readonly #windowMs: number;
  readonly #maxItems: number;
  readonly #maxBytes: number;
  readonly #open = new Map<boolean, Buffer>();

  constructor(options: CoalescerOptions) {
    this.#send = options.send;
    this.#windowMs = options.windowMs;
    this.#maxItems = options.maxItems ?? MAX_BULK_ITEMS;
    this.#maxBytes = options.maxBytes ?? SERVICE_MAX_BODY_BYTES;
  }

  /**
   * Queues one client's batch (at most `maxItems` sessions) and resolves with the service's results for
   * exactly these sessions, in their order.
   * @param size - the batch's {@link measureBatch}, when the caller has measured it already
   * @throws what the upstream call threw (a `CampaignError`), a `ResponseValidationError` when the
   * service's answer leaves out one of these sessions, or a `RangeError` for a session that cannot fit in
   * any upstream body (callers refuse those first: see {@link maxItemBytes})
   */
  submit(sessions: BulkPlaytimeItem[], isTest: boolean, size?: BatchSize): Promise<PlaytimeItemResult[]> {
    return new Promise((resolve, reject) => {
      const room = maxItemBytes(isTest, this.#maxBytes);
      const measured = size ?? measureBatch(sessions, isTest, room);
      const total = measured.total;
      const sizes = total > room || sessions.length > this.#maxItems ? (measured.items ?? sessions.map(serializedSize)) : undefined;
      if (sizes?.some((itemSize) => itemSize > room)) {
        reject(new RangeError(`A session is larger than the ${this.#maxBytes} bytes an upstream call may carry`));
        return;
      }
      const part: Part = { sessions, body: measured.body, results: new Array<PlaytimeItemResult>(sessions.length), pending: 0, error: undefined, resolve, reject };
      let buffer = this.#open.get(isTest);
      // A batch that fits a buffer of its own goes in one piece; it never joins a buffer it would overflow.
      if (buffer && !this.#fits(buffer, sessions.length, total, room)) {
        this.#dispatch(isTest, buffer);
        buffer = undefined;
      }
      if (!sizes) {
        buffer ??= this.#openBuffer(isTest);
        this.#add(buffer, { part, start: 0, end: sessions.length }, sessions.length, total);
      } else {
        // Too big for one call: item by item, each buffer filled to its limits.
        for (let i = 0; i < sessions.length; i++) {
          const itemSize = sizes[i] as number;
          if (buffer && !this.#fits(buffer, 1, itemSize, room)) {
            this.#dispatch(isTest, buffer);
            buffer = undefined;
          }
          buffer ??= this.#openBuffer(isTest);
          const last = buffer.slices[buffer.slices.length - 1];
          if (last?.part === part) {
            last.end++;
            buffer.items++;
            buffer.bytes += itemSize + 1;
          } else {
            this.#add(buffer, { part, start: i, end: i + 1 }, 1, itemSize);
          }
        }
      }
      if (buffer && (this.#windowMs <= 0 || buffer.items >= this.#maxItems || buffer.bytes >= room)) this.#dispatch(isTest, buffer);
    });
  }

  #fits(buffer: Buffer, items: number, bytes: number, room: number): boolean {
    const separator = buffer.items > 0 ? 1 : 0;
    return buffer.items + items <= this.#maxItems && buffer.bytes + separator + bytes <= room;
  }

  #add(buffer: Buffer, slice: Slice, items: number, bytes: number): void {
    buffer.bytes += (buffer.items > 0 ? 1 : 0) + bytes;
    buffer.items += items;
    buffer.slices.push(slice);
    slice.part.pending++;
  }

  #openBuffer(isTest: boolean): Buffer {
    const buffer: Buffer = { slices: [], items: 0, bytes: 0, timer: undefined };
    // No window, no timer: the caller dispatches the buffer before `submit` returns.
    if (this.#windowMs > 0) buffer.timer = setTimeout(() => this.#dispatch(isTest, buffer), this.#windowMs);
    this.#open.set(isTest, buffer);
    return buffer;
  }

  #dispatch(isTest: boolean, buffer: Buffer): void {
    clearTimeout(buffer.timer);
    if (this.#open.get(isTest) === buffer) this.#open.delete(isTest);
    void this.#deliver(buffer.slices, isTest);
  }

  async #deliver(slices: Slice[], isTest: boolean): Promise<void> {
    let result: BulkPlaytimeResult;
    try {
      result = await this.#send(slices.length === 1 ? itemsOf(slices[0] as Slice) : slices.flatMap(itemsOf), isTest, bodyOf(slices, isTest));
    } catch (error) {
      const parts = new Set(slices.map((slice) => slice.part));
      if (parts.size > 1 && (isRefusal(error) || isServiceFault(error))) {
        // Whose batch was refused (or made the service fail) is unknown: each client's slices go again on their own.
        await Promise.all([...parts].map((part) => this.#deliver(slices.filter((slice) => slice.part === part), isTest)));
      } else {
        // One client's call: a refusal's details name its sessions as the client's batch numbers them.
        const reason = parts.size === 1 ? renumberSessions(error, (n) => partIndex(slices, n)) : error;
        for (const slice of slices) settle(slice, undefined, reason);
      }
      return;
    }
    const split = splitResults(result, slices.map((slice) => ({ sessions: itemsOf(slice) })));
    slices.forEach((slice, i) => {
      const own = split[i];
      if (own) settle(slice, own, undefined);
      else settle(slice, undefined, new ResponseValidationError({ code: 'INVALID_RESPONSE', message: 'The service did not answer for every session' }));
    });
  }
}

/** Where the `n`th session of a call carrying `slices` (of one part, in order) is in that part. */
function partIndex(slices: readonly Slice[], n: number): number | undefined {
  let first = 0;
  for (const { start, end } of slices) {
    if (n < first + end - start) return start + n - first;
    first += end - start;
  }
  return undefined;
}

function isWhole(slice: Slice): boolean {
  return slice.start === 0 && slice.end === slice.part.sessions.length;
}

function itemsOf(slice: Slice): BulkPlaytimeItem[] {
  return isWhole(slice) ? slice.part.sessions : slice.part.sessions.slice(slice.start, slice.end);
}

/** The upstream body of `slices`: a part's own body when it is the only one, whole (as usual); else written around their items. */
function bodyOf(slices: Slice[], isTest: boolean): string {
  const only = slices.length === 1 ? slices[0] : undefined;
  return only && isWhole(only) ? only.part.body : bulkBody(slices.map((slice) => jsonOf(slice, isTest)).join(','), isTest);
}

/** A slice's items as JSON: cut from the part's own body when it carries the whole part, else written for it. */
function jsonOf(slice: Slice, isTest: boolean): string {
  return isWhole(slice) ? itemsOfBody(slice.part.body, isTest) : itemsJson(itemsOf(slice));
}

/** Records one slice's outcome; the part is answered when its last slice is (its first error wins). */
function settle(slice: Slice, results: PlaytimeItemResult[] | undefined, error: unknown): void {
  const { part } = slice;
  if (results) for (let i = 0; i < results.length; i++) part.results[slice.start + i] = results[i] as PlaytimeItemResult;
  else part.error ??= { reason: error };
  if (--part.pending > 0) return;
  if (part.error) part.reject(part.error.reason);
  else part.resolve(part.results);
}

/**
 * A refusal for good that may be about one client's items: a typed 4xx other than 408 and 429 (transient)
 * and 401/403 (the relay's own Server key, the same for every part). assumed: those two are not retried
 * part by part, since every part would get the same answer.
 */
function isRefusal(error: unknown): boolean {
  // A refusal not in the spec's error body (a proxy's page) is about no one's items.
  if (!isCampaignError(error) || withoutErrorBody(error)) return false;
  const status = error.status;
  if (error.code === 'VALIDATION_ERROR' && (status === undefined || status < 500)) return true;
  return status !== undefined && status >= 400 && status < 500 && !isTransientStatus(status) && status !== 401 && status !== 403;
}

/**
 * A 500 from the service: possibly caused by one client's items (a session the service cannot process), so one
 * player's data must not fail the others merged with it. assumed: only exactly 500; 502/503/504, time-outs and
 * 429 say the service (or the way to it) is down for everyone, and splitting would only multiply the calls. The
 * parts sent again cost at most the calls the relay makes without merging.
 */
function isServiceFault(error: unknown): boolean {
  return isCampaignError(error) && error.status === 500;
}

/**
 * Each part's results, in its sessions' order; undefined for a part the answer does not fully cover.
 * The service answers item by item in request order; when it does not, results are matched by sessionId
 * (a sessionId sent twice takes its results in order).
 */
export function splitResults(result: BulkPlaytimeResult, parts: ReadonlyArray<{ sessions: BulkPlaytimeItem[] }>): Array<PlaytimeItemResult[] | undefined> {
  const results: unknown = result?.results;
  if (!Array.isArray(results)) return parts.map(() => undefined);
  if (alignedWith(results, parts)) {
    let offset = 0;
    return parts.map((part) => results.slice(offset, (offset += part.sessions.length)) as PlaytimeItemResult[]);
  }
  const bySessionId = new Map<string, PlaytimeItemResult[]>();
  for (const item of results) {
    if (!isResultFor(item, (item as { sessionId?: unknown } | null)?.sessionId)) continue;
    const list = bySessionId.get(item.sessionId) ?? [];
    list.push(item);
    bySessionId.set(item.sessionId, list);
  }
  return parts.map((part) => {
    const own: PlaytimeItemResult[] = [];
    for (const session of part.sessions) {
      const next = bySessionId.get(session.sessionId)?.shift();
      if (!next) return undefined;
      own.push(next);
    }
    return own;
  });
}

/** True when `results` answers the parts' sessions one by one, in order (a plain loop: this runs for every batch). */
function alignedWith(results: unknown[], parts: ReadonlyArray<{ sessions: BulkPlaytimeItem[] }>): boolean {
  let at = 0;
  for (const { sessions } of parts) {
    for (let i = 0; i < sessions.length; i++) if (!isResultFor(results[at++], (sessions[i] as BulkPlaytimeItem).sessionId)) return false;
  }
  return at === results.length;
}

function isResultFor(item: unknown, sessionId: unknown): item is PlaytimeItemResult {
  if (typeof item !== 'object' || item === null) return false;
  const fields = item as Record<string, unknown>;
  const status = fields['status'];
  // Only the spec's three statuses: a client would take any other for a refusal it cannot explain, or worse.
  return typeof sessionId === 'string' && fields['sessionId'] === sessionId && (status === 'SUCCESS' || status === 'SKIPPED' || status === 'FAILED');
}
