/**
 * Web view: one-time tokens, the PKCE exchange, the session's data and boost action, and the page itself.
 * @see spec "Create web view one-time token"; DESIGN sections 7 and 10 (exchange on the web view host, assumed)
 */
import { sha256 } from '@noble/hashes/sha2.js';
import type { Hono } from 'hono';
import * as z from 'zod/mini';
import { CreateSponsorRequest, type BoostRecord } from '../../core/schema/sponsors.js';
import { check } from '../data-only.js';
import { CreateOttRequest, WebviewExchangeRequest, type OneTimeToken, type WebviewSession } from '../../core/schema/webview.js';
import type { AppEnv, AppContext, Services } from '../app-env.js';
import { applyBoost } from '../boosts.js';
import { mockCampaign, MOCK_CREATORS } from '../fixtures.js';
import { base64Url, randomToken } from '../ids.js';
import { fail, invalid, notFound, ok } from '../respond.js';
import type { Store, StoredToken, StoredWebviewSession } from '../store.js';
import { WEBVIEW_PAGE } from '../webview-page.js';

/** Lifetime of a one-time token (spec: 60 seconds). */
export const OTT_LIFETIME_SECONDS = 60;
/** Lifetime of an exchanged web view session. assumed: one hour. */
export const WEBVIEW_SESSION_LIFETIME_MS = 60 * 60 * 1000;

const BoostFromWebview = z.pick(CreateSponsorRequest, { creatorKey: true });
const encoder = new TextEncoder();

