/**
 * A scenario file of the tracker contract (test/contract/FORMAT.md), read and checked before it is played: a
 * file with a typo fails with the file, the step and what is wrong, never plays half a story.
 */
import { readFileSync } from 'node:fs';

/** The tags a scenario may cover (FORMAT.md, `covers`). */
export const COVER_TAGS = [
  'start', 'play', 'pause', 'background-timeout', 'kill', 'restart', 'storage-truncated', 'storage-unwritable', 'network',
  'relay-answers', 'clock-moved', 'two-players', 'two-environments', 'two-games', 'checkpoint', 'backoff', 'opt-out',
  'erase', 'expiry', 'overflow', 'too-short',
] as const;

/** Tracker options a scenario may set (FORMAT.md, `options`). */
export interface ScenarioOptions {
  checkpointMs?: number;
  backgroundTimeoutMs?: number;
  flushIntervalMs?: number;
  flushAt?: number;
  maxQueue?: number;
}

export type Environment = 'sandbox' | 'live';

/** One entry of `received`: unset keys are not checked. */
export interface ReceivedEntry {
  player?: string;
  durationSeconds?: number;
  environment?: Environment;
  game?: string;
  isTest?: boolean;
}

export interface Expectation {
  received?: ReceivedEntry[];
  dropped?: string[];
  errors?: string[];
  stored?: { player: string; game?: string; environment?: Environment; sessions: number };
  /** Requests that reached a relay: exactly, or `[least, most]` where the trackers may part (one request or more for a recovery). */
  sends?: number | [number, number];
  /** For each `session:start` naming a session it `continues`, in order: the reason that session ended with. */
  continued?: string[];
}

export type RelayMode = 'accept' | 'unreachable' | 'answer-lost' | { status: number; retryAfterSeconds?: number } | { reject: string } | { itemStatus: string | null; retryAfterSeconds?: number };

export type Step =
  | { init: { player: string; game?: string; environment?: Environment; options?: ScenarioOptions } }
  | { start: { campaignId?: string; creatorKey?: string; metadata?: Record<string, unknown>; refused?: true } }
  | { stop: Record<string, never> }
  | { flush: Record<string, never> }
  | { advance: number }
  | { clock: number }
  | { background: Record<string, never> }
  | { foreground: Record<string, never> }
  | { unity: UnityMessage[] }
  | { kill: Record<string, never> }
  | { quit: Record<string, never> }
  | { network: 'online' | 'offline' }
  | { relay: RelayMode }
  | { storage: 'truncate' | 'newer' | 'foreign-id' | 'foreign-user' | 'unwritable' | 'writable' | RecordEdit }
  | { optOut: boolean }
  | { optOutAndLeave: boolean }
  | { stopAndLeave: Record<string, never> }
  | { flushAndLeave: Record<string, never> }
  | { erase: Record<string, never> }
  | { expect: Expectation };

/**
 * `storage: {"set": {...}, "remove": [...]}`: every running record gets these fields set and loses those; `{"rename": "id"}`:
 * every running record's key (C#: file name) names that session instead; `{"replace": <JSON>}`: every running record is
 * that value instead (FORMAT.md).
 */
export interface RecordEdit {
  set?: Record<string, unknown>;
  remove?: string[];
  rename?: string;
  replace?: unknown;
}

/** A {@link RecordEdit}: `set` (an object) and `remove` (field names), one of them at least, or `rename` (a string) or `replace` alone. */
const checkEdit = (v: unknown): boolean =>
  isObject(v) &&
  (typeof v.rename === 'string' || 'replace' in v ? Object.keys(v).length === 1 : v.rename === undefined) &&
  Object.keys(v).length > 0 &&
  Object.keys(v).every((key) => key === 'set' || key === 'remove' || key === 'rename' || key === 'replace') &&
  (v.set === undefined || isObject(v.set)) &&
  (v.remove === undefined || (Array.isArray(v.remove) && v.remove.every((field) => typeof field === 'string')));

/** One of Unity's lifecycle messages to the package's MonoBehaviour: `OnApplicationFocus(focus)` or `OnApplicationPause(pause)`. */
export type UnityMessage = { focus: boolean } | { pause: boolean };

const isUnityMessage = (m: unknown): m is UnityMessage => isObject(m) && Object.keys(m).length === 1 && (typeof m.focus === 'boolean' || typeof m.pause === 'boolean');

