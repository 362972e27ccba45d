import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated, validatedFields } from '../http/request-validation.js';
import type { Creator } from '../schema/campaigns.js';
import { CreatorKey, Flag, Limit, optional, SearchText } from '../schema/rules.js';

/** Options of {@link Creators.search}. */
export interface CreatorSearch {
  /** Text to look for, 1 to 10 characters. Sent as `q` (assumed: the spec does not name the parameter). */
  query: string;
  /** At most this many creators, up to 100. */
  limit?: number;
  /** Ask for mock data. */
  isTest?: boolean;
}

/** Creator reads of the Client API. */
export class Creators extends Resource {
  /** One creator by key. Retried after transient failures (a read). @throws NotFoundError */
  async get(creatorKey: string, options?: RequestOptions): Promise<Creator> {
    return this.transport.get(path`/v1/client/creators/${validated(CreatorKey, creatorKey, 'creatorKey')}`, 'Creator', 'item', options);
  }

  /**
   * Creators whose name or key matches `query`. Retried after transient failures (a read).
   * @throws ValidationError for an empty or over-long query, a limit outside 1..100 or a non-boolean isTest
   */
  async search(search: CreatorSearch, options?: RequestOptions): Promise<Creator[]> {
    // Every problem at once, from the rule table (no zod in client bundles). No argument at all is a missing query.
    const query = validatedFields({ q: SearchText, limit: optional(Limit), isTest: optional(Flag) }, { q: search?.query, limit: search?.limit, isTest: search?.isTest });
    return this.transport.get('/v1/client/creators/search', 'Creator', 'list', options, query);
  }
}
