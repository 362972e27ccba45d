/**
 * The relay's check of a client's playtime batch with the plain rule table the zod schema is built from (a
 * property test proves both agree): several times faster than the zod pass, which then runs only for a batch
 * that breaks a rule, to name every problem as it always has. Each session's timestamps are read once, for
 * their rule and for the plausibility rules after it.
 */
import type { BulkPlaytimeItem } from '../schema/playtime.js';
import { MAX_BULK_ITEMS, SESSION_RULES } from '../schema/playtime-rules.js';
import { broken, isRecord, Timestamp, type Rule } from '../schema/rules.js';
import { timestampTime } from './timestamp-time.js';

/** A valid batch, its sessions as zod would give them, with the instants of their timestamps. */
export interface CheckedBatch {
  sessions: BulkPlaytimeItem[];
  /** Each session's `startedAt`, in ms since the epoch. */
  startedMs: number[];
  /** Each session's `endedAt`, in ms since the epoch. */
  endedMs: number[];
  isTest: boolean;
  sentAt: string | undefined;
}

/** The fields of a session other than its two timestamps, with their rules (those two are `Timestamp`: a test says so). */
const OTHER_FIELDS = Object.entries(SESSION_RULES).filter(([name]) => name !== 'startedAt' && name !== 'endedAt') as Array<[string, Rule<never>]>;
/** {@link OTHER_FIELDS}' names and rules as two lists: read by index per session, with no pair unpacked per field. */
const OTHER_NAMES = OTHER_FIELDS.map((field) => field[0]);
const OTHER_RULES = OTHER_FIELDS.map((field) => field[1]);
const SESSION_FIELDS = Object.keys(SESSION_RULES);

/**
 * The batch when `body` is a valid `RelayPlaytimeRequest`, else undefined. Its sessions' rules are those of
 * `checkPlaytimeItem`: every field by the table, `startedAt` and `endedAt` by `Timestamp`, and the end not
 * before the start. A session is stripped to the spec's fields as zod strips it; one that has no other field (the
 * usual case) is kept as it is.
 */
export function checkedBatch(body: unknown): CheckedBatch | undefined {
  if (!isRecord(body)) return undefined;
  const items = own(body, 'sessions');
  const isTest = own(body, 'isTest');
  const sentAt = own(body, 'sentAt');
  if (!Array.isArray(items) || items.length < 1 || items.length > MAX_BULK_ITEMS) return undefined;
  if (isTest !== undefined && typeof isTest !== 'boolean') return undefined;
  if (sentAt !== undefined && broken(Timestamp, sentAt) !== undefined) return undefined;
  const count = items.length;
  const sessions = new Array<BulkPlaytimeItem>(count);
  const startedMs = new Array<number>(count);
  const endedMs = new Array<number>(count);
  for (let i = 0; i < count; i++) {
    const item: unknown = items[i];
    if (!isRecord(item)) return undefined;
    let fields = 2; // startedAt and endedAt, both required
    for (let f = 0; f < OTHER_RULES.length; f++) {
      const value = own(item, OTHER_NAMES[f] as string);
      if (broken(OTHER_RULES[f] as Rule<never>, value) !== undefined) return undefined;
      if (value !== undefined) fields++;
    }
    const startedAt = own(item, 'startedAt');
    const endedAt = own(item, 'endedAt');
    const started = typeof startedAt === 'string' ? timestampTime(startedAt) : NaN;
    const ended = typeof endedAt === 'string' ? timestampTime(endedAt) : NaN;
    // NaN (not a Timestamp) fails the comparison; two valid ones compare as instants as they do as strings.
    if (!(ended >= started)) return undefined;
    sessions[i] = (keyCount(item) === fields ? item : stripped(item)) as BulkPlaytimeItem;
    startedMs[i] = started;
    endedMs[i] = ended;
  }
  return { sessions, startedMs, endedMs, isTest: isTest === true, sentAt: sentAt as string | undefined };
}

/** The session's spec fields only, as zod's object schema strips the others. */
function stripped(item: Record<string, unknown>): Record<string, unknown> {
  const session: Record<string, unknown> = {};
  for (const field of SESSION_FIELDS) {
    const value = own(item, field);
    if (value !== undefined) session[field] = value;
  }
  return session;
}

const hasOwn = Object.prototype.hasOwnProperty;

/**
 * `record[key]` when it is the record's own field, else undefined: a field the body lacks must not be read through a
 * polluted `Object.prototype` (`Object.prototype.metadata = {...}` from a deep merge in another package), which the
 * relay then forwarded as the player's.
 */
function own(record: Record<string, unknown>, key: string): unknown {
  return hasOwn.call(record, key) ? record[key] : undefined;
}

/**
 * `Object.keys(item).length` without the array: JSON.parse's objects have only own enumerable keys. Something enumerable
 * on `Object.prototype` (a pollution) only makes the count larger: the session is then copied field by field, never kept
 * with a key it should not carry.
 */
function keyCount(item: Record<string, unknown>): number {
  let count = 0;
  for (const _key in item) count++;
  return count;
}
