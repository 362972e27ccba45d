/** Campaigns and creators. @see spec "Campaign", "Creator", "Search creators" */
import * as z from 'zod/mini';
import { LocalizedText, Timestamp } from './primitives.js';

export const Campaign = z.object({
  campaignId: z.string(),
  projectId: z.string(),
  campaignName: LocalizedText,
  description: LocalizedText,
  startDate: Timestamp,
  endDate: Timestamp,
});
export type Campaign = z.infer<typeof Campaign>;

/** Campaign as the Client API detail returns it: with `status`. */
export const CampaignDetail = z.object({ ...Campaign.shape, status: z.string() });
export type CampaignDetail = z.infer<typeof CampaignDetail>;

export const Creator = z.object({
  creatorId: z.int(),
  creatorName: z.string(),
  genre: z.string(),
  creatorKey: z.string(),
  status: z.string(),
});
export type Creator = z.infer<typeof Creator>;

/** Query of `GET /v1/client/creators/search`. assumed (DESIGN section 10): names `q`, `limit`, `isTest`. */
export const SearchCreatorsQuery = z.object({
  q: z.string().check(z.minLength(1, 'must be at least 1 character'), z.maxLength(10, 'must be at most 10 characters')),
  limit: z.optional(z.int().check(z.minimum(1, 'must be at least 1'), z.maximum(100, 'must be at most 100'))),
  isTest: z.optional(z.boolean()),
});
export type SearchCreatorsQuery = z.infer<typeof SearchCreatorsQuery>;
