/**
 * The wire between a game client and its game server's relay (DESIGN section 6). The bodies reuse the
 * API schemas, so the SDK, the relay and the emulator hold one set of rules.
 */
import * as z from 'zod/mini';
import { BulkPlaytimeItem, BulkPlaytimeItems } from '../schema/playtime.js';
import { Id, Metadata, Timestamp } from '../schema/primitives.js';
import { CodeChallenge } from '../schema/webview.js';

export { RELAY_ROUTES } from './routes.js';

/**
 * `POST {relay}/playtime/sessions`: bulk items; the user is bound by the relay, the body's userId checked.
 * `sentAt` is the device's wall clock when it sent the batch: the relay moves the sessions' times by its own
 * clock's difference from it (a device clock that is off by a constant amount then dates its play right).
 */
export const RelayPlaytimeRequest = z.object({ sessions: BulkPlaytimeItems, isTest: z.optional(z.boolean()), sentAt: z.optional(Timestamp) });
export type RelayPlaytimeRequest = z.infer<typeof RelayPlaytimeRequest>;
export type RelaySession = z.infer<typeof BulkPlaytimeItem>;

/**
 * `POST {relay}/webview/ott`: the relay adds the userId; `isTest` is passed through (a sample-data session), and so is
 * `callbackId`, bound to the player (`relayCallbackId`).
 */
export const RelayWebviewRequest = z.object({
  campaignId: z.optional(Id),
  codeChallenge: CodeChallenge,
  showCampaignDetail: z.optional(z.boolean()),
  metadata: z.optional(Metadata),
  isTest: z.optional(z.boolean()),
  callbackId: z.optional(z.string()),
});
export type RelayWebviewRequest = z.infer<typeof RelayWebviewRequest>;

/** `data` of the web view route: the token and the web view address of the relay's environment. */
export interface RelayWebviewToken {
  ott: string;
  expiresIn: number;
  url: string;
}

/**
 * `PUT {relay}/sponsor` (a change, or a player's first boost); `isTest` is passed through (validated, nothing
 * recorded, no cooldown started), and so is `callbackId`, bound to the player (`relayCallbackId`: the `sponsor.changed`
 * webhook carries that). The fields' rules are those of `ChangeSponsorRequest` (an unknown key is the service's 404 to
 * give).
 */
export const RelaySponsorRequest = z.object({ newCreatorKey: Id, campaignId: z.optional(Id), isTest: z.optional(z.boolean()), callbackId: z.optional(z.string()) });
export type RelaySponsorRequest = z.infer<typeof RelaySponsorRequest>;
