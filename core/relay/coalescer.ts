/**
 * Merges the small playtime batches many clients send at about the same time into few upstream bulk
 * calls, and hands each client exactly its own items' results once the service has answered.
 * @see DESIGN section 6 (coalescing)
 */
import { ResponseValidationError, isCampaignError } from '../http/errors.js';
import { MAX_BULK_ITEMS, type BulkPlaytimeItem, type BulkPlaytimeResult, type PlaytimeItemResult } from '../schema/playtime.js';

/** Sends one merged batch upstream (in the relay: `server.playtime.recordBulk`). */
export type SendBulk = (sessions: BulkPlaytimeItem[], isTest: boolean) => Promise<BulkPlaytimeResult>;

/** Options of {@link PlaytimeCoalescer}. */
export interface CoalescerOptions {
  send: SendBulk;
  /** How long the first batch of a buffer waits for others to join it, in ms. */
  windowMs: number;
  /** Items per upstream call. @defaultValue 1000 (the spec's bulk limit) */
  maxItems?: number;
}

/** One client's batch waiting in a buffer. */
interface Part {
  sessions: BulkPlaytimeItem[];
  resolve(results: PlaytimeItemResult[]): void;
  reject(error: unknown): void;
}

/** Batches with the same `isTest` that will go upstream together. */
interface Buffer {
  parts: Part[];
  size: number;
  timer: ReturnType<typeof setTimeout> | undefined;
}

/**
 * Coalesces playtime batches per `isTest` value. A buffer goes upstream when its window ends or when it
 * holds `maxItems`; a batch that would overflow it sends it at once and opens a new one. If a merged call
 * fails with `VALIDATION_ERROR`, each client's part is sent on its own, so one client's bad batch cannot
 * fail the others. Any other failure is every part's failure: nothing is acknowledged that the service
 * has not answered.
 */
export class PlaytimeCoalescer {
  readonly #send: SendBulk;
  readonly #windowMs: number;
  readonly #maxItems: number;
  readonly #open = new Map<boolean, Buffer>();

  constructor(options: CoalescerOptions) {
    this.#send = options.send;
    this.#windowMs = options.windowMs;
    this.#maxItems = options.maxItems ?? MAX_BULK_ITEMS;
  }

  /**
   * Queues one client's batch (at most `maxItems` sessions) and resolves with the service's results for
   * exactly these sessions, in their order.
   * @throws what the upstream call threw (a `CampaignError`), or a `ResponseValidationError` when the
   * service's answer leaves out one of these sessions
   */
  submit(sessions: BulkPlaytimeItem[], isTest: boolean): Promise<PlaytimeItemResult[]> {
    return new Promise((resolve, reject) => {
      let buffer = this.#open.get(isTest);
      if (buffer && buffer.size + sessions.length > this.#maxItems) {
        this.#dispatch(isTest, buffer);
        buffer = undefined;
      }
      if (!buffer) buffer = this.#openBuffer(isTest);
      buffer.parts.push({ sessions, resolve, reject });
      buffer.size += sessions.length;
      if (buffer.size >= this.#maxItems) this.#dispatch(isTest, buffer);
    });
  }

  #openBuffer(isTest: boolean): Buffer {
    const buffer: Buffer = { parts: [], size: 0, timer: undefined };
    buffer.timer = setTimeout(() => this.#dispatch(isTest, buffer), this.#windowMs);
    this.#open.set(isTest, buffer);
    return buffer;
  }

  #dispatch(isTest: boolean, buffer: Buffer): void {
    clearTimeout(buffer.timer);
    if (this.#open.get(isTest) === buffer) this.#open.delete(isTest);
    void this.#deliver(buffer.parts, isTest);
  }

  async #deliver(parts: Part[], isTest: boolean): Promise<void> {
    let result: BulkPlaytimeResult;
    try {
      result = await this.#send(parts.flatMap((part) => part.sessions), isTest);
    } catch (error) {
      if (parts.length > 1 && isCampaignError(error, 'VALIDATION_ERROR')) {
        await Promise.all(parts.map((part) => this.#deliver([part], isTest)));
      } else {
        for (const part of parts) part.reject(error);
      }
      return;
    }
    const split = splitResults(result, parts);
    parts.forEach((part, i) => {
      const own = split[i];
      if (own) part.resolve(own);
      else part.reject(new ResponseValidationError({ code: 'INVALID_RESPONSE', message: 'The service did not answer for every session' }));
    });
  }
}

/**
 * Each part's results, in its sessions' order; undefined for a part the answer does not fully cover.
 * The service answers item by item in request order; when it does not, results are matched by sessionId
 * (a sessionId sent twice takes its results in order).
 */
export function splitResults(result: BulkPlaytimeResult, parts: ReadonlyArray<{ sessions: BulkPlaytimeItem[] }>): Array<PlaytimeItemResult[] | undefined> {
  const results: unknown = result?.results;
  if (!Array.isArray(results)) return parts.map(() => undefined);
  const sent = parts.flatMap((part) => part.sessions);
  const aligned = results.length === sent.length && sent.every((s, i) => isResultFor(results[i], s.sessionId));
  if (aligned) {
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

function isResultFor(item: unknown, sessionId: unknown): item is PlaytimeItemResult {
  if (typeof item !== 'object' || item === null) return false;
  const fields = item as Record<string, unknown>;
  return typeof sessionId === 'string' && fields['sessionId'] === sessionId && typeof fields['status'] === 'string';
}
