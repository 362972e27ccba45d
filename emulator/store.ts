/** Everything the emulator holds: fixtures, what requests recorded, the clock, faults; and going back to the fixtures. */
import type { Creator } from '../core/schema/campaigns.js';
import type { CouponUsage } from '../core/schema/coupons.js';
import type { PaymentRecord } from '../core/schema/payments.js';
import type { Platform } from '../core/schema/primitives.js';
import type { BoostHistoryEntry, BoostRecord } from '../core/schema/sponsors.js';
import type { WebhookConfig, WebhookDeliveryLog, WebhookEventType } from '../core/schema/webhooks.js';
import type * as z from 'zod/mini';
import type { CampaignFixture, CouponFixture, Fixtures } from './fixtures.js';
import { withoutPrototype, withoutPrototypes } from './data-only.js';
import type { Clock, EmulatorLimits, Faults } from './options.js';

/** A recorded playtime session, with the attribution the emulator gave it. */
export interface StoredSession {
  projectId: string;
  sessionId: string;
  userId: string;
  durationSeconds: number;
  startedAt: string;
  endedAt: string;
  campaignId: string;
  creatorKey: string;
  platform: z.infer<typeof Platform>;
  metadata?: Record<string, unknown>;
  createdAt: string;
}

/** A user's boost; `sponsoredAt` is when it started pointing at its current creator (the cooldown start). */
export interface StoredBoost {
  userId: string;
  campaignId: string;
  creatorKey: string;
  sponsoredAt: string;
}

/** A registered webhook receiver with its secret. */
export interface StoredWebhook extends WebhookConfig {
  eventType: WebhookEventType;
  secret: string;
}

/** One delivery attempt, with the receiver it went to. */
export interface StoredDelivery extends WebhookDeliveryLog {
  webhookId: number;
}

/** A web view one-time token. */
export interface StoredToken {
  ott: string;
  userId: string;
  campaignId?: string;
  codeChallenge: string;
  metadata?: Record<string, unknown>;
  /** The request's `callbackId`, which the events of the web view session it opens carry. */
  callbackId?: string;
  showCampaignDetail: boolean;
  isTest: boolean;
  createdAt: string;
  expiresAt: string;
  state: 'ISSUED' | 'USED' | 'INVALIDATED';
}

/** A web view session made by exchanging a token. */
export interface StoredWebviewSession {
  sessionId: string;
  userId: string;
  campaignId?: string;
  showCampaignDetail: boolean;
  isTest: boolean;
  metadata?: Record<string, unknown>;
  /** The token request's `callbackId`: the boost events of this session carry it. */
  callbackId?: string;
  createdAt: string;
  expiresAt: string;
  valid: boolean;
}

/** The read-only snapshot `state()` and `GET /_emulator/state` return. */
export interface EmulatorState {
  now: string;
  fixtures: Fixtures;
  sessions: StoredSession[];
  payments: PaymentRecord[];
  couponUsages: CouponUsage[];
  boosts: BoostRecord[];
  boostHistory: BoostHistoryEntry[];
  webhooks: Array<WebhookConfig & { eventType: WebhookEventType }>;
  deliveries: StoredDelivery[];
  webview: { tokens: StoredToken[]; sessions: StoredWebviewSession[] };
  faults: Faults;
  /** Requests received per route, e.g. `"POST /v1/server/playtime/sessions/bulk": 3`. */
  requests: Record<string, number>;
}

/** Where a request without a campaign is attributed. */
export interface Attribution {
  campaignId: string;
  creatorKey: string;
}

type Counter = 'payment' | 'couponUsage' | 'webhook';