/**
 * Plays the scenario's Unity messages (`background`, `optOutAndLeave`, `stopAndLeave`, `flushAndLeave`, `foreground` and `unity` steps; a new process starts focused and
 * not paused) and names the first `unity` step after which focus is lost while the game is not paused: a desktop
 * counts that as the background and a phone does not (ManagedLifecycle.cs), so no one outcome holds on every device.
 */
function unfocusedUnpausedStep(steps: unknown[]): number | undefined {
  let paused = false;
  let unfocused = false;
  for (const [index, step] of steps.entries()) {
    if (!isObject(step)) continue;
    if ('init' in step || 'kill' in step || 'quit' in step || 'foreground' in step) paused = unfocused = false;
    if ('background' in step || 'optOutAndLeave' in step || 'stopAndLeave' in step || 'flushAndLeave' in step) paused = unfocused = true;
    if (!Array.isArray(step.unity)) continue;
    for (const message of step.unity as UnityMessage[]) {
      if ('focus' in message) unfocused = !message.focus;
      else paused = message.pause;
    }
    if (unfocused && !paused) return index + 1;
  }
  return undefined;
}

export interface Scenario {
  name: string;
  covers: string[];
  options?: ScenarioOptions;
  /**
   * Backoff's random draw fixed at this fraction (in [0, 1)) of each wait's ceiling, in both runners (FORMAT.md, "Timers"):
   * generated stories set it, so what a retry achieves in a span follows the trackers' backoff rules, not two random sources.
   */
  jitter?: number;
  steps: Step[];
}

const OPTION_KEYS = ['checkpointMs', 'backgroundTimeoutMs', 'flushIntervalMs', 'flushAt', 'maxQueue'];
const EXPECT_KEYS = ['received', 'dropped', 'errors', 'stored', 'sends', 'continued'];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCount = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

/** What each step's value must be; a message when it is not. */
const STEP_CHECKS: Record<string, (value: unknown) => string | undefined> = {
  init: (v) => (isObject(v) && typeof v.player === 'string' && v.player !== '' ? checkEnvironment(v.environment) ?? (v.options === undefined ? undefined : checkOptions(v.options)) : 'needs {"player": "<id>"}'),
  start: (v) => (isObject(v) && (v.refused === undefined || v.refused === true) && (v.metadata === undefined || isObject(v.metadata)) ? undefined : 'needs an object ("metadata" an object, "refused": true, or absent)'),
  advance: (v) => (isCount(v) ? undefined : 'needs a whole number of ms, 0 or more'),
  clock: (v) => (Number.isInteger(v) ? undefined : 'needs a whole number of ms'),
  network: (v) => (v === 'online' || v === 'offline' ? undefined : 'needs "online" or "offline"'),
  relay: (v) =>
    v === 'accept' || v === 'unreachable' || v === 'answer-lost' || (isObject(v) && (Number.isInteger(v.status) || typeof v.reject === 'string' || typeof v.itemStatus === 'string' || v.itemStatus === null))
      ? undefined
      : 'needs "accept", "unreachable", "answer-lost", {"status": 503, "retryAfterSeconds"?: 2}, {"reject": "reason"} or {"itemStatus": "PENDING" or null, "retryAfterSeconds"?: 60}',
  storage: (v) =>
    v === 'truncate' || v === 'newer' || v === 'foreign-id' || v === 'foreign-user' || v === 'unwritable' || v === 'writable' || checkEdit(v)
      ? undefined
      : 'needs "truncate", "newer", "foreign-id", "foreign-user", "unwritable", "writable", {"set"?: {...}, "remove"?: ["field"]} (one of them at least), {"rename": "<session id>"} or {"replace": <JSON>}',
  unity: (v) => (Array.isArray(v) && v.length > 0 && v.every(isUnityMessage) ? undefined : 'needs a non-empty list of {"focus": true/false} and {"pause": true/false}'),
  optOut: (v) => (typeof v === 'boolean' ? undefined : 'needs true or false'),
  optOutAndLeave: (v) => (typeof v === 'boolean' ? undefined : 'needs true or false'),
  expect: (v) => checkExpectation(v),
  ...Object.fromEntries(['stop', 'stopAndLeave', 'flushAndLeave', 'flush', 'background', 'foreground', 'kill', 'quit', 'erase'].map((name) => [name, (v: unknown) => (isObject(v) ? undefined : 'needs {}')])),
};

function checkEnvironment(value: unknown): string | undefined {
  return value === undefined || value === 'sandbox' || value === 'live' ? undefined : `environment must be "sandbox" or "live", not ${JSON.stringify(value)}`;
}

