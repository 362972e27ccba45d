/**
 * What the emulator holds at start: one project with an active and a pending campaign, creators, coupons with
 * different per-user limits, and users with boosts in and out of the 30-day cooldown. Tests import the ids
 * below instead of repeating the strings.
 */
import type { CampaignDetail, Creator } from '../core/schema/campaigns.js';
import type { RewardItem } from '../core/schema/coupons.js';

/** A campaign and the keys of the creators taking part in it. */
export interface CampaignFixture extends CampaignDetail {
  creatorKeys: string[];
}

/** A coupon code and what redeeming it gives. assumed: the spec shows no coupon resource. */
export interface CouponFixture {
  couponCode: string;
  packageId: number;
  campaignId: string;
  /** Set for a creator's own code; usage records then carry this creator. */
  creatorKey?: string;
  /** How many times one user may redeem it (USER_CODE_LIMIT beyond). */
  perUserLimit: number;
  itemName: Record<string, string>;
  reward: RewardItem[];
}

/** A boost that exists at start; `sponsoredAt` starts its 30-day cooldown. */
export interface BoostFixture {
  userId: string;
  campaignId: string;
  creatorKey: string;
  sponsoredAt: string;
}

/** Everything the emulator holds at start and after a reset. */
export interface Fixtures {
  projectId: string;
  campaigns: CampaignFixture[];
  creators: Creator[];
  coupons: CouponFixture[];
  boosts: BoostFixture[];
}

/** The demo project. */
export const DEMO_PROJECT_ID = 'proj_demo';
/** The campaign with status ACTIVE: attribution goes here when a request names none. */
export const DEMO_ACTIVE_CAMPAIGN_ID = 'cmp_spring_festival';
/** A campaign not yet shown to players (status PENDING_EXPOSURE). */
export const DEMO_PENDING_CAMPAIGN_ID = 'cmp_summer_cup';
/** Keys of the demo creators; all take part in the active campaign, the first three in the pending one too. */
export const DEMO_CREATOR_KEYS = ['LUNA7', 'PIXEL', 'NOVA1', 'KAIZN', 'RIVER', 'ZEPHR', 'MOCHI', 'BLAZE'] as const;
/** Coupon codes: WELCOME once per user, DAILY three times per user, LUNA7GIFT (a creator's code) twice per user. */
export const DEMO_COUPONS = { welcome: 'WELCOME', daily: 'DAILY', creator: 'LUNA7GIFT' } as const;
/** Per-user limits of the demo coupons. */
export const DEMO_COUPON_LIMITS = { WELCOME: 1, DAILY: 3, LUNA7GIFT: 2 } as const;
/** Demo users: one boosted 40 days ago (may change), one boosted 10 days ago (20 days of cooldown left), one without a boost. */
export const DEMO_USERS = { changeable: 'user_boost_40d', inCooldown: 'user_boost_10d', noBoost: 'user_new' } as const;
/** Creator each demo user's boost points at. */
export const DEMO_BOOSTED_CREATORS = { changeable: 'LUNA7', inCooldown: 'PIXEL' } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

const CREATOR_DETAILS: Array<[name: string, genre: string]> = [
  ['Luna Plays', 'RPG'],
  ['PixelPam', 'Puzzle'],
  ['Nova One', 'Strategy'],
  ['Kaizen', 'Action'],
  ['River Runs', 'Racing'],
  ['Zephyr', 'Shooter'],
  ['Mochi Mochi', 'Casual'],
  ['Blaze', 'Fighting'],
];

const gold = (quantity: number): RewardItem => ({
  itemName: { en: 'Gold', ko: '골드' },
  itemId: 'item_gold',
  itemQuantity: quantity,
  itemImageUrl: 'https://cdn.example.com/items/gold.png',
});
const gems = (quantity: number): RewardItem => ({
  itemName: { en: 'Gems', ko: '보석' },
  itemId: 'item_gem',
  itemQuantity: quantity,
  itemImageUrl: 'https://cdn.example.com/items/gem.png',
});

/**
 * The demo data set, with dates relative to `now` (the emulator passes its clock).
 * @param now - ms since the epoch the campaign dates and boost ages are measured from. @defaultValue Date.now()
 */