/** The emulator's in-memory state. Mutated only by route handlers and the webhook dispatcher. */
export class Store {
  fixtures!: Fixtures;
  faults!: Faults;
  /** Sessions by sessionId: unique by projectId + sessionId, and the emulator holds one project. */
  sessions = new Map<string, StoredSession>();
  payments = new Map<string, PaymentRecord>();
  couponUsages: CouponUsage[] = [];
  boosts = new Map<string, StoredBoost>();
  boostHistory: BoostHistoryEntry[] = [];
  webhooks = new Map<number, StoredWebhook>();
  deliveries: StoredDelivery[] = [];
  tokens = new Map<string, StoredToken>();
  webviewSessions = new Map<string, StoredWebviewSession>();
  /**
   * Each user's token still ISSUED and session still valid, by mode (`live:<userId>` or `test:<userId>`): a new
   * token ends only these (there is at most one of each), without walking every token a long run issued.
   */
  webviewCurrent = new Map<string, { token?: StoredToken; session?: StoredWebviewSession }>();
  requests: Record<string, number> = {};
  /** Bumped by every reset, so work started before it (webhook retries) can tell it is stale. */
  generation = 0;
  #counters: Record<Counter, number> = { payment: 0, couponUsage: 0, webhook: 0 };
  #clockOffsetMs = 0;
  /** Per Map of records, the iterator at its oldest entry (see {@link Store.keep}). */
  #oldest = new WeakMap<Map<unknown, unknown>, Iterator<[unknown, unknown]>>();

  constructor(
    private readonly clock: Clock,
    private readonly loadFixtures: (now: number) => Fixtures,
    private readonly initialFaults: Faults,
    readonly limits: EmulatorLimits,
  ) {
    this.reset();
  }

  /**
   * Stores a record (its prototype set to null, data-only.ts: an optional field it lacks must not read a polluted
   * `Object.prototype`) under its key, then drops the oldest records beyond `limits.records` (a Map keeps insertion
   * order) and returns them, so that what points at them can let go too.
   */
  keep<K, V>(records: Map<K, V>, key: K, value: V): V[] {
    records.set(key, withoutPrototype(value as object) as V);
    const dropped: V[] = [];
    if (records.size <= this.limits.records) return dropped;
    // A Map iterator stays live (it skips deleted entries and reaches new ones), so each drop goes on where the last
    // one stopped; a new iterator would walk every deleted entry first, which made a full store 20 times slower.
    let oldest = this.#oldest.get(records) as Iterator<[K, V]> | undefined;
    if (!oldest) this.#oldest.set(records, (oldest = records.entries()));
    while (records.size > this.limits.records) {
      const [oldestKey, record] = oldest.next().value!;
      records.delete(oldestKey);
      dropped.push(record);
    }
    return dropped;
  }

  /**
   * Appends to a list of records (`limits.records`) or of delivery log entries, dropping the oldest beyond the
   * limit. An eighth of the limit goes at once, so a full list is not moved down for every entry appended.
   */
  append<T>(list: T[], item: T, limit: number = this.limits.records): void {
    if (list.push(withoutPrototype(item as object) as T) > limit) list.splice(0, Math.max(list.length - limit, Math.ceil(limit / 8)));
  }

  /** Appends a delivery log entry, dropping the oldest beyond `limits.deliveries`. */
  log(delivery: StoredDelivery): void {
    this.append(this.deliveries, delivery, this.limits.deliveries);
  }

  /** Emulator time in ms: the injected clock plus whatever `advanceClock` added. */
  now(): number {
    return this.clock.now() + this.#clockOffsetMs;
  }

  /** Emulator time as an ISO 8601 UTC timestamp. */
  iso(ms: number = this.now()): string {
    return new Date(ms).toISOString();
  }

  /** Moves emulator time forward (token expiry, boost cooldown). */
  advanceClock(ms: number): void {
    this.#clockOffsetMs += ms;
  }

  /** The next integer id of a kind, from 1. */
  nextId(kind: Counter): number {
    return ++this.#counters[kind];
  }

