/**
 * Plays a tracker-contract scenario (test/contract/FORMAT.md) against the TypeScript tracker, as a game runs
 * it: each process is the real `createGameCampaign` facade on a memory platform, over one device storage that
 * outlives every process, with fake timers driving both clocks (the memory platform reads `Date.now()`;
 * `setWallClock` moves only the wall clock) and one fake relay per (game, environment).
 * A step that does not hold fails with the scenario, the step's number and what differed.
 */
import { vi } from 'vitest';
import { createGameCampaign, type GameCampaign } from '../../core/game-campaign.js';
import { ValidationError } from '../../core/http/errors.js';
import { createMemoryPlatform, type MemoryPlatform } from '../../core/memory-platform.js';
import { createDeviceStorage, FOREIGN_SESSION_ID } from './device-storage.js';
import { checkExpectation, type ObservedState } from './expectations.js';
import { clientKey, createRelays, relayUrl, type ReceivedSession } from './relays.js';
import type { Environment, Expectation, Scenario, ScenarioOptions, Step, UnityMessage } from './scenario.js';

/** Both clocks start here (FORMAT.md, "Two clocks"). */
export const SCENARIO_EPOCH_MS = Date.parse('2026-06-01T12:00:00.000Z');

/** How many turns of the event loop (no time passing) a step's work may take before it counts as stuck. */
const MAX_TURNS = 200;
/** Turns given to work a step started but does not wait for (a flush after `online`, start-up's flush). */
const SETTLE_TURNS = 40;

/** A scenario step that did not hold. */
export class ScenarioFailure extends Error {
  override name = 'ScenarioFailure';
}

/** One process of the game: a facade for one player, game and environment. */
interface Process {
  game: string;
  environment: Environment;
  player: string;
  platform: MemoryPlatform;
  campaign: GameCampaign;
  /** False once killed or quit: a dead process's events are not heard. */
  alive: boolean;
}

/** Runs every pending timer due now and lets promise chains run, `turns` times, without moving time. */
async function settle(turns = SETTLE_TURNS): Promise<void> {
  for (let turn = 0; turn < turns; turn++) await vi.advanceTimersByTimeAsync(0);
}

/** Waits for `work` while letting fake-time I/O run; rejects when it does not end without time passing. */
async function finish(work: Promise<unknown>, what: string): Promise<void> {
  let outcome: { error?: unknown } | undefined;
  work.then(
    () => (outcome = {}),
    (error: unknown) => (outcome = { error }),
  );
  for (let turn = 0; turn < MAX_TURNS && !outcome; turn++) await vi.advanceTimersByTimeAsync(0);
  if (!outcome) throw new Error(`${what} did not finish without time passing`);
  if ('error' in outcome) throw new Error(`${what} threw: ${String(outcome.error)}`);
  await settle();
}

/**
 * What the TypeScript tracker hears for Unity's lifecycle messages (FORMAT.md, `unity`): the app state, which a pause
 * changes (a page hidden or shown, React Native's AppState `background`/`active`); a focus message alone changes nothing
 * there (a dialog or the keyboard over a page that stays visible). A pause already heard is not heard twice.
 */
function hearUnity(platform: MemoryPlatform, messages: UnityMessage[]): void {
  for (const message of messages) {
    if (!('pause' in message) || message.pause === platform.inBackground) continue;
    if (message.pause) platform.background();
    else platform.foreground();
  }
}

/**
 * Plays `scenario` on fresh fake timers and a fresh device; `observe` sees the state at each `expect` step (its
 * `stored` counts the step's player, or p1 of g1 in sandbox), before it is checked.
 * @throws ScenarioFailure naming the step (1-based), the step itself and every check that differed
 */
