/** `POST /v1/server/playtime/sessions` and `/bulk`. @see spec "Record playtime session", "Record bulk playtime sessions" */
import type { Hono } from 'hono';
import type * as z from 'zod/mini';
import type { ErrorDetail } from '../../core/schema/errors.js';
import { BulkPlaytimeItem, BulkPlaytimeRequest, endsBeforeStart, PlaytimeSessionRequest, type PlaytimeItemResult, type PlaytimeSession } from '../../core/schema/playtime.js';
import { bulkResultFrom } from '../../core/schema/primitives.js';
import { check } from '../data-only.js';
import type { AppEnv, Services } from '../app-env.js';
import { describeDetails, envelopeProblems, invalid, ok, writeOptionsOf } from '../respond.js';
import type { Store, StoredSession } from '../store.js';

type SessionInput = z.infer<typeof BulkPlaytimeItem> & { platform?: StoredSession['platform'] };

const CAMPAIGN_NOT_FOUND: ErrorDetail = { path: 'campaignId', message: 'campaign not found' };

/** Registers the playtime routes. */
export function playtimeRoutes(app: Hono<AppEnv>, { store }: Services): void {
  app.post('/v1/server/playtime/sessions', (c) => {
    const body = c.get('json');
    const checked = check(PlaytimeSessionRequest, body);
    if (!checked.success) return invalid(c, checked.details, onlyEndsBeforeStart(body, checked.details) ? 422 : 400);
    const request = checked.data;
    const existing = store.sessions.get(request.sessionId);
    if (existing) return ok(c, sessionData(existing, false), 201);
    const row = toRow(store, request);
    if (!row) return invalid(c, [CAMPAIGN_NOT_FOUND]);
    if (!request.isTest) store.keep(store.sessions, row.sessionId, row);
    return ok(c, sessionData(row, true), 201);
  });

  app.post('/v1/server/playtime/sessions/bulk', (c) => {
    const body = c.get('json');
    const whole = check(BulkPlaytimeRequest, body);
    if (!whole.success) {
      const problems = envelopeProblems(whole.details, 'sessions');
      if (problems.length > 0) return invalid(c, problems);
    }
    const { isTest } = writeOptionsOf(body);
    const items = whole.success ? whole.data.sessions : (body as { sessions: unknown[] }).sessions;
    const seen = new Set<string>();
    const results = items.map((item): PlaytimeItemResult => {
      const parsed = whole.success ? { success: true as const, data: item as SessionInput } : check(BulkPlaytimeItem, item);
      if (!parsed.success) return { sessionId: idOf(item), status: 'FAILED', error: describeDetails(parsed.details) };
      const { sessionId } = parsed.data;
      if (seen.has(sessionId) || store.sessions.has(sessionId)) return { sessionId, status: 'SKIPPED' };
      const row = toRow(store, parsed.data);
      if (!row) return { sessionId, status: 'FAILED', error: describeDetails([CAMPAIGN_NOT_FOUND]) };
      seen.add(sessionId);
      if (!isTest) store.keep(store.sessions, sessionId, row);
      return { sessionId, status: 'SUCCESS' };
    });
    return ok(c, bulkResultFrom(results));
  });
}

/** The stored row of a new session, attributed; undefined when its campaignId is unknown. */
function toRow(store: Store, session: SessionInput): StoredSession | undefined {
  const attribution = store.attribute(session.userId, session.campaignId, session.creatorKey);
  if (!attribution) return undefined;
  return {
    projectId: store.fixtures.projectId,
    sessionId: session.sessionId,
    userId: session.userId,
    durationSeconds: session.durationSeconds,
    startedAt: session.startedAt,
    endedAt: session.endedAt,
    ...attribution,
    platform: session.platform ?? 'Other',
    ...(session.metadata !== undefined ? { metadata: session.metadata } : {}),
    createdAt: store.iso(),
  };
}

function sessionData(row: StoredSession, recorded: boolean): PlaytimeSession {
  return { sessionId: row.sessionId, userId: row.userId, durationSeconds: row.durationSeconds, recorded, createdAt: row.createdAt };
}

/** The spec lists 422 for a session ending before it started: used when that is the only problem. */
function onlyEndsBeforeStart(body: unknown, details: ErrorDetail[]): boolean {
  return details.length === 1 && details[0]!.path === 'endedAt' && endsBeforeStart(body as { startedAt?: unknown; endedAt?: unknown });
}

function idOf(item: unknown): string {
  const id = typeof item === 'object' && item !== null ? (item as { sessionId?: unknown }).sessionId : undefined;
  return typeof id === 'string' ? id : '';
}
