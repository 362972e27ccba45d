/**
 * Creating and changing a user's boost, with the 30-day cooldown. Shared by the sponsor routes and the web view.
 * @see spec "Change boosted creator", "States and transitions"
 */
import type { ErrorCode } from '../core/schema/errors.js';
import { BOOST_COOLDOWN_DAYS, type BoostRecord } from '../core/schema/sponsors.js';
import type { Services } from './app-env.js';
import { withoutPrototypes } from './data-only.js';
import { MOCK_CREATORS } from './fixtures.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** What a boost operation asks for. */
export interface BoostChange {
  userId: string;
  creatorKey: string;
  campaignId?: string;
  callbackId?: string;
  isTest?: boolean;
}

/** The boost after the operation, or the error to answer. */
export type BoostOutcome =
  | { ok: true; boost: BoostRecord; action: 'CREATED' | 'CHANGED' | 'UNCHANGED' }
  | { ok: false; status: 400 | 404; code: ErrorCode; message: string };

/**
 * Points the user's boost at `creatorKey`. `mode: 'change'` (PUT) needs an existing boost (404 otherwise, assumed);
 * `mode: 'upsert'` (POST, assumed) creates one (`sponsor.created`) when there is none. Checks, in order: campaign
 * (given, else the active one; 404), creator (404), creator takes part in the campaign (404, assumed). The same
 * creator and campaign again changes nothing (assumed). Otherwise the cooldown applies: fewer than 30 days since
 * `sponsoredAt` answers 400 `BAD_REQUEST` "Boost can be changed again in N days" (N rounded up; "1 day"); else the boost
 * changes, its cooldown restarts, history gets a CHANGED entry and `sponsor.changed` is sent. In test mode
 * every check runs against the recorded state and nothing is recorded or sent; the mock creators (MOCK_CREATORS, what a
 * test-mode search answers) are creators of every campaign there.
 */
export function applyBoost({ store, webhooks }: Services, request: BoostChange, mode: 'change' | 'upsert'): BoostOutcome {
  // Own fields only: callers build the request as an object literal, which would inherit a polluted `isTest`.
  const { userId, creatorKey, callbackId, isTest, campaignId } = withoutPrototypes({ ...request });
  const current = store.boosts.get(userId);
  if (!current && mode === 'change') return { ok: false, status: 404, code: 'NOT_FOUND', message: `User ${userId} has no boost` };
  const campaign = campaignId !== undefined ? store.campaign(campaignId) : store.activeCampaign();
  if (!campaign) {
    const message = campaignId !== undefined ? `Campaign ${campaignId} not found` : 'The project has no active campaign';
    return { ok: false, status: 404, code: 'NOT_FOUND', message };
  }
  // Test mode answers mock data (spec "Test mode"): a test-mode search answers MOCK_CREATORS, so a test-mode boost
  // takes their keys too, in any campaign (assumed), else the SDK's picker in test mode offers creators it cannot boost.
  const mock = isTest ? MOCK_CREATORS.find((candidate) => candidate.creatorKey === creatorKey) : undefined;
  const creator = mock ?? store.creator(creatorKey);
  if (!creator) return { ok: false, status: 404, code: 'NOT_FOUND', message: `Creator ${creatorKey} not found` };
  if (!mock && !campaign.creatorKeys.includes(creatorKey)) {
    return { ok: false, status: 404, code: 'NOT_FOUND', message: `Creator ${creatorKey} does not take part in campaign ${campaign.campaignId}` };
  }
  const now = store.now();
  const next = { userId, campaignId: campaign.campaignId, creatorKey, sponsoredAt: store.iso(now) };

  if (!current) {
    if (!isTest) {
      store.keep(store.boosts, userId, next);
      store.append(store.boostHistory, { action: 'CREATED', userId, campaignId: next.campaignId, creatorKey, createdAt: next.sponsoredAt });
      webhooks.emit('sponsor.created', { userId, campaignId: next.campaignId, creatorKey, creatorName: creator.creatorName, sponsoredAt: next.sponsoredAt }, callbackId);
    }
    return { ok: true, boost: { ...store.boostRecord(next), creatorName: creator.creatorName }, action: 'CREATED' };
  }
  if (current.creatorKey === creatorKey && current.campaignId === campaign.campaignId) {
    return { ok: true, boost: store.boostRecord(current), action: 'UNCHANGED' };
  }
  const remainingMs = Date.parse(current.sponsoredAt) + BOOST_COOLDOWN_DAYS * DAY_MS - now;
  if (remainingMs > 0) {
    const days = Math.ceil(remainingMs / DAY_MS);
    return { ok: false, status: 400, code: 'BAD_REQUEST', message: `Boost can be changed again in ${days} day${days === 1 ? '' : 's'}` };
  }
  if (!isTest) {
    store.keep(store.boosts, userId, next);
    store.append(store.boostHistory, { action: 'CHANGED', userId, campaignId: next.campaignId, creatorKey, previousCreatorKey: current.creatorKey, createdAt: next.sponsoredAt });
    webhooks.emit('sponsor.changed', { userId, campaignId: next.campaignId, oldCreatorKey: current.creatorKey, newCreatorKey: creatorKey, changedAt: next.sponsoredAt }, callbackId);
  }
  return { ok: true, boost: { ...store.boostRecord(next), creatorName: creator.creatorName }, action: 'CHANGED' };
}