function checkOptions(value: unknown): string | undefined {
  if (!isObject(value)) return 'options must be an object';
  const unknown = Object.keys(value).filter((key) => !OPTION_KEYS.includes(key));
  if (unknown.length) return `unknown option(s) ${unknown.join(', ')} (known: ${OPTION_KEYS.join(', ')})`;
  const bad = Object.entries(value).filter(([, v]) => !Number.isInteger(v) || (v as number) <= 0);
  return bad.length ? `option(s) ${bad.map(([k]) => k).join(', ')} must be positive whole numbers` : undefined;
}

function checkExpectation(value: unknown): string | undefined {
  if (!isObject(value)) return 'needs an object of checks';
  const unknown = Object.keys(value).filter((key) => !EXPECT_KEYS.includes(key));
  if (unknown.length) return `unknown check(s) ${unknown.join(', ')} (known: ${EXPECT_KEYS.join(', ')})`;
  if (value.received !== undefined && !(Array.isArray(value.received) && value.received.every(isObject))) return 'received must be a list of objects';
  for (const list of ['dropped', 'errors', 'continued'] as const) {
    if (value[list] !== undefined && !(Array.isArray(value[list]) && (value[list] as unknown[]).every((item) => typeof item === 'string'))) return `${list} must be a list of strings`;
  }
  const { stored } = value;
  if (stored !== undefined && !(isObject(stored) && typeof stored.player === 'string' && isCount(stored.sessions))) return 'stored needs {"player": "<id>", "sessions": <count>}';
  if (stored !== undefined && checkEnvironment(stored.environment)) return checkEnvironment(stored.environment);
  const { sends } = value;
  const range = Array.isArray(sends) && sends.length === 2 && sends.every(isCount) && (sends[0] as number) < (sends[1] as number);
  if (sends !== undefined && !isCount(sends) && !range) return 'sends must be a count, or [least, most] with least < most';
  return undefined;
}

/**
 * Checks a parsed scenario.
 * @throws Error naming `source` and the first thing wrong (the step by its 1-based number)
 */
export function parseScenario(data: unknown, source: string): Scenario {
  const fail = (message: string): never => {
    throw new Error(`${source}: ${message}`);
  };
  if (!isObject(data)) return fail('a scenario is a JSON object');
  if (typeof data.name !== 'string' || data.name === '') fail('"name" must be a non-empty string');
  if (!Array.isArray(data.covers) || data.covers.length === 0) fail('"covers" must list at least one tag');
  for (const tag of data.covers as unknown[]) if (!(COVER_TAGS as readonly unknown[]).includes(tag)) fail(`unknown tag ${JSON.stringify(tag)} in "covers" (known: ${COVER_TAGS.join(', ')})`);
  if (data.options !== undefined) {
    const problem = checkOptions(data.options);
    if (problem) fail(problem);
  }
  if (data.jitter !== undefined && !(typeof data.jitter === 'number' && data.jitter >= 0 && data.jitter < 1)) fail('"jitter" must be a number in [0, 1)');
  if (!Array.isArray(data.steps) || data.steps.length === 0) fail('"steps" must be a non-empty list');
  (data.steps as unknown[]).forEach((step, index) => {
    const keys = isObject(step) ? Object.keys(step) : [];
    if (keys.length !== 1) return fail(`step ${index + 1} must be an object with exactly one key, got ${JSON.stringify(step)}`);
    const [kind] = keys as [string];
    const check = STEP_CHECKS[kind];
    if (!check) return fail(`step ${index + 1}: unknown step "${kind}" (known: ${Object.keys(STEP_CHECKS).join(', ')})`);
    const problem = check((step as Record<string, unknown>)[kind]);
    if (problem) fail(`step ${index + 1} (${kind}): ${problem}`);
  });
  const unfocused = unfocusedUnpausedStep(data.steps as unknown[]);
  if (unfocused) fail(`step ${unfocused} (unity): leaves focus lost while not paused, the background on a desktop but not on a phone (end it paused or focused)`);
  const unknown = Object.keys(data).filter((key) => !['name', 'covers', 'options', 'jitter', 'steps'].includes(key));
  if (unknown.length) fail(`unknown field(s) ${unknown.join(', ')}`);
  return data as unknown as Scenario;
}

/** Reads and checks one scenario file. */
export function loadScenario(path: string): Scenario {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: not readable JSON: ${(error as Error).message}`);
  }
  return parseScenario(data, path);
}
