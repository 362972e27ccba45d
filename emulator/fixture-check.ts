/**
 * The shape of fixtures given to `createEmulator`: what the routes read, typed as the spec's resources. A test
 * author's fixtures from JavaScript (or built at run time) were taken as they came, so a list left out answered
 * 500 at the first request that read it, and a boost whose `sponsoredAt` is not a timestamp had no cooldown at all
 * (`Date.parse` gave NaN, and `NaN > 0` is false, so the boost could be changed at once).
 * @see spec "Campaign", "Creator", "Coupon redemption result", "Boost (sponsor) record"
 */
import * as z from 'zod/mini';
import { CampaignDetail, Creator } from '../core/schema/campaigns.js';
import { RewardItem } from '../core/schema/coupons.js';
import { CreatorKey, LocalizedText, UtcDateTime } from '../core/schema/primitives.js';
import { check } from './data-only.js';
import type { Fixtures } from './fixtures.js';

const FixturesShape = z.object({
  projectId: z.string(),
  campaigns: z.array(z.object({ ...CampaignDetail.shape, creatorKeys: z.array(z.string()) })),
  creators: z.array(z.object({ ...Creator.shape, creatorKey: CreatorKey })),
  coupons: z.array(
    z.object({
      couponCode: z.string().check(z.minLength(1, 'must not be empty')),
      packageId: z.int(),
      campaignId: z.string(),
      creatorKey: z.optional(CreatorKey),
      perUserLimit: z.int().check(z.minimum(0, 'must be at least 0')),
      itemName: LocalizedText,
      reward: z.array(RewardItem),
    }),
  ),
  boosts: z.array(z.object({ userId: z.string(), campaignId: z.string(), creatorKey: CreatorKey, sponsoredAt: UtcDateTime })),
});

/** @throws TypeError `Invalid fixtures: <path> <message>; …` when `fixtures` does not have the shape the emulator reads */
export function checkFixtures(fixtures: Fixtures): void {
  // Not a structuredClone first (check reads an own-fields copy and changes nothing): a function where data goes was
  // structuredClone's DataCloneError ("could not be cloned"), not a message naming the field.
  const checked = check(FixturesShape, fixtures);
  if (!checked.success) throw new TypeError(`Invalid fixtures: ${checked.details.slice(0, 5).map((d) => `${d.path} ${d.message}`).join('; ')}`);
}