export async function runScenario(scenario: Scenario, observe?: (observed: Required<ObservedState>) => void): Promise<ReceivedSession[]> {
  vi.useFakeTimers();
  vi.setSystemTime(SCENARIO_EPOCH_MS);
  // Backoff's draw only (core/http/backoff.ts `backoffDelay` reads Math.random): session ids started before the
  // platform's random bytes answer come from Math.random too (core/tracker/session-id.ts), and must stay apart.
  const random = Math.random;
  const fixed = scenario.jitter;
  const draw = fixed === undefined ? undefined : vi.spyOn(Math, 'random').mockImplementation(() => (/\bbackoffDelay\b/.test(new Error().stack ?? '') ? fixed : random()));
  /** The storage namespace (what precedes `player:`) each (game, environment) was seen writing under. */
  const namespaces = new Map<string, string>();
  let current: Process | undefined;
  const storage = createDeviceStorage((key) => {
    const at = key.indexOf('player:');
    const scope = current && `${current.game}/${current.environment}`;
    if (scope && at >= 0 && current!.alive && !namespaces.has(scope)) namespaces.set(scope, key.slice(0, at));
  });
  const relays = createRelays();
  const dropped: string[] = [];
  /** For each of `dropped`: the start-up that recovered its session, if one did. */
  const droppedRecovery: (number | undefined)[] = [];
  const errors: string[] = [];
  /** How each session ended (`session:end`), and for each continuation started, how the session it continues ended. */
  const endReasons = new Map<string, string>();
  const continued: string[] = [];
  /** The start-up (process number) that recovered each session (`session:end` with reason `recovered`). */
  const recoveredIn = new Map<string, number>();
  let processes = 0;
  /** What the relays recorded, each session with the start-up that recovered it. */
  const received = () => relays.received.map((session) => ({ ...session, recovery: recoveredIn.get(session.sessionId) }));
  let online = true;
  let wallOffsetMs = 0;

  const running = (step: string): Process => {
    if (!current) throw new Error(`"${step}" needs a running process (add an "init" step first)`);
    return current;
  };

  const kill = async () => {
    if (!current) throw new Error('"kill" needs a running process');
    const process = current;
    process.alive = false;
    process.platform.crash();
    current = undefined;
    // No code of a killed process runs on: its timers are stopped here (every storage call and fetch already fails).
    await finish(process.campaign.dispose().catch(() => undefined), 'stopping the killed process');
  };

  const init = async ({ player, game = 'g1', environment = 'sandbox', options }: { player: string; game?: string; environment?: Environment; options?: ScenarioOptions }) => {
    if (current) await kill();
    const platform = createMemoryPlatform({ storage, fetch: relays.fetch, online });
    platform.setWallClock(wallOffsetMs);
    const number = ++processes;
    const process: Process = { game, environment, player, platform, alive: true, campaign: undefined as unknown as GameCampaign };
    current = process;
    process.campaign = createGameCampaign({
      platform,
      clientKey: clientKey(game, environment),
      relay: { url: relayUrl(game, environment), headers: { authorization: `Bearer ${player}` } }, // the player's credentials, as cs-runner/ScenarioRunner.cs sends
      userId: player,
      tracker: { ...scenario.options, ...options, ...(environment === 'sandbox' ? { isTest: true } : {}) },
    });
    process.campaign.tracker.on('dropped', ({ reason, sessionId }) => {
      if (!process.alive) return;
      dropped.push(reason);
      droppedRecovery.push(recoveredIn.get(sessionId));
    });
    process.campaign.tracker.on('error', ({ kind }) => void (process.alive && errors.push(kind)));
    process.campaign.tracker.on('session:end', ({ sessionId, reason }) => {
      if (!process.alive) return;
      endReasons.set(sessionId, reason);
      if (reason === 'recovered') recoveredIn.set(sessionId, number);
    });
    process.campaign.tracker.on('session:start', ({ continues }) => {
      if (process.alive && continues !== undefined) continued.push(endReasons.get(continues) ?? 'unknown');
    });
  };

  /** What the device holds for one player of one game and environment: queued sessions and running records. */
  const storedSessions = async (player: string, game: string, environment: Environment) => {
    const root = namespaces.get(`${game}/${environment}`);
    if (root === undefined) return 0;
    const own = `${root}player:${encodeURIComponent(player)}:`;
    return (await storage.keys(own)).filter((key) => key.startsWith(own + 'queue:') || key.startsWith(own + 'running:')).length;
  };

  /** Does one step (an `expect` is checked by the caller); the caller then lets the work it started settle. */
  const play = async (step: Exclude<Step, { expect: unknown }>): Promise<void> => {
    if ('init' in step) return init(step.init);
    if ('kill' in step) return kill();
    if ('advance' in step) return void (await vi.advanceTimersByTimeAsync(step.advance));
    if ('relay' in step) return relays.answer(step.relay);
    if ('storage' in step) {
      if (step.storage === 'truncate') return storage.truncate();
      if (step.storage === 'newer') return storage.addNewerFields();
      if (step.storage === 'foreign-id') return storage.addNewerFields({ sessionId: FOREIGN_SESSION_ID });
      if (step.storage === 'foreign-user') return storage.addNewerFields({ userId: 'p2' });
      if (typeof step.storage === 'object' && step.storage.rename !== undefined) return storage.renameRunning(step.storage.rename);
      if (typeof step.storage === 'object' && 'replace' in step.storage) return storage.replaceRunning(step.storage.replace);
      if (typeof step.storage === 'object') return storage.addNewerFields(step.storage.set ?? {}, step.storage.remove);
      return storage.setWritable(step.storage === 'writable');
    }
    if ('network' in step) {
      online = step.network === 'online';
      return current?.platform.setOnline(online);
    }
    if ('clock' in step) {
      wallOffsetMs += step.clock; // also while no process runs: the next one starts with the device's clock as moved
      return current?.platform.setWallClock(wallOffsetMs);
    }
    if ('background' in step) return running('background').platform.background();
    if ('foreground' in step) return running('foreground').platform.foreground();
    if ('unity' in step) return hearUnity(running('unity').platform, step.unity);
    const { campaign: game } = running(Object.keys(step)[0]!);
    if ('start' in step) {
      const { refused, ...options } = step.start;
      if (!refused) return void game.tracker.start(options);
      try {
        game.tracker.start(options);
      } catch (error) {
        if (error instanceof ValidationError) return;
        throw error;
      }
      throw new ScenarioFailure('start() was not refused with a ValidationError');
    }
    if ('stop' in step) return finish(game.tracker.stop(), 'stop()');
    if ('flush' in step) return finish(game.tracker.flush(), 'flush()');
    if ('optOut' in step) return finish(game.tracker.setOptOut(step.optOut), 'setOptOut()');
    if ('optOutAndLeave' in step) {
      // In one task: the switch's promise is left to run (a hidden page and a backgrounded React Native app still run JavaScript).
      void game.tracker.setOptOut(step.optOutAndLeave).catch(() => undefined);
      return running('optOutAndLeave').platform.background();
    }
    if ('stopAndLeave' in step) {
      // In one task, as optOutAndLeave: the stop's promise is left to run.
      void game.tracker.stop().catch(() => undefined);
      return running('stopAndLeave').platform.background();
    }
    if ('flushAndLeave' in step) {
      // In one task, as stopAndLeave: the flush's promise is left to run.
      void game.tracker.flush().catch(() => undefined);
      return running('flushAndLeave').platform.background();
    }
    if ('erase' in step) return finish(game.tracker.deleteStoredData(), 'deleteStoredData()');
    await finish(game.dispose(), 'dispose()');
    current!.alive = false;
    current = undefined;
  };

  /** Checks an `expect` step against what the device and the relays show now. */
  const check = async (step: { expect: Expectation }): Promise<void> => {
    const stored: { player: string; game?: string; environment?: Environment } = step.expect.stored ?? { player: 'p1' };
    const observed: Required<ObservedState> = {
      received: received(),
      dropped,
      droppedRecovery,
      errors,
      continued,
      sends: relays.sends(),
      stored: await storedSessions(stored.player, stored.game ?? 'g1', stored.environment ?? 'sandbox'),
    };
    observe?.(observed);
    const differences = checkExpectation(step.expect, observed);
    if (differences.length) throw new ScenarioFailure(differences.join('\n'));
  };

  try {
    for (const [index, step] of scenario.steps.entries()) {
      try {
        if ('expect' in step) await check(step);
        else await play(step);
        await settle();
        if (relays.violations.length) throw new ScenarioFailure(`the relay saw ${relays.violations.join('; ')}`);
      } catch (error) {
        const where = `"${scenario.name}", step ${index + 1} of ${scenario.steps.length}: ${JSON.stringify(step)}`;
        throw new ScenarioFailure(`${where}\n${(error as Error).message}`, { cause: error });
      }
    }
    return received();
  } finally {
    if (current) await finish(current.campaign.dispose(), 'dispose()').catch(() => undefined);
    vi.useRealTimers();
    draw?.mockRestore();
  }
}
