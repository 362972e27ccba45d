/**
 * The `expect` step of a contract scenario (test/contract/FORMAT.md, "Checks"): what was observed against
 * what the file expects, as readable differences (an empty list when everything holds).
 */
import { matchesInDefinedOrder } from './delivery-order.js';
import type { ReceivedSession } from './relays.js';
import type { Expectation, ReceivedEntry } from './scenario.js';

/** The state a runner observed since the scenario began. */
export interface ObservedState {
  received: readonly ReceivedSession[];
  dropped: readonly string[];
  /** For each of `dropped`: the start-up that recovered its session, if one did (its place among that start-up's others is not defined). */
  droppedRecovery?: readonly (number | undefined)[];
  errors: readonly string[];
  sends: number;
  /** For each `session:start` with `continues`: the reason the session it names ended with (`unknown` if not heard). */
  continued: readonly string[];
  /** Sessions stored for the player, game and environment the check names (when it has `stored`). */
  stored?: number;
}

const RECEIVED_KEYS = ['player', 'durationSeconds', 'environment', 'game', 'isTest'] as const;

/** An entry's checked keys only, for messages. */
const shown = (entry: ReceivedEntry | ReceivedSession) => Object.fromEntries(RECEIVED_KEYS.filter((key) => entry[key] !== undefined).map((key) => [key, entry[key]]));

const matches = (expected: ReceivedEntry, actual: ReceivedSession) => RECEIVED_KEYS.every((key) => expected[key] === undefined || expected[key] === actual[key]);

const list = (items: readonly unknown[]) => JSON.stringify(items);

/** Every check of `expected` that `observed` breaks, one line each: "<check>: expected ..., got ...". */
export function checkExpectation(expected: Expectation, observed: ObservedState): string[] {
  const differences: string[] = [];
  const { received, dropped, errors, sends, stored, continued } = expected;
  if (received) {
    const actual = observed.received;
    // In order, but sessions recovered in one start-up in any order among themselves (their ids are random: delivery-order.ts).
    const same = matchesInDefinedOrder(received, actual.map((session) => ({ item: session, recovery: session.recovery })), matches);
    if (!same) differences.push(`received: expected ${list(received.map(shown))}, got ${list(actual.map(shown))}`);
  }
  if (dropped) {
    // In order, but the drops of sessions one start-up recovered in any order among themselves, as `received` (delivery-order.ts).
    const actual = observed.dropped.map((reason, index) => ({ item: reason, recovery: observed.droppedRecovery?.[index] }));
    if (!matchesInDefinedOrder(dropped, actual, (expected, reason) => expected === reason)) differences.push(`dropped: expected ${list(dropped)}, got ${list(observed.dropped)}`);
  }
  if (errors && list(errors) !== list(observed.errors)) differences.push(`errors: expected ${list(errors)}, got ${list(observed.errors)}`);
  if (continued && list(continued) !== list(observed.continued)) differences.push(`continued: expected ${list(continued)}, got ${list(observed.continued)}`);
  if (sends !== undefined) {
    const [least, most] = typeof sends === 'number' ? [sends, sends] : sends;
    if (observed.sends < least || observed.sends > most) differences.push(`sends: expected ${JSON.stringify(sends)}, got ${observed.sends}`);
  }
  if (stored && stored.sessions !== observed.stored) {
    const whose = `player ${stored.player}, game ${stored.game ?? 'g1'}, ${stored.environment ?? 'sandbox'}`;
    differences.push(`stored (${whose}): expected ${stored.sessions} sessions, got ${observed.stored}`);
  }
  return differences;
}
