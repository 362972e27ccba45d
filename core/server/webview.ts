import { path } from '../http/environment.js';
import { Resource } from '../http/resource.js';
import type { RequestOptions } from '../http/transport.js';
import { validated } from '../schema/validate.js';
import { CreateOttRequest, type OneTimeToken } from '../schema/webview.js';

/** Web view one-time tokens. @see spec "Create web view one-time token" */
export class Webview extends Resource {
  /**
   * Issues a single-use token (60 s) bound to a PKCE S256 challenge; the user's older web view session ends.
   * Retried only after 429: a second token would invalidate the first.
   */
  async createToken(request: CreateOttRequest, options?: RequestOptions): Promise<OneTimeToken> {
    const body = validated(CreateOttRequest, request);
    return this.transport.data({ method: 'POST', path: path`/v1/server/webview/ott`, body, retry: 'rate-limit', response: { name: 'OneTimeToken', shape: 'item' }, options });
  }
}
