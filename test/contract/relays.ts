/**
 * The relays of a contract scenario: one fake relay per (game, environment), at
 * `https://<game>.example/<environment>/campaign`, each recording and de-duplicating sessions as the real
 * chain does (test/core/tracker/fake-relay.ts), all answering as the scenario's `relay` step scripts.
 * Each binds the player from the Authorization header (`Bearer <player>`, as the C# runner's FakeRelay.cs does) and
 * judges the player's items with the real relay's own rule, core/relay/playtime.ts `answerPlaytime`: an item naming
 * another user is FAILED (`USER_MISMATCH_ERROR`), a batch of only such items is a 403; a body the real relay answers
 * 400 is answered so.
 */
import type { FetchLike } from '../../core/platform.js';
import { answerPlaytime, USER_MISMATCH_ERROR } from '../../core/relay/playtime.js';
import { SERVICE_MAX_BODY_BYTES } from '../../core/schema/json-limits.js';
import { createFakeRelay, errorAnswer, type FakeRelay } from '../core/tracker/fake-relay.js';
import type { Environment, RelayMode } from './scenario.js';

/** A session as a relay recorded it, with where it was recorded. */
export interface ReceivedSession {
  sessionId: string;
  player: string;
  durationSeconds: number;
  game: string;
  environment: Environment;
  isTest: boolean;
  /** The session as the request's JSON carried it, without its (random) `sessionId`: what both trackers must send alike. */
  wire: Record<string, unknown>;
  /** The start-up (process, counted from 1) that recovered it, if one did: its order among that start-up's others is not defined (delivery-order.ts). */
  recovery?: number;
}

/** Every relay of the world, and what they received. */
export interface Relays {
  /** The device's fetch: routes each request to the relay its URL names; unknown URLs fail as connection errors. */
  fetch: FetchLike;
  /** Sessions recorded, each (relay, sessionId) once, in the order they were first recorded. */
  readonly received: ReceivedSession[];
  /** Requests that reached a relay (refused ones included; not those failed as `unreachable`). */
  sends(): number;
  /** Scripts how every relay answers from now on. */
  answer(mode: RelayMode): void;
  /**
   * What the tracker sent against the contract, whatever the relay answered (the runner fails the step on it, as
   * cs-runner/FakeRelay.cs's `Violations`): a request to a host no relay of the world is at, a route or method of a relay
   * other than `POST {relay}/playtime/sessions`, a batch without `sentAt` (DESIGN section 5: every flush carries it).
   */
  readonly violations: string[];
}

/** The relay URL of a game in an environment (FORMAT.md). */
export const relayUrl = (game: string, environment: Environment) => `https://${game}.example/${environment}/campaign`;

/** The Client key of a game in an environment (FORMAT.md). */
export const clientKey = (game: string, environment: Environment) => `ck_${game}_${environment}:secret`;

/** The `code` of a scripted status (the same table as FakeRelay.cs): the spec's codes (core/schema/error-codes.ts), the relay's 503 INTERNAL_ERROR (core/relay/answers.ts `unavailableResponse`). */
const STATUS_CODES: Record<number, string> = { 400: 'BAD_REQUEST', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 413: 'PAYLOAD_TOO_LARGE', 429: 'RATE_LIMITED' };

/**
 * The real relay's answer to `body` for `userId` (core/relay/playtime.ts `answerPlaytime`, every item it would forward
 * answered SUCCESS; plausibility wide open, as the scenarios' clocks are not the relay's): a 403 or 400 as it is, or
 * the ids of the items it FAILED as another user's.
 */
async function realRelayRule(body: unknown, userId: string): Promise<Response | Set<string>> {
  const submit = async (sessions: { sessionId: string }[]) => sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' as const }));
  const rules = { clockSkewMs: Number.MAX_SAFE_INTEGER, maxSessionAgeMs: Number.MAX_SAFE_INTEGER };
  const route = { coalescer: { submit } as never, rules, acceptSessionTimeoutMs: 1000, maxUpstreamBytes: Number.MAX_SAFE_INTEGER };
  const answer = await answerPlaytime(body, { userId }, route);
  if (answer.status !== 200) return answer;
  const { data } = (await answer.json()) as { data: { results: { sessionId: string; status: string; error?: string }[] } };
  return new Set(data.results.filter((r) => r.status === 'FAILED' && r.error === USER_MISMATCH_ERROR).map((r) => r.sessionId));
}

