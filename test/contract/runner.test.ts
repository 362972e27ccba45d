/**
 * The contract runner can fail, and says why: a scenario whose expectation is wrong fails with the scenario's
 * name, the step (number and JSON) and, per check, what was expected and what was observed; a malformed file
 * fails before anything plays.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inDefinedOrder } from './delivery-order.js';
import { checkExpectation } from './expectations.js';
import { parseScenario, type Scenario } from './scenario.js';
import { runScenario, ScenarioFailure } from './ts-runner.js';

const scenarios = join(import.meta.dirname, 'scenarios');
const fromFile = (file: string): Scenario => parseScenario(JSON.parse(readFileSync(join(scenarios, file), 'utf8')), file);

/** The message `runScenario` fails with (the test fails if it does not). */
async function failureOf(scenario: Scenario): Promise<string> {
  const error = await runScenario(scenario).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ScenarioFailure);
  return (error as Error).message;
}

describe('the contract runner', () => {
  it('fails a real scenario given the wrong expectation (the 7 s the old C# tracker recorded for 2 s + 4 s paused + 1 s)', async () => {
    const scenario = fromFile('pause-resume.json');
    const last = scenario.steps.length - 1;
    scenario.steps[last] = { expect: { received: [{ player: 'p1', durationSeconds: 7 }] } };
    const message = await failureOf(scenario);
    expect(message).toContain(`"2 s of play, 4 s paused, 1 s more is one session of 3 s", step ${last + 1} of ${last + 1}: {"expect":`);
    expect(message).toContain('received: expected [{"player":"p1","durationSeconds":7}], got [{"player":"p1","durationSeconds":3,"environment":"sandbox","game":"g1","isTest":true}]');
  });

  it('reports every check that differs in one step, each on its own line', async () => {
    const message = await failureOf({
      name: 'a session too short to keep',
      covers: ['too-short'],
      steps: [{ init: { player: 'p1' } }, { start: {} }, { advance: 500 }, { stop: {} }, { expect: { dropped: [], errors: ['storage'], sends: 1, stored: { player: 'p1', sessions: 1 } } }],
    });
    expect(message.split('\n').slice(1)).toEqual([
      'dropped: expected [], got ["too-short"]',
      'errors: expected ["storage"], got []',
      'sends: expected 1, got 0',
      'stored (player p1, game g1, sandbox): expected 1 sessions, got 0',
    ]);
    expect(message.split('\n')[0]).toBe('"a session too short to keep", step 5 of 5: {"expect":{"dropped":[],"errors":["storage"],"sends":1,"stored":{"player":"p1","sessions":1}}}');
  });

  it('fails a step that needs a running process when none runs', async () => {
    const message = await failureOf({ name: 'no process', covers: ['start'], steps: [{ start: {} }] });
    expect(message).toBe('"no process", step 1 of 1: {"start":{}}\n"start" needs a running process (add an "init" step first)');
  });

  it('passes the same scenario with the right expectation (the failures above come from the expectation alone)', async () => {
    await runScenario(fromFile('pause-resume.json'));
  });
});