export function demoFixtures(now: number = Date.now()): Fixtures {
  const iso = (offsetDays: number) => new Date(now + offsetDays * DAY_MS).toISOString();
  const creators: Creator[] = DEMO_CREATOR_KEYS.map((creatorKey, index) => {
    const [creatorName, genre] = CREATOR_DETAILS[index]!;
    return { creatorId: index + 1, creatorName, genre, creatorKey, status: 'ACTIVE' };
  });
  return {
    projectId: DEMO_PROJECT_ID,
    campaigns: [
      {
        campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
        projectId: DEMO_PROJECT_ID,
        campaignName: { en: 'Spring Festival', ko: '봄 축제' },
        description: { en: 'Boost your favourite creator and earn rewards.', ko: '좋아하는 크리에이터를 부스트하고 보상을 받으세요.' },
        startDate: iso(-45),
        endDate: iso(45),
        status: 'ACTIVE',
        creatorKeys: [...DEMO_CREATOR_KEYS],
      },
      {
        campaignId: DEMO_PENDING_CAMPAIGN_ID,
        projectId: DEMO_PROJECT_ID,
        campaignName: { en: 'Summer Cup', ko: '여름 컵' },
        description: { en: 'Coming soon.', ko: '곧 시작합니다.' },
        startDate: iso(30),
        endDate: iso(90),
        status: 'PENDING_EXPOSURE',
        creatorKeys: DEMO_CREATOR_KEYS.slice(0, 3),
      },
    ],
    creators,
    coupons: [
      {
        couponCode: DEMO_COUPONS.welcome,
        packageId: 101,
        campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
        perUserLimit: DEMO_COUPON_LIMITS.WELCOME,
        itemName: { en: 'Welcome Pack', ko: '웰컴 패키지' },
        reward: [gold(1000), gems(50)],
      },
      {
        couponCode: DEMO_COUPONS.daily,
        packageId: 102,
        campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
        perUserLimit: DEMO_COUPON_LIMITS.DAILY,
        itemName: { en: 'Daily Gold', ko: '일일 골드' },
        reward: [gold(100)],
      },
      {
        couponCode: DEMO_COUPONS.creator,
        packageId: 103,
        campaignId: DEMO_ACTIVE_CAMPAIGN_ID,
        creatorKey: 'LUNA7',
        perUserLimit: DEMO_COUPON_LIMITS.LUNA7GIFT,
        itemName: { en: "Luna's Gift", ko: '루나의 선물' },
        reward: [gems(100)],
      },
    ],
    boosts: [
      { userId: DEMO_USERS.changeable, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: DEMO_BOOSTED_CREATORS.changeable, sponsoredAt: iso(-40) },
      { userId: DEMO_USERS.inCooldown, campaignId: DEMO_ACTIVE_CAMPAIGN_ID, creatorKey: DEMO_BOOSTED_CREATORS.inCooldown, sponsoredAt: iso(-10) },
    ],
  };
}

/** Campaign that test-mode web view sessions show. assumed: the spec only says test mode returns sample data. */
export function mockCampaign(now: number): CampaignFixture {
  return {
    campaignId: 'cmp_test_sample',
    projectId: DEMO_PROJECT_ID,
    campaignName: { en: 'Sample Campaign (test mode)', ko: '샘플 캠페인 (테스트 모드)' },
    description: { en: 'Sample data: nothing here is recorded.', ko: '샘플 데이터: 기록되지 않습니다.' },
    startDate: new Date(now - 7 * DAY_MS).toISOString(),
    endDate: new Date(now + 7 * DAY_MS).toISOString(),
    status: 'ACTIVE',
    creatorKeys: MOCK_CREATORS.map((creator) => creator.creatorKey),
  };
}

/** Creators that test-mode searches and web view sessions return. assumed: ids 9001 and up, keys TEST1..TEST3. */
export const MOCK_CREATORS: readonly Creator[] = [
  { creatorId: 9001, creatorName: 'Test Creator One', genre: 'RPG', creatorKey: 'TEST1', status: 'ACTIVE' },
  { creatorId: 9002, creatorName: 'Test Creator Two', genre: 'Puzzle', creatorKey: 'TEST2', status: 'ACTIVE' },
  { creatorId: 9003, creatorName: 'Test Creator Three', genre: 'Action', creatorKey: 'TEST3', status: 'ACTIVE' },
];