/** Registers the web view routes. */
export function webviewRoutes(app: Hono<AppEnv>, services: Services): void {
  const { store } = services;

  app.post('/v1/server/webview/ott', (c) => {
    const checked = check(CreateOttRequest, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const request = checked.data;
    if (request.campaignId !== undefined && !store.campaign(request.campaignId)) return notFound(c, `Campaign ${request.campaignId} not found`);
    // A new token ends the user's older tokens and sessions of the same mode. assumed: test-mode tokens are kept
    // too (the spec says test mode issues a session on sample data) and show sample data; since test mode records
    // nothing, they live apart from the live ones and never end a live token or session.
    invalidateUser(store, request.userId, request.isTest === true);
    const now = store.now();
    const ott = randomToken('ott_');
    const token: StoredToken = {
      ott,
      userId: request.userId,
      ...(request.campaignId !== undefined ? { campaignId: request.campaignId } : {}),
      codeChallenge: request.codeChallenge,
      ...(request.metadata !== undefined ? { metadata: request.metadata } : {}),
      ...(request.callbackId !== undefined ? { callbackId: request.callbackId } : {}),
      showCampaignDetail: request.showCampaignDetail === true,
      isTest: request.isTest === true,
      createdAt: store.iso(now),
      expiresAt: store.iso(now + OTT_LIFETIME_SECONDS * 1000),
      state: 'ISSUED',
    };
    for (const dropped of store.keep(store.tokens, ott, token)) forget(store, dropped);
    current(store, token.userId, token.isTest).token = token;
    const data: OneTimeToken = { ott, expiresIn: OTT_LIFETIME_SECONDS };
    return ok(c, data);
  });

  app.post('/v1/webview/sessions', (c) => {
    const body = c.get('json');
    const checked = check(WebviewExchangeRequest, body);
    const now = store.now();
    const named = (body as { ott?: unknown } | null)?.ott;
    const token = typeof named === 'string' ? store.tokens.get(named) : undefined;
    const usable = token !== undefined && token.state === 'ISSUED' && now < Date.parse(token.expiresAt);
    // Spent by any exchange that names it, whatever its outcome (spec: the token is single-use): a wrong or malformed
    // verifier must not leave it open to more tries by whoever holds the address's query (a log, a Referer) but not
    // its fragment.
    if (usable) token.state = 'USED';
    if (!checked.success) return invalid(c, checked.details);
    if (!usable) {
      return fail(c, 401, 'UNAUTHORIZED', 'The one-time token is unknown, expired, already used or replaced by a newer one');
    }
    if (base64Url(sha256(encoder.encode(checked.data.codeVerifier))) !== token.codeChallenge) {
      return fail(c, 400, 'BAD_REQUEST', 'The code verifier does not match the code challenge; the one-time token is spent, issue a new one');
    }
    invalidateUser(store, token.userId, token.isTest);
    const session: StoredWebviewSession = {
      sessionId: randomToken('wvs_'),
      userId: token.userId,
      ...(token.campaignId !== undefined ? { campaignId: token.campaignId } : {}),
      showCampaignDetail: token.showCampaignDetail,
      isTest: token.isTest,
      ...(token.metadata !== undefined ? { metadata: token.metadata } : {}),
      ...(token.callbackId !== undefined ? { callbackId: token.callbackId } : {}),
      createdAt: store.iso(now),
      expiresAt: store.iso(now + WEBVIEW_SESSION_LIFETIME_MS),
      valid: true,
    };
    for (const dropped of store.keep(store.webviewSessions, session.sessionId, session)) forget(store, dropped);
    current(store, session.userId, session.isTest).session = session;
    const data: WebviewSession = {
      sessionId: session.sessionId,
      userId: session.userId,
      ...(session.campaignId !== undefined ? { campaignId: session.campaignId } : {}),
      showCampaignDetail: session.showCampaignDetail,
      expiresAt: session.expiresAt,
    };
    return ok(c, data);
  });

  // What the page shows: the session's campaign (else the active one), its creators and the user's boost.
  app.get('/v1/webview/sessions/:sessionId', (c) => {
    const session = liveSession(c, store);
    if (session instanceof Response) return session;
    if (session.isTest) {
      return ok(c, { session, campaign: withoutCreatorKeys(mockCampaign(store.now())), creators: MOCK_CREATORS, boost: null });
    }
    const campaign = session.campaignId !== undefined ? store.campaign(session.campaignId) : store.activeCampaign();
    const boost = store.boosts.get(session.userId);
    return ok(c, {
      session,
      campaign: campaign ? withoutCreatorKeys(campaign) : null,
      creators: campaign ? store.creatorsOf(campaign) : [],
      boost: boost ? store.boostRecord(boost) : null,
    });
  });

  // The page's boost button: the same rules as POST /v1/server/sponsors, its events with the token's callbackId.
  // assumed: a test session boosts a sample creator and records nothing.
  app.put('/v1/webview/sessions/:sessionId/boost', (c) => {
    const session = liveSession(c, store);
    if (session instanceof Response) return session;
    const checked = check(BoostFromWebview, c.get('json'));
    if (!checked.success) return invalid(c, checked.details);
    const { creatorKey } = checked.data;
    if (session.isTest) {
      const creator = MOCK_CREATORS.find((mock) => mock.creatorKey === creatorKey);
      if (!creator) return notFound(c, `Creator ${creatorKey} not found`);
      const sample: BoostRecord = { userId: session.userId, campaignId: mockCampaign(store.now()).campaignId, creatorKey, creatorName: creator.creatorName, isActive: true, sponsoredAt: store.iso() };
      return ok(c, sample);
    }
    // Spec "Callback tracking": events triggered by a request carry its callbackId; a boost in the web view is the
    // work of the token request that opened it (the relay binds that id to the player for this).
    const outcome = applyBoost(
      services,
      {
        userId: session.userId,
        creatorKey,
        ...(session.campaignId !== undefined ? { campaignId: session.campaignId } : {}),
        ...(session.callbackId !== undefined ? { callbackId: session.callbackId } : {}),
      },
      'upsert',
    );
    return outcome.ok ? ok(c, outcome.boost) : fail(c, outcome.status, outcome.code, outcome.message);
  });

  // Not `c.html`: it spreads its headers and reads them with `for...in`, which throws under a polluted prototype (respond.ts `json`).
  app.get('/webview', (c) => c.body(WEBVIEW_PAGE, { status: 200, headers: { 'content-type': 'text/html; charset=UTF-8' } }));
}

/**
 * Ends the user's issued tokens and open sessions of one mode: live ones for a live token, test ones for a test
 * token. assumed: the two modes are kept apart in both directions (a live token leaves a test session alone too).
 */
function invalidateUser(store: Store, userId: string, isTest: boolean): void {
  const { token, session } = current(store, userId, isTest);
  if (token?.state === 'ISSUED') token.state = 'INVALIDATED';
  if (session) session.valid = false;
  store.webviewCurrent.delete(webviewKey(userId, isTest));
}

/** Lets the user's current token or session go once the store dropped it (`limits.records`): nothing else holds it. */
function forget(store: Store, dropped: StoredToken | StoredWebviewSession): void {
  const key = webviewKey(dropped.userId, dropped.isTest);
  const entry = store.webviewCurrent.get(key);
  if (entry?.token === dropped) delete entry.token;
  if (entry?.session === dropped) delete entry.session;
  if (entry && !entry.token && !entry.session) store.webviewCurrent.delete(key);
}

/** The user's current token and session of one mode (created empty). */
function current(store: Store, userId: string, isTest: boolean): { token?: StoredToken; session?: StoredWebviewSession } {
  const key = webviewKey(userId, isTest);
  let entry = store.webviewCurrent.get(key);
  // No prototype: `entry.token` of an entry without one must not read a polluted `Object.prototype.token`.
  if (!entry) store.webviewCurrent.set(key, (entry = Object.create(null) as { token?: StoredToken; session?: StoredWebviewSession }));
  return entry;
}

function webviewKey(userId: string, isTest: boolean): string {
  return `${isTest ? 'test' : 'live'}:${userId}`;
}

function liveSession(c: AppContext, store: Store): StoredWebviewSession | Response {
  const session = store.webviewSessions.get(c.req.param('sessionId') ?? '');
  if (!session || !session.valid || store.now() >= Date.parse(session.expiresAt)) {
    return fail(c, 401, 'UNAUTHORIZED', 'The web view session is unknown, expired or replaced by a newer one');
  }
  return session;
}

function withoutCreatorKeys<T extends { creatorKeys: string[] }>({ creatorKeys: _keys, ...campaign }: T): Omit<T, 'creatorKeys'> {
  return campaign;
}
