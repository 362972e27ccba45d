import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../http/request-validation.js';
import { Id } from '../schema/rules.js';
import type { BoostRecord } from '../schema/sponsors.js';

/** Boost status reads of the Client API. */
export class ClientSponsors extends Resource {
  /**
   * The user's current boost (`GET /v1/client/sponsors/user/{userId}`). Retried after transient failures.
   * @beta assumed (DESIGN section 10): the spec names boost status queries without a shape.
   * @throws NotFoundError when the user has no boost
   */
  async get(userId: string, options?: RequestOptions): Promise<BoostRecord> {
    return this.transport.get(path`/v1/client/sponsors/user/${validated(Id, userId, 'userId')}`, 'BoostRecord', 'item', options);
  }
}
