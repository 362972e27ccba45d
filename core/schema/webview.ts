/** Web view one-time tokens. @see spec "Create web view one-time token" */
import * as z from 'zod/mini';
import { checked, Id, Metadata, WriteOptions } from './primitives.js';

/** PKCE S256 challenge: Base64URL without padding, 43 to 128 characters. */
export const CodeChallenge = checked(z.string(), 
  z.minLength(43, 'must be at least 43 characters'),
  z.maxLength(128, 'must be at most 128 characters'),
  z.regex(/^[A-Za-z0-9_-]+$/, 'must be Base64URL without padding'),
);

/** RFC 7636 code verifier: 43 to 128 characters of the unreserved set. */
export const CodeVerifier = checked(z.string(), z.regex(/^[A-Za-z0-9._~-]{43,128}$/, 'must be 43 to 128 characters of [A-Za-z0-9._~-]'));

/** Body of `POST /v1/server/webview/ott`. assumed: userId and codeChallenge are required. */
export const CreateOttRequest = z.object({
  userId: Id,
  campaignId: z.optional(Id),
  codeChallenge: CodeChallenge,
  metadata: z.optional(Metadata),
  showCampaignDetail: z.optional(z.boolean()),
  ...WriteOptions,
});
export type CreateOttRequest = z.infer<typeof CreateOttRequest>;

export const OneTimeToken = z.object({ ott: z.string(), expiresIn: z.int() });
export type OneTimeToken = z.infer<typeof OneTimeToken>;

/** Body of the exchange `POST /v1/webview/sessions` on the web view host. assumed (DESIGN section 10). */
export const WebviewExchangeRequest = z.object({ ott: Id, codeVerifier: CodeVerifier });
export type WebviewExchangeRequest = z.infer<typeof WebviewExchangeRequest>;

/** assumed (DESIGN section 10): what the exchange answers. */
export const WebviewSession = z.object({
  sessionId: z.string(),
  userId: z.string(),
  campaignId: z.optional(z.string()),
  showCampaignDetail: z.boolean(),
  expiresAt: z.string(),
});
export type WebviewSession = z.infer<typeof WebviewSession>;
