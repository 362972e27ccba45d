import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../http/request-validation.js';
import type { CampaignDetail, Creator } from '../schema/campaigns.js';
import { Id } from '../schema/rules.js';

/** Campaign reads of the Client API. */
export class Campaigns extends Resource {
  /** One campaign, with its status. Retried after transient failures (a read). @throws NotFoundError */
  async get(campaignId: string, options?: RequestOptions): Promise<CampaignDetail> {
    return this.transport.get(path`/v1/client/campaigns/${validated(Id, campaignId, 'campaignId')}`, 'CampaignDetail', 'item', options);
  }

  /** The creators taking part in a campaign. Retried after transient failures (a read). */
  async listCreators(campaignId: string, options?: RequestOptions): Promise<Creator[]> {
    return this.transport.get(path`/v1/client/campaigns/${validated(Id, campaignId, 'campaignId')}/creators`, 'Creator', 'list', options);
  }
}
