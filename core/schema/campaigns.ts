/** Campaigns and creators. @see spec "Campaign", "Creator", "Search creators" */
import * as z from 'zod/mini';
import { Flag, Limit, LocalizedText, SearchText, UtcDateTime } from './primitives.js';

const campaignFields = {
  campaignId: z.string(),
  projectId: z.string(),
  campaignName: LocalizedText,
  description: LocalizedText,
  startDate: UtcDateTime,
  endDate: UtcDateTime,
};
export const Campaign = z.object(campaignFields);
export type Campaign = z.infer<typeof Campaign>;

/** Campaign as the Client API detail returns it: with `status`. */
export const CampaignDetail = z.object({ ...campaignFields, status: z.string() });
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
  q: SearchText,
  limit: z.optional(Limit),
  isTest: z.optional(Flag),
});
export type SearchCreatorsQuery = z.infer<typeof SearchCreatorsQuery>;