export function createRelays(): Relays {
  const byUrl = new Map<string, { relay: FakeRelay; game: string; environment: Environment }>();
  const received: ReceivedSession[] = [];
  let mode: RelayMode = 'accept';
  /** The items of the request being answered that name another user than its credentials' (the real relay's rule). */
  let others = new Set<string>();
  /** Requests the relay refused before its fake service saw them (401, 403, 400). */
  let refused = 0;

  /** Applies the scripted mode to one relay (new relays get it when created). */
  const script = (relay: FakeRelay) => {
    const scripted = typeof mode === 'object' && 'reject' in mode ? (mode as { reject: string }).reject : undefined;
    relay.rejectIf(({ sessionId }) => (others.has(sessionId) ? USER_MISMATCH_ERROR : scripted));
    relay.intercept((request) => {
      if (typeof mode === 'object' && 'itemStatus' in mode) {
        // A 200 whose items hold a status the spec does not define, or none (null): no item is answered. Another
        // user's item never reaches the service: the relay's own FAILED.
        const { itemStatus, retryAfterSeconds } = mode;
        const results = request.body.sessions.map(({ sessionId }) =>
          others.has(sessionId) ? { sessionId, status: 'FAILED', error: USER_MISMATCH_ERROR } : itemStatus === null ? { sessionId } : { sessionId, status: itemStatus },
        );
        const retryAfter: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
        return new Response(JSON.stringify({ data: { results } }), { status: 200, headers: { 'content-type': 'application/json', ...retryAfter } });
      }
      if (typeof mode !== 'object' || !('status' in mode)) return undefined;
      const headers: Record<string, string> = mode.retryAfterSeconds === undefined ? {} : { 'retry-after': String(mode.retryAfterSeconds) };
      return errorAnswer(mode.status, STATUS_CODES[mode.status] ?? 'INTERNAL_ERROR', `scripted answer ${mode.status}`, headers);
    });
  };

  const relayFor = (url: string) => {
    const match = /^https:\/\/([^/.]+)\.example\/(sandbox|live)\/campaign(\/|$)/.exec(url);
    if (!match) return undefined;
    const [, game, environment] = match as unknown as [string, string, Environment];
    const base = relayUrl(game, environment);
    let entry = byUrl.get(base);
    if (!entry) {
      entry = { relay: createFakeRelay(), game, environment };
      script(entry.relay);
      byUrl.set(base, entry);
    }
    return entry;
  };

  const violations: string[] = [];

  return {
    received,
    violations,
    sends: () => [...byUrl.values()].reduce((total, { relay }) => total + relay.requests.length, refused),
    answer(next) {
      mode = next;
      for (const { relay } of byUrl.values()) script(relay);
    },
    async fetch(input, init) {
      const url = typeof input === 'string' ? input : input.url;
      const entry = relayFor(url);
      if (!entry) violations.push(`a request to ${url}, where no relay is`);
      // A host no one serves fails as a connection error (as FakeRelay.cs answers it).
      if (!entry || mode === 'unreachable') throw new TypeError(`fetch failed: ${url} cannot be reached`);
      const { relay, game, environment } = entry;
      // The real relay's router (core/relay/relay.ts): another route 404 NOT_FOUND, another method on the route 405.
      const method = init?.method ?? 'GET';
      const path = url.slice(url.indexOf('/', 'https://'.length));
      if (path !== `/${environment}/campaign/playtime/sessions`) {
        refused++;
        violations.push(`a request to no route of the relay: ${method} ${url}`);
        return errorAnswer(404, 'NOT_FOUND', `No relay route ${method} ${path}`);
      }
      if (method !== 'POST') {
        refused++;
        violations.push(`a request with another method than POST: ${method} ${url}`);
        return errorAnswer(405, 'BAD_REQUEST', `${method} is not allowed here; use POST`);
      }
      const body = JSON.parse(String(init?.body)) as { isTest?: unknown; sessions: Record<string, unknown>[]; sentAt?: unknown };
      // The real relay takes a batch without sentAt (no shift; one that is not a Timestamp is its 400, below); the tracker must send it.
      if (body && typeof body === 'object' && !('sentAt' in body)) violations.push('a request without sentAt');
      others = new Set();
      if (typeof mode !== 'object' || !('status' in mode)) {
        // As the real relay: its `authenticate` first (401), then core/relay/playtime.ts `answerPlaytime`'s rules.
        const authorization = new Headers(init?.headers).get('authorization');
        const player = authorization?.startsWith('Bearer ') ? authorization.slice(7) : undefined;
        if (!player) {
          refused++;
          return errorAnswer(401, 'UNAUTHORIZED', 'Authentication failed');
        }
        // core/relay/request-body.ts readJsonBody after `authenticate`: a body over `maxBodyBytes` (default the service's 1 MiB).
        if (new TextEncoder().encode(String(init?.body)).length > SERVICE_MAX_BODY_BYTES) {
          refused++;
          return errorAnswer(413, 'BAD_REQUEST', `The body is larger than ${SERVICE_MAX_BODY_BYTES} bytes`);
        }
        const rule = await realRelayRule(body, player);
        if (rule instanceof Response) {
          refused++;
          return rule; // 403 (only another user's items), or the real relay's 400 for a body it refuses
        }
        others = rule;
      }
      const before = new Set(relay.recorded.keys());
      const response = await relay.fetch(input as string, init as RequestInit);
      const isTest = body.isTest === true;
      for (const [sessionId, session] of relay.recorded) {
        if (before.has(sessionId)) continue;
        const { sessionId: _, ...wire } = body.sessions.find((sent) => sent['sessionId'] === sessionId)!;
        received.push({ sessionId, player: session.userId, durationSeconds: session.durationSeconds, game, environment, isTest, wire });
      }
      // The relay answered (and recorded), and the answer never reached the device: a connection cut, the app killed mid-request.
      if (mode === 'answer-lost') throw new TypeError(`fetch failed: the answer of ${url} was lost`);
      return response;
    },
  };
}
