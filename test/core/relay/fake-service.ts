/**
 * A relay wired to a real `CampaignServer` over a fake fetch that plays the service: bulk calls answer
 * SUCCESS per item (SKIPPED for a sessionId seen before), the web view and sponsor calls answer fixed
 * records. Tests push scripted replies in front of that default, and read what the service received.
 */
import { createRelay, type RelayOptions } from '../../../core/relay/index.js';
import { CampaignServer } from '../../../core/server/index.js';
import type { BulkPlaytimeItem, BulkPlaytimeResult } from '../../../core/schema/playtime.js';
import { afterAll, vi } from 'vitest';
import { createEmulator } from '../../../emulator/index.js';
import { createFakeFetch, reply, type FakeFetch, type RecordedRequest, type Reply } from '../../helpers/fake-fetch.js';

export const BASE_URL = 'https://api.test';
export const BULK_PATH = '/v1/server/playtime/sessions/bulk';
export const RELAY = 'https://game.test/campaign';

/** The default answer of the fake service for each route the relay calls. */
export function serviceReply(seen = new Set<string>()): (request: RecordedRequest) => Reply {
  return (request) => {
    const body = request.body as Record<string, unknown>;
    if (request.method === 'POST' && request.path === BULK_PATH) {
      const sessions = body['sessions'] as BulkPlaytimeItem[];
      const results = sessions.map((s) => {
        const status = seen.has(s.sessionId) ? 'SKIPPED' : 'SUCCESS';
        seen.add(s.sessionId);
        return { sessionId: s.sessionId, status };
      });
      const count = (status: string) => results.filter((r) => r.status === status).length;
      return reply.ok({ totalRequested: results.length, successful: count('SUCCESS'), failed: 0, skipped: count('SKIPPED'), results });
    }
    if (request.method === 'POST' && request.path === '/v1/server/webview/ott') return reply.ok({ ott: 'ott-1', expiresIn: 60 });
    const sponsor = /^\/v1\/server\/sponsors\/user\/([^/]+)$/.exec(request.path);
    if (request.method === 'PUT' && sponsor) {
      return reply.ok(boostRecord(decodeURIComponent(sponsor[1] ?? ''), String(body['newCreatorKey']), String(body['campaignId'] ?? 'camp_active')));
    }
    return reply.error(404, 'NOT_FOUND', `fake service: no route ${request.method} ${request.path}`);
  };
}

/** The boost record the fake service answers. */
export function boostRecord(userId: string, creatorKey: string, campaignId = 'camp_active') {
  return { userId, campaignId, creatorKey, creatorName: `Creator ${creatorKey}`, isActive: true, sponsoredAt: '2024-05-01T00:00:00.000Z' };
}

/** `Authorization: Bearer user:<id>` authenticates as `<id>`; anything else fails. */
export function authenticateByHeader(request: Request): { userId: string } | null {
  const match = /^Bearer user:(.+)$/.exec(request.headers.get('authorization') ?? '');
  return match ? { userId: match[1] as string } : null;
}

/** A relay over the fake service; options override the defaults (a generous rate limit, a 50 ms window). */
export function relayOverFakeService(options: Partial<RelayOptions> & { timeoutMs?: number } = {}): {
  relay: ReturnType<typeof createRelay>;
  fake: FakeFetch;
  server: CampaignServer;
  bulkCalls(): RecordedRequest[];
} {
  const fake = createFakeFetch().otherwise(serviceReply());
  const server = new CampaignServer({
    serverKey: 'sk_relay:secret',
    environment: { baseUrl: BASE_URL },
    fetch: fake.fetch,
    maxRetries: 0,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  // `timeoutMs` is the CampaignServer's (createRelay refuses it).
  const { timeoutMs: _serverTimeout, ...relayOptions } = options;
  const relay = createRelay({ server, authenticate: authenticateByHeader, ...relayOptions });
  return { relay, fake, server, bulkCalls: () => fake.calls.filter((c) => c.path === BULK_PATH) };
}

/**
 * When the fixture sessions start: an hour before the tests began, on a whole minute, so they pass the relay's
 * plausibility rules (no future dates, no older than the maximum age) with real and fake clocks alike.
 */
export const SESSION_START_MS = Math.floor((Date.now() - 60 * 60 * 1000) / 60_000) * 60_000;
/** An ISO timestamp `seconds` after {@link SESSION_START_MS}. */
export const at = (seconds: number) => new Date(SESSION_START_MS + seconds * 1000).toISOString();

/** A valid bulk item of `userId`. */
export function session(userId: string, n: number, extra: Partial<BulkPlaytimeItem> = {}): BulkPlaytimeItem {
  return {
    sessionId: `s-${userId}-${n}`,
    userId,
    durationSeconds: 60,
    startedAt: at(0),
    endedAt: at(60),
    ...extra,
  };
}

/** `count` valid bulk items of `userId`. */
export function sessions(userId: string, count: number, first = 0): BulkPlaytimeItem[] {
  return Array.from({ length: count }, (_, i) => session(userId, first + i));
}

/** A JSON request to the relay as `userId` (no authorization header when userId is undefined). */
export function relayRequest(method: string, route: string, body: unknown, userId?: string, headers: Record<string, string> = {}): Request {
  return new Request(`${RELAY}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...(userId === undefined ? {} : { authorization: `Bearer user:${userId}` }), ...headers },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
}

/** Status, headers and parsed JSON body of an answer. */
export async function read(response: Response): Promise<{ status: number; body: any; headers: Headers }> {
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

/** The service's answer recording every item of `items`. */
export function success(items: BulkPlaytimeItem[]): BulkPlaytimeResult {
  return { totalRequested: items.length, successful: items.length, failed: 0, skipped: 0, results: items.map((s) => ({ sessionId: s.sessionId, status: 'SUCCESS' as const })) };
}

/** Settles every microtask and stream read the relay does before its coalescing timer, without advancing time (fake timers). */
export async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await vi.advanceTimersByTimeAsync(0);
}

/**
 * A relay in front of a real emulator (in process, no retries, no coalescing) for a test file: the service's own
 * rules then answer what the relay forwards. The emulator closes after the file's tests.
 */
export function relayOverEmulator(): { emulator: ReturnType<typeof createEmulator>; relay: ReturnType<typeof createRelay> } {
  const emulator = createEmulator();
  afterAll(() => emulator.close());
  const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: 'http://emulator.local' }, fetch: emulator.fetch, maxRetries: 0 });
  return { emulator, relay: createRelay({ server, authenticate: authenticateByHeader, coalesceWindowMs: 0 }) };
}
