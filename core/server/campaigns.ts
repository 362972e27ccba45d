import { path } from '../http/environment.js';
import { keyOf, pagedList, type PagePromise } from '../http/page.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import type { Campaign, Creator } from '../schema/campaigns.js';
import { Id, PageQuery } from '../schema/primitives.js';

/** Campaigns of the project, as the Server API lists them. */
export class ServerCampaigns extends Resource {
  /** Every campaign of the project, paged (`await` one page, `for await` every campaign). Bad paging input rejects on first use. Retried after transient failures. */
  list(query: PageQuery = {}, options?: RequestOptions): PagePromise<Campaign> {
    return pagedList(this.transport, () => {
      const { page, limit } = validated(PageQuery, query);
      return {
        firstPage: page,
        spec: (n) => ({ method: 'GET', path: path`/v1/server/campaigns`, query: { page: n, limit }, retry: 'safe', response: { name: 'Campaign', shape: 'page' }, options }),
      };
    }, keyOf('campaignId'));
  }

  /** The creators of a campaign. Retried after transient failures. */
  async listCreators(campaignId: string, options?: RequestOptions): Promise<Creator[]> {
    const id = validated(Id, campaignId, 'campaignId');
    return this.transport.get(path`/v1/server/campaigns/${id}/creators`, 'Creator', 'list', options);
  }
}
