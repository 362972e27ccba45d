import { apiEndpoint } from '../http/environment.js';
import { createTransport, type TransportOptions } from '../http/transport.js';
import { Campaigns } from './campaigns.js';
import { Creators } from './creators.js';
import { ClientSponsors } from './sponsors.js';

/** Options of {@link CampaignClient}. */
export interface CampaignClientOptions extends TransportOptions {
  /** The Client key, `<CLIENT_KEY_ID>:<CLIENT_SECRET>`: read-only, safe to ship in a game. */
  clientKey: string;
}

/**
 * The Client API: read-only campaign and creator queries with a Client key, safe in a game client.
 * @example
 * ```ts
 * const client = new CampaignClient({ clientKey: 'ck_live:secret', environment: 'live' });
 * const creators = await client.creators.search({ query: 'star' });
 * ```
 * @see spec "Client API"
 */
export class CampaignClient {
  declare readonly campaigns: Campaigns;
  declare readonly creators: Creators;
  declare readonly sponsors: ClientSponsors;

  /** @throws TypeError when the key is not `<key_id>:<secret>` */
  constructor(options: CampaignClientOptions);
  // From JavaScript with no options at all: the missing key named, as for {}, not "Cannot read properties of undefined"
  // (a default rather than `options || {}`: 3 B; the signature above keeps the options required in the types).
  constructor(options = {} as CampaignClientOptions) {
    const transport = createTransport(apiEndpoint(options.clientKey, 'Client', options), options);
    this.campaigns = new Campaigns(transport);
    this.creators = new Creators(transport);
    this.sponsors = new ClientSponsors(transport);
  }
}