describe('scenario files', () => {
  const base = { name: 'n', covers: ['play'], steps: [{ init: { player: 'p1' } }] };
  it.each([
    [{ ...base, steps: [{ init: { player: 'p1' } }, { sleep: 5 }] }, 'f.json: step 2: unknown step "sleep"'],
    [{ ...base, steps: [{ advance: -1 }] }, 'f.json: step 1 (advance): needs a whole number of ms, 0 or more'],
    [{ ...base, steps: [{ start: {}, stop: {} }] }, 'f.json: step 1 must be an object with exactly one key'],
    [{ ...base, steps: [{ expect: { recieved: [] } }] }, 'f.json: step 1 (expect): unknown check(s) recieved'],
    [{ ...base, covers: ['pausing'] }, 'f.json: unknown tag "pausing" in "covers"'],
    [{ ...base, options: { checkpointMS: 5 } }, 'f.json: unknown option(s) checkpointMS'],
    [{ ...base, jitter: 1 }, 'f.json: "jitter" must be a number in [0, 1)'],
    [{ ...base, jitter: '0.5' }, 'f.json: "jitter" must be a number in [0, 1)'],
    [{ ...base, steps: [{ init: { player: 'p1', environment: 'staging' } }] }, 'f.json: step 1 (init): environment must be "sandbox" or "live", not "staging"'],
    [{ ...base, steps: [{ init: { player: 'p1' } }, { unity: [{ focus: false, pause: true }] }] }, 'f.json: step 2 (unity): needs a non-empty list of'],
    [{ ...base, steps: [{ init: { player: 'p1' } }, { unity: [{ pause: true }, { focus: false }, { pause: false }] }] }, 'f.json: step 2 (unity): leaves focus lost while not paused'],
  ])('a malformed file fails before it plays: %j', (data, message) => {
    expect(() => parseScenario(data, 'f.json')).toThrow(message);
  });

  it('an expectation that holds gives no differences; an entry checks only the keys it sets', () => {
    const received = [{ sessionId: 's', player: 'p1', durationSeconds: 3, game: 'g1', environment: 'live' as const, isTest: false, wire: {} }];
    expect(checkExpectation({ received: [{ durationSeconds: 3, isTest: false }], sends: 1 }, { received, dropped: [], errors: [], continued: [], sends: 1 })).toEqual([]);
    expect(checkExpectation({ received: [{ environment: 'sandbox' }] }, { received, dropped: [], errors: [], continued: [], sends: 1 })).toEqual([
      'received: expected [{"environment":"sandbox"}], got [{"player":"p1","durationSeconds":3,"environment":"live","game":"g1","isTest":false}]',
    ]);
  });

  it('continued checks, in order, how each session a continuation names ended', () => {
    const observed = { received: [], dropped: [], errors: [], continued: ['background-timeout'], sends: 0 };
    expect(checkExpectation({ continued: ['background-timeout'] }, observed)).toEqual([]);
    expect(checkExpectation({ continued: [] }, observed)).toEqual(['continued: expected [], got ["background-timeout"]']);
    expect(() => parseScenario({ name: 'n', covers: ['play'], steps: [{ expect: { continued: [1] } }] }, 'f.json')).toThrow('continued must be a list of strings');
  });

  it('sessions one start-up recovered match in any order among themselves, and only they (delivery-order.ts)', () => {
    const session = (sessionId: string, durationSeconds: number, recovery?: number) => ({ sessionId, player: 'p1', durationSeconds, game: 'g1', environment: 'sandbox' as const, isTest: true, wire: {}, recovery });
    const observed = (received: ReturnType<typeof session>[]) => ({ received, dropped: [], errors: [], continued: [], sends: 1 });
    const twoRecovered = observed([session('a', 30, 2), session('b', 15, 2), session('c', 4)]);
    expect(checkExpectation({ received: [{ durationSeconds: 15 }, { durationSeconds: 30 }, { durationSeconds: 4 }] }, twoRecovered)).toEqual([]);
    expect(checkExpectation({ received: [{ durationSeconds: 30 }, { durationSeconds: 15 }, { durationSeconds: 4 }] }, twoRecovered)).toEqual([]);
    // A session not recovered keeps its place; two start-ups' recoveries keep their order; each entry pairs with one session.
    expect(checkExpectation({ received: [{ durationSeconds: 4 }, { durationSeconds: 30 }, { durationSeconds: 15 }] }, twoRecovered)).toHaveLength(1);
    expect(checkExpectation({ received: [{ durationSeconds: 15 }, { durationSeconds: 30 }] }, observed([session('a', 30, 2), session('b', 15, 3)]))).toHaveLength(1);
    expect(checkExpectation({ received: [{ durationSeconds: 15 }, { durationSeconds: 15 }] }, observed([session('a', 30, 2), session('b', 15, 2)]))).toHaveLength(1);
    expect(checkExpectation({ received: [{ durationSeconds: 15 }, { durationSeconds: 30 }] }, observed([session('a', 30), session('b', 15)]))).toHaveLength(1);
  });

  it('sends checks a count exactly, or a range [least, most] where the trackers may part', () => {
    const observed = (sends: number) => ({ received: [], dropped: [], errors: [], continued: [], sends });
    expect(checkExpectation({ sends: [1, 2] }, observed(1))).toEqual([]);
    expect(checkExpectation({ sends: [1, 2] }, observed(2))).toEqual([]);
    expect(checkExpectation({ sends: [1, 2] }, observed(3))).toEqual(['sends: expected [1,2], got 3']);
    expect(checkExpectation({ sends: [1, 2] }, observed(0))).toEqual(['sends: expected [1,2], got 0']);
    expect(checkExpectation({ sends: 2 }, observed(1))).toEqual(['sends: expected 2, got 1']);
    for (const sends of [[2, 1], [1], [1, 1], [-1, 2], [1, 2.5]]) {
      expect(() => parseScenario({ name: 'n', covers: ['play'], steps: [{ expect: { sends } }] }, 'f.json')).toThrow('sends must be a count, or [least, most]');
    }
  });

  it('the drops of sessions one start-up recovered match in any order among themselves, and only they', () => {
    const observed = (dropped: string[], droppedRecovery: (number | undefined)[]) => ({ received: [], dropped, droppedRecovery, errors: [], continued: [], sends: 0 });
    const recovered = observed(['too-short', 'too-short', 'invalid', 'overflow'], [undefined, 2, 2, undefined]);
    expect(checkExpectation({ dropped: ['too-short', 'invalid', 'too-short', 'overflow'] }, recovered)).toEqual([]);
    expect(checkExpectation({ dropped: ['too-short', 'too-short', 'invalid', 'overflow'] }, recovered)).toEqual([]);
    // A drop not recovered keeps its place; the group holds exactly its own reasons.
    expect(checkExpectation({ dropped: ['invalid', 'too-short', 'too-short', 'overflow'] }, recovered)).toHaveLength(1);
    expect(checkExpectation({ dropped: ['too-short', 'invalid', 'invalid', 'overflow'] }, recovered)).toHaveLength(1);
    expect(checkExpectation({ dropped: ['too-short', 'invalid'] }, observed(['invalid', 'too-short'], [undefined, undefined]))).toHaveLength(1);
    expect(checkExpectation({ dropped: ['too-short', 'invalid'] }, observed(['invalid', 'too-short'], [2, 3]))).toHaveLength(1);
  });

  it('the wire in its defined order: each recovery sorted at the places it took, the rest as delivered', () => {
    const delivered = [{ item: 'z' }, { item: 'y', recovery: 2 }, { item: 'b' }, { item: 'x', recovery: 2 }, { item: 'a', recovery: 3 }];
    expect(inDefinedOrder(delivered, String)).toEqual(['z', 'x', 'b', 'y', 'a']);
  });
});
