/**
 * The data a Unity game sees through the WebGL bridge, as zod schemas: the SDK's own schemas where they exist
 * (campaign, creator, boost, session, item result, error detail), and for what exists only as a TypeScript
 * interface (tracker events, the bridge's error record, the picker state) a schema built from the same parts
 * here. `scripts/generate-unity-types.ts` turns them into the C# of `adapters/unity/Runtime/Generated/`.
 */
import * as z from 'zod/mini';
import type { BoostChangeRequest } from '../core/boost/boost.js';
import type { CreatorPickerState } from '../core/picker/picker.js';
import { RelaySponsorRequest, RelayWebviewRequest } from '../core/relay/protocol.js';
import { BoostRecord } from '../core/schema/sponsors.js';
import { CampaignDetail, Creator } from '../core/schema/campaigns.js';
import { ErrorDetail } from '../core/schema/errors.js';
import { BulkPlaytimeItem, PlaytimeItemResult } from '../core/schema/playtime.js';
import { Limit, Metadata, PositiveInt } from '../core/schema/primitives.js';
import { DROP_REASONS, type DroppedEvent, type FlushedEvent, type SessionEndEvent, type SessionStartEvent } from '../core/tracker/events.js';
import type { WebViewOpenOptions as LauncherOpenOptions } from '../core/webview/launcher.js';

/** A finished play session (a bulk playtime item). */
const Session = BulkPlaytimeItem;

const SessionStartEventSchema = z.object({ sessionId: z.string(), continues: z.optional(z.string()), startedAt: z.string(), campaignId: z.optional(z.string()), creatorKey: z.optional(z.string()) });
const SessionEndEventSchema = z.object({ sessionId: z.string(), reason: z.enum(['stop', 'restart', 'background-timeout', 'dispose', 'recovered', 'hidden']), session: Session });
const FlushedEventSchema = z.object({ results: z.array(PlaytimeItemResult) });
const DroppedEventSchema = z.object({
  sessionId: z.string(),
  reason: z.enum(DROP_REASONS),
  session: z.optional(Session),
  error: z.optional(z.string()),
  details: z.optional(z.array(ErrorDetail)),
});

/**
 * A tracker `error` event as the bridge forwards it: the event's `error` (any thrown value in JavaScript)
 * becomes its message and, when it is an SDK error, its code and status.
 */
const TrackerErrorSchema = z.object({
  kind: z.enum(['auth', 'headers', 'storage', 'crypto', 'relay', 'lock', 'listener']),
  message: z.string(),
  code: z.optional(z.string()),
  status: z.optional(z.int()),
});

/**
 * An SDK error as the bridge sends it to C#: `name` is the TypeScript class (`BoostCooldownError`, ...), the
 * rest its fields. `code` is `WEBGL_ONLY`/`NOT_LOADED`/`NOT_INITIALIZED`/`DISPOSED` for the bridge's own.
 */
const ErrorInfo = z.object({
  name: z.string(),
  code: z.string(),
  message: z.string(),
  status: z.optional(z.int()),
  details: z.optional(z.array(ErrorDetail)),
  daysRemaining: z.optional(z.int()),
  retryAfterMs: z.optional(z.number()),
});

/**
 * `gc.webview.open(...)` options: the relay's web view body without the challenge the launcher makes, plus the
 * title some platforms show.
 */
const WebViewOpenOptions = z.extend(z.omit(RelayWebviewRequest, { codeChallenge: true }), { title: z.optional(z.string()) });

/**
 * The headless picker's state (`gc.picker({ campaignId })`, core/picker/picker.ts `CreatorPickerState`), with its
 * `error` as the bridge's error record.
 */
const PickerState = z.object({
  campaign: z.optional(CampaignDetail),
  creators: z.array(Creator),
  loading: z.boolean(),
  query: z.string(),
  results: z.optional(z.array(Creator)),
  searching: z.boolean(),
  boost: z.optional(BoostRecord),
  selected: z.optional(z.string()),
  canConfirm: z.boolean(),
  cooldownDays: z.optional(z.int()),
  confirming: z.boolean(),
  error: z.optional(ErrorInfo),
});

/** C# class name -> schema, in the order the classes are written. */
export const UNITY_TYPES: ReadonlyArray<[name: string, schema: z.ZodMiniType, summary: string]> = [
  ['Campaign', CampaignDetail, 'A campaign, as the Client API returns it.'],
  ['Creator', Creator, 'A creator taking part in campaigns.'],
  ['BoostRecord', BoostRecord, "The player's boost: the creator they support."],
  ['Session', Session, 'A finished play session, as the tracker sends it.'],
  ['PlaytimeItemResult', PlaytimeItemResult, "The service's answer for one session of a batch."],
  ['ErrorDetail', ErrorDetail, 'One field problem of a validation error.'],
  ['ErrorInfo', ErrorInfo, 'An SDK error as it crosses the bridge.'],
  ['SessionStartEvent', SessionStartEventSchema, 'Payload of the tracker event `session:start`.'],
  ['SessionEndEvent', SessionEndEventSchema, 'Payload of the tracker event `session:end`.'],
  ['FlushedEvent', FlushedEventSchema, 'Payload of the tracker event `flushed`: sessions the service acknowledged.'],
  ['DroppedEvent', DroppedEventSchema, 'Payload of the tracker event `dropped`: a session that will never be sent, and why.'],
  ['TrackerError', TrackerErrorSchema, 'Payload of the tracker event `error`: no session is lost by it.'],
  ['BoostChange', RelaySponsorRequest, 'What `Boost.Change` sends through the relay.'],
  ['WebViewOpenOptions', WebViewOpenOptions, 'Options of `WebView.Open`.'],
  ['PickerState', PickerState, "The creator picker's state, for any UI."],
];

/** Schemas built from zod refinements JSON Schema cannot express, and what they are on the wire. */
export const UNREPRESENTABLE = new Map<unknown, Record<string, unknown>>([
  [PositiveInt, { type: 'integer' }],
  [Limit, { type: 'integer' }],
  [Metadata, { type: 'object' }],
]);

// The hand-built schemas above must say what the TypeScript interfaces say (compile-time checks): the same
// shapes for the tracker events, the same field names for the options and the picker state.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameShapes: [
  Same<z.infer<typeof SessionStartEventSchema>, SessionStartEvent>,
  Same<z.infer<typeof SessionEndEventSchema>, SessionEndEvent>,
  Same<z.infer<typeof FlushedEventSchema>, FlushedEvent>,
  Same<z.infer<typeof DroppedEventSchema>, DroppedEvent>,
  Same<keyof z.infer<typeof PickerState>, keyof CreatorPickerState>,
  Same<keyof z.infer<typeof RelaySponsorRequest>, keyof BoostChangeRequest>,
  Same<keyof z.infer<typeof WebViewOpenOptions>, keyof LauncherOpenOptions>,
] = [true, true, true, true, true, true, true];
void sameShapes;
