import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import { Id } from '../schema/primitives.js';
import { ChangeSponsorRequest, CreateSponsorRequest, type BoostHistoryEntry, type BoostRecord } from '../schema/sponsors.js';

/** Boosts ("sponsor" records). @see spec "Change boosted creator" */
export class Sponsors extends Resource {
  /**
   * Points a user's boost at another creator; allowed 30 days after registration or the last change.
   * Retried only after 429 (not processed).
   * @throws BoostCooldownError inside the cooldown (`daysRemaining` says how long)
   * @throws NotFoundError when the creator does not exist
   */
  async change(userId: string, request: ChangeSponsorRequest, options?: RequestOptions): Promise<BoostRecord> {
    const id = validated(Id, userId, 'userId');
    const body = validated(ChangeSponsorRequest, request);
    return this.transport.data({ method: 'PUT', path: path`/v1/server/sponsors/user/${id}`, body, retry: 'rate-limit', cooldown: true, response: { name: 'BoostRecord', shape: 'item' }, options });
  }

  /**
   * Creates a user's boost (`POST /v1/server/sponsors`); sends `sponsor.created`, or `sponsor.changed` when
   * the creator differs from the current one. Retried only after 429.
   * @beta assumed (DESIGN section 10): the spec names this operation without a shape.
   */
  async create(request: CreateSponsorRequest, options?: RequestOptions): Promise<BoostRecord> {
    const body = validated(CreateSponsorRequest, request);
    return this.transport.data({ method: 'POST', path: path`/v1/server/sponsors`, body, retry: 'rate-limit', cooldown: true, response: { name: 'BoostRecord', shape: 'item' }, options });
  }

  /**
   * A user's boost history (`GET /v1/server/sponsors/user/{userId}/history`). Retried after transient failures.
   * @beta assumed (DESIGN section 10): the spec names this operation without a shape.
   */
  async history(userId: string, options?: RequestOptions): Promise<BoostHistoryEntry[]> {
    const id = validated(Id, userId, 'userId');
    return this.transport.get(path`/v1/server/sponsors/user/${id}/history`, 'BoostHistoryEntry', 'list', options);
  }
}
