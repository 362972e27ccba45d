/**
 * A scripted stand-in for a game server's relay in front of the service: it records every request the
 * tracker sends (exact body, headers, keepalive flag, byte size) and, unless a scripted answer is queued,
 * answers like the real chain: a whole-batch 400 when an item breaks a rule, else one result per item,
 * FAILED for the items `rejectIf` names, SKIPPED for a sessionId it has already recorded.
 */
import type { BulkPlaytimeItem, BulkPlaytimeResult, PlaytimeItemResult } from '../../../core/schema/playtime.js';
import { errorBody, type ErrorDetail } from '../../../core/schema/errors.js';

export interface RelayRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  rawBody: string;
  /** UTF-8 size of the body. */
  bytes: number;
  body: { sessions: BulkPlaytimeItem[]; isTest?: boolean };
  keepalive: boolean;
  /** `Date.now()` when it arrived (fake time in tests). */
  at: number;
}

/** A scripted answer for one request. */
export type RelayAnswer = Response | { networkError: string } | ((request: RelayRequest) => Response | Promise<Response>);

export interface FakeRelay {
  fetch: (input: string | Request, init?: RequestInit) => Promise<Response>;
  /** Every request, in order. */
  readonly requests: RelayRequest[];
  /** Sessions the "service" recorded, by sessionId (first copy). */
  readonly recorded: Map<string, BulkPlaytimeItem>;
  /** How many times each sessionId was answered SUCCESS (must never exceed 1). */
  readonly successes: Map<string, number>;
  /** Most requests ever in flight at once. */
  readonly maxInFlight: number;
  /** Queues answers for the next requests, before the default behaviour. */
  next(...answers: RelayAnswer[]): FakeRelay;
  /** Items this returns a message for are answered FAILED with it. */
  rejectIf(rule: (session: BulkPlaytimeItem) => string | undefined): FakeRelay;
  /** A batch holding an item this returns a detail message for is rejected whole (400 VALIDATION_ERROR). */
  invalidIf(rule: (session: BulkPlaytimeItem) => string | undefined): FakeRelay;
  /** Answers every unscripted request `rule` returns a response for; the others get the default behaviour. */
  intercept(rule: (request: RelayRequest) => Response | undefined): FakeRelay;
  /** Holds every answer until the returned function is called. */
  hold(): () => void;
}

export function createFakeRelay(): FakeRelay {
  const requests: RelayRequest[] = [];
  const recorded = new Map<string, BulkPlaytimeItem>();
  const successes = new Map<string, number>();
  const script: RelayAnswer[] = [];
  let reject: (session: BulkPlaytimeItem) => string | undefined = () => undefined;
  let invalid: (session: BulkPlaytimeItem) => string | undefined = () => undefined;
  let intercept: (request: RelayRequest) => Response | undefined = () => undefined;
  let gate: Promise<void> | undefined;
  let inFlight = 0;
  let maxInFlight = 0;

  const serve = (request: RelayRequest): Response => {
    const details: ErrorDetail[] = [];
    request.body.sessions.forEach((session, index) => {
      const message = invalid(session);
      if (message) details.push({ path: `sessions.${index}.metadata`, message });
    });
    if (details.length) return json(400, errorBody(400, 'VALIDATION_ERROR', 'Invalid request', details));
    const results: PlaytimeItemResult[] = request.body.sessions.map((session) => {
      const error = reject(session);
      if (error) return { sessionId: session.sessionId, status: 'FAILED', error };
      if (recorded.has(session.sessionId)) return { sessionId: session.sessionId, status: 'SKIPPED' };
      recorded.set(session.sessionId, session);
      successes.set(session.sessionId, (successes.get(session.sessionId) ?? 0) + 1);
      return { sessionId: session.sessionId, status: 'SUCCESS' };
    });
    return json(200, { data: bulkResult(results) });
  };

  const relay: FakeRelay = {
    requests,
    recorded,
    successes,
    get maxInFlight() {
      return maxInFlight;
    },
    async fetch(input, init) {
      const rawBody = String(init?.body);
      const request: RelayRequest = {
        url: typeof input === 'string' ? input : input.url,
        method: init?.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init?.headers)),
        rawBody,
        bytes: new TextEncoder().encode(rawBody).length,
        body: JSON.parse(rawBody),
        keepalive: init?.keepalive === true,
        at: Date.now(),
      };
      requests.push(request);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        const signal = init?.signal;
        if (gate) await abortable(gate, signal);
        const answer = script.shift();
        if (answer === undefined) return intercept(request) ?? serve(request);
        if (answer instanceof Response) return answer;
        if (typeof answer === 'function') return await answer(request);
        throw new TypeError(answer.networkError);
      } finally {
        inFlight--;
      }
    },
    next(...answers) {
      script.push(...answers);
      return relay;
    },
    rejectIf(rule) {
      reject = rule;
      return relay;
    },
    invalidIf(rule) {
      invalid = rule;
      return relay;
    },
    intercept(rule) {
      intercept = rule;
      return relay;
    },
    hold() {
      let release!: () => void;
      gate = new Promise((resolve) => (release = resolve));
      return () => {
        gate = undefined;
        release();
      };
    },
  };
  return relay;
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}

/** An error answer in the spec's shape. */
export function errorAnswer(status: number, code: string, message: string, headers: Record<string, string> = {}, details?: ErrorDetail[]): Response {
  return json(status, errorBody(status, code, message, details), headers);
}

/** `data` of a bulk answer with counts computed from `results`. */
export function bulkResult(results: PlaytimeItemResult[]): BulkPlaytimeResult {
  const count = (status: string) => results.filter((r) => r.status === status).length;
  return { totalRequested: results.length, successful: count('SUCCESS'), failed: count('FAILED'), skipped: count('SKIPPED'), results };
}

function abortable(gate: Promise<void>, signal: AbortSignal | null | undefined): Promise<void> {
  if (!signal) return gate;
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
    void gate.then(resolve);
  });
}
