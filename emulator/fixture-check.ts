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

/**
 * @throws TypeError `Invalid fixtures: <path> <message>; …` when `fixtures` does not have the shape the emulator reads,
 * or holds what JSON data cannot (anywhere, also in a field the shape does not check: {@link notData})
 */
export function checkFixtures(fixtures: Fixtures): void {
  // Not a structuredClone first (check reads an own-fields copy and changes nothing): a function where data goes was
  // structuredClone's DataCloneError ("could not be cloned"), not a message naming the field.
  const checked = check(FixturesShape, fixtures);
  if (!checked.success) throw new TypeError(`Invalid fixtures: ${checked.details.slice(0, 5).map((d) => `${d.path} ${d.message}`).join('; ')}`);
  const problem = notData(fixtures, '', []) ?? cloneProblem(fixtures);
  if (problem) throw new TypeError(`Invalid fixtures: ${problem}; fixtures are JSON data`);
}

/**
 * Where `value` holds what JSON data cannot: a function, a symbol or a bigint, or a cycle, as `<path> is a function`. The
 * shape lets a field it does not check through (a field of a newer spec, a note of the test's own), and the emulator
 * then copies the fixtures with `structuredClone` (store.ts, at creation and every reset), which threw a DataCloneError
 * ("() => undefined could not be cloned", no path) for a function or a symbol, and writes them as JSON in
 * `GET /_emulator/state`, which answered 500 for a bigint or a cycle. Read as both do: the own enumerable string keys
 * (`Object.keys`; a class instance's methods on its prototype are not copied, a class field's arrow function is).
 */
function notData(value: unknown, path: string, within: Array<{ value: object; path: string }>): string | undefined {
  if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return `${path} is a ${typeof value}`;
  if (typeof value !== 'object' || value === null) return undefined;
  const ancestor = within.find((outer) => outer.value === value);
  if (ancestor) return `${path} refers back to ${ancestor.path || 'the fixtures'} (a cycle)`;
  within.push({ value, path });
  for (const key of Object.keys(value)) {
    const problem = notData((value as Record<string, unknown>)[key], path ? `${path}.${key}` : key, within);
    if (problem) return problem;
  }
  within.pop();
  return undefined;
}

/** What `structuredClone` or JSON still refuses where {@link notData} lists no field (a WeakMap, a function in a Map): their own words. */
function cloneProblem(fixtures: Fixtures): string | undefined {
  try {
    JSON.stringify(structuredClone(fixtures));
    return undefined;
  } catch (error) {
    return String((error as Error)?.message ?? error);
  }
}
