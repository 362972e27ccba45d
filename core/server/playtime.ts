import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import { BulkPlaytimeRequest, PlaytimeSessionRequest, type BulkPlaytimeResult, type PlaytimeSession } from '../schema/playtime.js';

/** Set by `Playtime` itself: its private send, for {@link recordCheckedBulk}. */
let sendCheckedBulk: (playtime: Playtime, body: BulkPlaytimeRequest, json: string | undefined) => Promise<BulkPlaytimeResult>;

/** Playtime sessions. @see spec "Record playtime session", "Record bulk playtime sessions" */
export class Playtime extends Resource {
  /**
   * Records one session; `recorded: false` means the sessionId was already there (not an error).
   * Retried after transient failures: the service de-duplicates by sessionId.
   * @throws ValidationError before sending when the session breaks the spec's rules
   * @example
   * ```ts
   * await server.playtime.record({ sessionId, userId, durationSeconds: 90, startedAt, endedAt });
   * ```
   */
  async record(session: PlaytimeSessionRequest, options?: RequestOptions): Promise<PlaytimeSession> {
    const body = validated(PlaytimeSessionRequest, session);
    return this.transport.data({ method: 'POST', path: path`/v1/server/playtime/sessions`, body, retry: 'safe', response: { name: 'PlaytimeSession', shape: 'item' }, options });
  }

  /**
   * Records 1 to 1000 sessions; each item gets SUCCESS, SKIPPED (already recorded) or FAILED.
   * Retried after transient failures: the service de-duplicates by sessionId.
   */
  async recordBulk(request: BulkPlaytimeRequest, options?: RequestOptions): Promise<BulkPlaytimeResult> {
    return this.#sendBulk(validated(BulkPlaytimeRequest, request), options);
  }

  #sendBulk(body: BulkPlaytimeRequest, options?: RequestOptions, json?: string): Promise<BulkPlaytimeResult> {
    return this.transport.data({ method: 'POST', path: path`/v1/server/playtime/sessions/bulk`, body, json, retry: 'safe', response: { name: 'BulkPlaytimeResult', shape: 'item' }, options });
  }

  static {
    sendCheckedBulk = (playtime, body, json) => playtime.#sendBulk(body, undefined, json);
  }
}

/**
 * `playtime.recordBulk(body)` for a body already checked against `BulkPlaytimeRequest`: the relay checks every
 * item with that schema before it coalesces them, and a second pass would cost it a third of its throughput.
 * `json`, when given, is `JSON.stringify(body)` already written (the relay serialized it to measure it), and
 * is sent as it is. Internal to the package (not exported from an entry). A `Playtime` of another copy of the
 * package is called through its public `recordBulk`.
 */
export function recordCheckedBulk(playtime: Pick<Playtime, 'recordBulk'>, body: BulkPlaytimeRequest, json?: string): Promise<BulkPlaytimeResult> {
  return playtime instanceof Playtime ? sendCheckedBulk(playtime, body, json) : playtime.recordBulk(body);
}
