/**
 * The relays of a contract scenario: one fake relay per (game, environment), at
 * `https://<game>.example/<environment>/campaign`, each recording and de-duplicating sessions as the real
 * chain does (test/core/tracker/fake-relay.ts), all answering as the scenario's `relay` step scripts.
 */
import type { FetchLike } from '../../core/platform.js';
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
}

/** The relay URL of a game in an environment (FORMAT.md). */
export const relayUrl = (game: string, environment: Environment) => `https://${game}.example/${environment}/campaign`;

/** The Client key of a game in an environment (FORMAT.md). */
export const clientKey = (game: string, environment: Environment) => `ck_${game}_${environment}:secret`;

const STATUS_CODES: Record<number, string> = { 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 429: 'RATE_LIMITED', 503: 'SERVICE_UNAVAILABLE' };

export function createRelays(): Relays {
  const byUrl = new Map<string, { relay: FakeRelay; game: string; environment: Environment }>();
  const received: ReceivedSession[] = [];
  let mode: RelayMode = 'accept';

  /** Applies the scripted mode to one relay (new relays get it when created). */
  const script = (relay: FakeRelay) => {
    relay.rejectIf(typeof mode === 'object' && 'reject' in mode ? () => (mode as { reject: string }).reject : () => undefined);
    relay.intercept((request) => {
      if (typeof mode === 'object' && 'itemStatus' in mode) {
        // A 200 whose items hold a status the spec does not define, or none (null): no item is answered.
        const { itemStatus, retryAfterSeconds } = mode;
        const results = request.body.sessions.map(({ sessionId }) => (itemStatus === null ? { sessionId } : { sessionId, status: itemStatus }));
        const retryAfter: Record<string, string> = retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) };
        return new Response(JSON.stringify({ data: { results } }), { status: 200, headers: { 'content-type': 'application/json', ...retryAfter } });
      }
      if (typeof mode !== 'object' || !('status' in mode)) return undefined;
      const headers: Record<string, string> = mode.retryAfterSeconds === undefined ? {} : { 'retry-after': String(mode.retryAfterSeconds) };
      return errorAnswer(mode.status, STATUS_CODES[mode.status] ?? 'ERROR', `scripted answer ${mode.status}`, headers);
    });
  };

  const relayFor = (url: string) => {
    const match = /^https:\/\/([^/.]+)\.example\/(sandbox|live)\/campaign\//.exec(url);
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

  return {
    received,
    sends: () => [...byUrl.values()].reduce((total, { relay }) => total + relay.requests.length, 0),
    answer(next) {
      mode = next;
      for (const { relay } of byUrl.values()) script(relay);
    },
    async fetch(input, init) {
      const url = typeof input === 'string' ? input : input.url;
      const entry = relayFor(url);
      if (!entry || mode === 'unreachable') throw new TypeError(`fetch failed: ${url} cannot be reached`);
      const { relay, game, environment } = entry;
      const before = new Set(relay.recorded.keys());
      const response = await relay.fetch(input as string, init as RequestInit);
      const body = JSON.parse(String(init?.body)) as { isTest?: unknown; sessions: Record<string, unknown>[] };
      const isTest = body.isTest === true;
      for (const [sessionId, session] of relay.recorded) {
        if (before.has(sessionId)) continue;
        const { sessionId: _, ...wire } = body.sessions.find((sent) => sent['sessionId'] === sessionId)!;
        received.push({ sessionId, player: session.userId, durationSeconds: session.durationSeconds, game, environment, isTest, wire });
      }
      return response;
    },
  };
}