  /** Back to the fixtures: nothing recorded, clock offset 0, the initial faults, request counts cleared. */
  reset(): void {
    this.generation++;
    this.#clockOffsetMs = 0;
    this.#oldest = new WeakMap();
    this.#counters = { payment: 0, couponUsage: 0, webhook: 0 };
    this.fixtures = withoutPrototypes(structuredClone(this.loadFixtures(this.clock.now())));
    this.faults = { ...this.initialFaults };
    this.sessions.clear();
    this.payments.clear();
    this.couponUsages = [];
    this.boosts.clear();
    this.boostHistory = [];
    this.webhooks.clear();
    this.deliveries = [];
    this.tokens.clear();
    this.webviewSessions.clear();
    this.webviewCurrent.clear();
    this.requests = {};
    for (const boost of this.fixtures.boosts) {
      this.boosts.set(boost.userId, withoutPrototypes({ ...boost }));
      this.boostHistory.push(withoutPrototypes({ action: 'CREATED', userId: boost.userId, campaignId: boost.campaignId, creatorKey: boost.creatorKey, createdAt: boost.sponsoredAt }));
    }
  }

  /** A campaign by id. */
  campaign(campaignId: string): CampaignFixture | undefined {
    return this.fixtures.campaigns.find((campaign) => campaign.campaignId === campaignId);
  }

  /** The project's active campaign. assumed: the first campaign with status ACTIVE. */
  activeCampaign(): CampaignFixture | undefined {
    return this.fixtures.campaigns.find((campaign) => campaign.status === 'ACTIVE');
  }

  /** A creator by key. */
  creator(creatorKey: string): Creator | undefined {
    return this.fixtures.creators.find((creator) => creator.creatorKey === creatorKey);
  }

  /** The creators taking part in a campaign, in the campaign's order. */
  creatorsOf(campaign: CampaignFixture): Creator[] {
    return campaign.creatorKeys.map((key) => this.creator(key)).filter((creator): creator is Creator => creator !== undefined);
  }

  /** A coupon by code. assumed: codes match case-insensitively. */
  coupon(couponCode: string): CouponFixture | undefined {
    const wanted = couponCode.toUpperCase();
    return this.fixtures.coupons.find((coupon) => coupon.couponCode.toUpperCase() === wanted);
  }

  /** The boost record as responses carry it. */
  boostRecord(boost: StoredBoost): BoostRecord {
    const creatorName = this.creator(boost.creatorKey)?.creatorName ?? '';
    return { userId: boost.userId, campaignId: boost.campaignId, creatorKey: boost.creatorKey, creatorName, isActive: true, sponsoredAt: boost.sponsoredAt };
  }

  /**
   * Attribution of a request that may omit its campaign (spec "Attribution": without `campaignId`, the project's
   * active campaign). The campaign is the one given (undefined when unknown), else the active one ('' when there
   * is none). The creator is the one given, else the user's boost creator when the boost is in that campaign, else
   * ''. A boost in another (say pending) campaign never moves a request out of the active campaign.
   */
  attribute(userId: string, campaignId?: string, creatorKey?: string): Attribution | undefined {
    if (campaignId !== undefined && !this.campaign(campaignId)) return undefined;
    const target = campaignId ?? this.activeCampaign()?.campaignId ?? '';
    const boost = this.boosts.get(userId);
    const boosted = boost !== undefined && target !== '' && boost.campaignId === target ? boost.creatorKey : '';
    return { campaignId: target, creatorKey: creatorKey ?? boosted };
  }

  /** A deep copy of everything, as plain JSON (no secrets). */
  snapshot(): EmulatorState {
    return structuredClone({
      now: this.iso(),
      fixtures: this.fixtures,
      sessions: [...this.sessions.values()],
      payments: [...this.payments.values()],
      couponUsages: this.couponUsages,
      boosts: [...this.boosts.values()].map((boost) => this.boostRecord(boost)),
      boostHistory: this.boostHistory,
      webhooks: [...this.webhooks.values()].map(({ secret: _secret, ...config }) => config),
      deliveries: this.deliveries,
      webview: { tokens: [...this.tokens.values()], sessions: [...this.webviewSessions.values()] },
      faults: this.faults,
      requests: this.requests,
    });
  }
}
