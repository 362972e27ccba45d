import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ValidationError } from '../../../core/http/errors.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { createMemoryPlatform } from '../../../core/memory-platform.js';
import { RELAY_URL, T0, advance, createHarness, eventsOf, iso, settle, useFakeClock } from './harness.js';

const queueKey = (seq: number, sessionId: string) => `game-campaign:player:player-1:queue:${String(seq).padStart(12, '0')}:${sessionId}`;

beforeEach(useFakeClock);
afterEach(() => void vi.useRealTimers());

describe('a session', () => {
  it('is written ahead at start, checkpointed every checkpointMs, and queued at stop', async () => {
    const { tracker, storage, log } = createHarness();
    await settle();
    const sessionId = tracker.start({ campaignId: 'camp-1', creatorKey: 'ABCDE', metadata: { level: 3 } });
    await settle();
    const running = { sessionId, userId: 'player-1', campaignId: 'camp-1', creatorKey: 'ABCDE', metadata: { level: 3 }, owner: expect.any(String), startedAtMs: T0 };
    expect(storage.snapshot()).toEqual({ [`game-campaign:player:player-1:running:${sessionId}`]: { ...running, spanMs: 0, playedMs: 0 } });
    await advance(15_000);
    expect(storage.snapshot()).toEqual({ [`game-campaign:player:player-1:running:${sessionId}`]: { ...running, spanMs: 15_000, playedMs: 15_000 } });
    await advance(5_500);
    await tracker.stop();
    const session = { sessionId, userId: 'player-1', durationSeconds: 20, startedAt: iso(T0), endedAt: iso(T0 + 20_500), campaignId: 'camp-1', creatorKey: 'ABCDE', metadata: { level: 3 } };
    expect(storage.snapshot()).toEqual({ [queueKey(0, sessionId)]: session });
    expect(log).toEqual([
      ['session:start', { sessionId, startedAt: iso(T0), campaignId: 'camp-1', creatorKey: 'ABCDE' }],
      ['session:end', { sessionId, reason: 'stop', session }],
    ]);
  });

  it('takes campaignId and creatorKey from the tracker options unless start() overrides them', async () => {
    const { tracker, storage } = createHarness({ campaignId: 'default-camp', creatorKey: 'DEF00' });
    const first = tracker.start();
    await advance(2_000);
    const second = tracker.start({ creatorKey: 'OTHER' });
    await advance(3_000);
    await tracker.stop();
    expect(Object.values(storage.snapshot())).toEqual([
      { sessionId: first, userId: 'player-1', durationSeconds: 2, startedAt: iso(T0), endedAt: iso(T0 + 2_000), campaignId: 'default-camp', creatorKey: 'DEF00' },
      { sessionId: second, userId: 'player-1', durationSeconds: 3, startedAt: iso(T0 + 2_000), endedAt: iso(T0 + 5_000), campaignId: 'default-camp', creatorKey: 'OTHER' },
    ]);
  });

  it('start() while a session runs ends the running one first (reason restart)', async () => {
    const { tracker, log } = createHarness();
    const first = tracker.start();
    await advance(4_000);
    const second = tracker.start();
    await settle();
    expect(second).not.toBe(first);
    expect(log).toEqual([
      ['session:start', { sessionId: first, startedAt: iso(T0) }],
      ['session:end', { sessionId: first, reason: 'restart', session: { sessionId: first, userId: 'player-1', durationSeconds: 4, startedAt: iso(T0), endedAt: iso(T0 + 4_000) } }],
      ['session:start', { sessionId: second, startedAt: iso(T0 + 4_000) }],
    ]);
  });

  it('stop() without a running session does nothing', async () => {
    const { tracker, storage, log } = createHarness();
    await tracker.stop();
    await settle();
    expect(log).toEqual([]);
    expect(storage.snapshot()).toEqual({});
  });

  it("a start() in the tracker's first tick takes its id from the platform's synchronous source when it has one, not Math.random", () => {
    // Hermes seeds Math.random with 32 bits (std::random_device()() into minstd_rand, later mt19937_64): ids drawn
    // from it in the first tick of every app start would repeat across players, and a repeat is SKIPPED, not recorded.
    const random = vi.spyOn(Math, 'random');
    try {
      const memory = createMemoryPlatform({});
      const platform = { ...memory, crypto: { ...memory.crypto, randomBytesSync: (n: number) => new Uint8Array(n).fill(0x17) } };
      const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL } });
      expect(tracker.start()).toBe('17171717-1717-4717-9717-171717171717');
      expect(random).not.toHaveBeenCalled();
    } finally {
      random.mockRestore();
    }
  });

  it('session ids are UUIDv4 strings, each different', async () => {
    const { tracker } = createHarness();
    await settle();
    const ids = new Set<string>();
    for (let i = 0; i < 40; i++) ids.add(tracker.start());
    expect(ids.size).toBe(40);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('the background', () => {
  it('a stay shorter than backgroundTimeoutMs pauses and resumes the same session; background time is not play time', async () => {
    const { tracker, platform, storage, log } = createHarness();
    const sessionId = tracker.start();
    await advance(10_000);
    platform.background();
    await settle();
    // checkpointed on going to the background
    expect(storage.snapshot()[`game-campaign:player:player-1:running:${sessionId}`]).toMatchObject({ spanMs: 10_000, playedMs: 10_000 });
    await advance(59_000);
    platform.foreground();
    await advance(5_000);
    await tracker.stop();
    expect(eventsOf(log, 'session:start')).toHaveLength(1);
    expect(eventsOf(log, 'session:end')).toEqual([
      { sessionId, reason: 'stop', session: { sessionId, userId: 'player-1', durationSeconds: 15, startedAt: iso(T0), endedAt: iso(T0 + 74_000) } },
    ]);
  });

  it('a longer stay ends the session at the moment it went to the background', async () => {
    const { tracker, platform, storage, log } = createHarness({ backgroundTimeoutMs: 60_000 });
    const sessionId = tracker.start();
    await advance(10_000);
    platform.background();
    await advance(60_000);
    const session = { sessionId, userId: 'player-1', durationSeconds: 10, startedAt: iso(T0), endedAt: iso(T0 + 10_000) };
    expect(eventsOf(log, 'session:end')).toEqual([{ sessionId, reason: 'background-timeout', session }]);
    expect(storage.snapshot()).toEqual({ [queueKey(0, sessionId)]: session });
    platform.foreground();
    // The player is back: the tracker continues by itself, a new session counted from the return.
    const [, continuation] = eventsOf(log, 'session:start') as Array<{ sessionId: string; continues?: string }>;
    expect(continuation).toMatchObject({ continues: sessionId });
    await advance(7_000);
    await tracker.stop();
    await settle();
    expect(eventsOf(log, 'session:start')).toHaveLength(2);
    expect(eventsOf(log, 'session:end')).toEqual([
      { sessionId, reason: 'background-timeout', session },
      { sessionId: continuation!.sessionId, reason: 'stop', session: expect.objectContaining({ durationSeconds: 7, startedAt: iso(T0 + 70_000) }) },
    ]);
  });

  it('after a longer stay, no continuation where the game stopped, or the player opted out, while away', async () => {
    for (const whileAway of ['stop', 'opt-out'] as const) {
      const { tracker, platform, log } = createHarness({ backgroundTimeoutMs: 60_000 });
      tracker.start();
      await advance(10_000);
      platform.background();
      await advance(60_000);
      if (whileAway === 'stop') await tracker.stop();
      else await tracker.setOptOut(true);
      platform.foreground();
      await settle();
      expect(eventsOf(log, 'session:start'), whileAway).toHaveLength(1);
      await tracker.dispose();
    }
  });

  it('a longer stay whose timer never ran (a suspended app) ends the session on return, at the moment it left', async () => {
    const { tracker, platform, log } = createHarness();
    const sessionId = tracker.start();
    await advance(8_000);
    platform.background();
    vi.setSystemTime(T0 + 8_000 + 3_600_000); // time passes, no timer fires
    platform.foreground();
    await settle();
    expect(eventsOf(log, 'session:end')).toEqual([
      { sessionId, reason: 'background-timeout', session: { sessionId, userId: 'player-1', durationSeconds: 8, startedAt: iso(T0), endedAt: iso(T0 + 8_000) } },
    ]);
  });

  it('a session started while in the background counts no time until the foreground', async () => {
    const { tracker, platform, log } = createHarness();
    platform.background();
    const sessionId = tracker.start();
    await advance(20_000);
    platform.foreground();
    await advance(3_000);
    await tracker.stop();
    expect(eventsOf(log, 'session:end')[0]?.session).toMatchObject({ sessionId, durationSeconds: 3, endedAt: iso(T0 + 23_000) });
  });

  it.each([false, true])(
    'a tracker made while the game is in the background (a page loaded in a background tab; page exit: %s) counts no time until the foreground',
    async (backgroundMayBeFinal) => {
      const platform = createMemoryPlatform({ backgroundMayBeFinal });
      platform.background(); // before the tracker exists: no change is announced to it
      const tracker = new PlaytimeTracker({ platform, userId: 'player-1', relay: { url: RELAY_URL } });
      const ends: unknown[] = [];
      tracker.on('session:end', (event) => ends.push(event.session));
      const sessionId = tracker.start();
      await advance(20_000);
      platform.foreground();
      await advance(3_000);
      await tracker.stop();
      expect(ends).toEqual([expect.objectContaining({ sessionId, durationSeconds: 3 })]);
      await tracker.dispose();
    },
  );
});

describe('clocks', () => {
  it('a device clock change during play changes neither the duration nor the span: the times move with the clock, into its present frame', async () => {
    const { tracker, platform, log } = createHarness();
    const sessionId = tracker.start();
    await advance(5_000);
    platform.setWallClock(-3_600_000); // the player sets the clock back an hour
    await advance(5_000);
    platform.setWallClock(86_400_000); // and then a day forward
    await advance(2_000);
    await tracker.stop();
    // The clock now reads a day ahead: the session is dated in that frame, which sentAt then corrects.
    expect(eventsOf(log, 'session:end')[0]?.session).toEqual({ sessionId, userId: 'player-1', durationSeconds: 12, startedAt: iso(T0 + 86_400_000), endedAt: iso(T0 + 86_412_000) });
  });

  it('startedAt is the wall clock at start(), whatever it says', async () => {
    const { tracker, platform, log } = createHarness();
    platform.setWallClock(-86_400_000);
    tracker.start();
    await advance(1_000);
    await tracker.stop();
    expect(eventsOf(log, 'session:end')[0]?.session).toMatchObject({ startedAt: iso(T0 - 86_400_000), endedAt: iso(T0 - 86_399_000), durationSeconds: 1 });
  });

  it('a session under 1 s is dropped (too-short) and never queued', async () => {
    const { tracker, storage, log } = createHarness();
    const sessionId = tracker.start();
    await advance(999);
    await tracker.stop();
    const session = { sessionId, userId: 'player-1', durationSeconds: 0, startedAt: iso(T0), endedAt: iso(T0 + 999) };
    expect(eventsOf(log, 'dropped')).toEqual([{ sessionId, reason: 'too-short', session, error: 'durationSeconds must be a whole number of at least 1', details: [{ path: 'durationSeconds', message: 'must be a whole number of at least 1' }] }]);
    expect(storage.snapshot()).toEqual({});
  });

  it('a session that cannot pass the schema (a wall clock beyond any date) is dropped as invalid at once', async () => {
    const { tracker, platform, storage, log } = createHarness();
    platform.setWallClock(9e15);
    const sessionId = tracker.start();
    await advance(3_000);
    await tracker.stop();
    const timestampRule = 'must be a UTC timestamp of the form YYYY-MM-DDTHH:mm:ss.sssZ';
    expect(eventsOf(log, 'dropped')).toEqual([
      {
        sessionId,
        reason: 'invalid',
        session: { sessionId, userId: 'player-1', durationSeconds: 3, startedAt: `invalid time ${T0 + 9e15}`, endedAt: `invalid time ${T0 + 9e15 + 3_000}` },
        error: `startedAt ${timestampRule}; endedAt ${timestampRule}`,
        details: [
          { path: 'startedAt', message: timestampRule },
          { path: 'endedAt', message: timestampRule },
        ],
      },
    ]);
    expect(storage.snapshot()).toEqual({});
  });
});

describe('arguments', () => {
  it('start() with metadata JSON cannot carry (a BigInt, a cycle, a throwing toJSON) throws a ValidationError naming it, and starts nothing', () => {
    const { tracker, log } = createHarness();
    const cyclic: Record<string, unknown> = { level: 1 };
    cyclic['self'] = cyclic;
    for (const metadata of [{ score: 10n }, cyclic, { toJSON: () => { throw new Error('nope'); } }]) {
      let thrown: unknown;
      try {
        tracker.start({ metadata });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(ValidationError);
      expect(thrown).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'start.metadata', message: expect.stringMatching(/^must be JSON-serialisable \(/) }] });
    }
    expect(log).toEqual([]);
  });

  it("start() keeps the metadata's JSON as it was at start: what the wire carries, untouched by later changes to the game's object", async () => {
    const { tracker, log } = createHarness();
    const metadata: Record<string, unknown> = { level: 3, at: new Date(T0), onWin: () => undefined, skipped: undefined };
    const sessionId = tracker.start({ metadata });
    metadata['level'] = 4;
    await advance(2_000);
    await tracker.stop();
    expect(eventsOf(log, 'session:end')[0]?.session).toEqual(expect.objectContaining({ sessionId, metadata: { level: 3, at: iso(T0) } }));
  });

  it('start() with a bad creatorKey throws a ValidationError naming the field, and starts nothing', () => {
    const { tracker, log } = createHarness();
    let thrown: unknown;
    try {
      tracker.start({ creatorKey: 'abcde' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect(thrown).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'start.creatorKey', message: 'must be exactly 5 uppercase letters or digits' }] });
    expect(log).toEqual([]);
  });

  it('the constructor refuses a bad userId, default creatorKey or timing option', () => {
    const platform = createMemoryPlatform();
    const make = (extra: object) => () => new PlaytimeTracker({ platform, userId: 'u', relay: { url: RELAY_URL }, ...extra });
    expect(make({ userId: '' })).toThrow(/options\.userId must not be empty/);
    expect(make({ creatorKey: 'TOO-LONG' })).toThrow(/options\.creatorKey must be exactly 5 uppercase letters or digits/);
    expect(make({ flushAt: 0 })).toThrow(/options\.flushAt must be a whole number of at least 1/);
    expect(make({ relay: { url: '' } })).toThrow(/options\.relay\.url must be https:\/\/… or \/path/);
  });

  // From plain JavaScript, as a developer new to the SDK writes it: the field is named, not "Cannot destructure property 'storage'".
  it('the constructor without a platform names the option', () => {
    const make = PlaytimeTracker as unknown as new (options: object) => PlaytimeTracker;
    expect(() => new make({ userId: 'u', relay: { url: RELAY_URL } })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: [{ path: 'options.platform', message: 'must be an object' }] }),
    );
  });

  // `new PlaytimeTracker()` from plain JavaScript, the first line a developer new to the SDK may try: it named no option
  // ("Cannot convert undefined or null to object", from Object.entries in definedOnly).
  it.each([['no argument', []], ['undefined', [undefined]], ['null', [null]]])('the constructor given %s names the options, as for {}', (_, args: unknown[]) => {
    const make = PlaytimeTracker as unknown as new (...args: unknown[]) => PlaytimeTracker;
    expect(() => new make(...args)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', details: [{ path: 'options.platform', message: 'must be an object' }, { path: 'options.userId', message: 'is required' }] }),
    );
  });

  // Before, all of these were taken and failed at every send: without a scheme fetch resolves the address against the
  // page's own folder (`https://cdn.example/game/game.example/campaign`, the host's 404), another scheme never reaches a relay.
  it('the constructor refuses a relay url without http(s):// that is not a /path, naming both forms', () => {
    const platform = createMemoryPlatform();
    for (const url of ['game.example/campaign', 'campaign', './campaign', 'ftp://game.example/campaign', 'file:///campaign', 'ws://game.example/campaign', 'https:game.example']) {
      expect(() => new PlaytimeTracker({ platform, userId: 'u', relay: { url } }), url).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR', details: [{ path: 'options.relay.url', message: 'must be https://… or /path with no query or fragment' }] }),
      );
    }
  });

  // A path from the root is what the README and the browser guide show: a browser's fetch resolves it against the page.
  it.each(['/campaign', '/', 'http://127.0.0.1:8787/campaign', 'https://game.example', 'HTTPS://Game.Example/campaign'])('the constructor takes the relay url %j', async (url) => {
    await new PlaytimeTracker({ platform: createMemoryPlatform(), userId: 'u', relay: { url } }).dispose();
  });

  it('the constructor refuses a timing option over 2^31 - 1 ms, which setTimeout would fire at once (C# refuses it at Init too); 2^31 - 1 itself is taken', async () => {
    const platform = createMemoryPlatform();
    const make = (extra: object) => () => new PlaytimeTracker({ platform, userId: 'u', relay: { url: RELAY_URL }, ...extra });
    for (const name of ['flushIntervalMs', 'checkpointMs', 'backgroundTimeoutMs']) {
      expect(make({ [name]: 3_000_000_000 })).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR', details: [{ path: `options.${name}`, message: 'must be an integer from 1 to 2147483647' }] }),
      );
      expect(make({ [name]: 2 ** 31 })).toThrow(ValidationError);
    }
    // Counts are no timers: a large one is taken.
    await new PlaytimeTracker({ platform, userId: 'u', relay: { url: RELAY_URL }, maxQueue: 3_000_000_000, flushAt: 3_000_000_000 }).dispose();
    await new PlaytimeTracker({ platform, userId: 'u', relay: { url: RELAY_URL }, flushIntervalMs: 2_147_483_647, checkpointMs: 2_147_483_647, backgroundTimeoutMs: 2_147_483_647 }).dispose();
  });

  it('the constructor refuses a relay url with a query or fragment: the routes would go after it, and every call reach the wrong path', async () => {
    const platform = createMemoryPlatform();
    for (const url of ['/campaign?v=2', 'https://game.example/campaign#relay', 'https://game.example/campaign/?']) {
      expect(() => new PlaytimeTracker({ platform, userId: 'u', relay: { url } })).toThrow(
        expect.objectContaining({ code: 'VALIDATION_ERROR', details: [{ path: 'options.relay.url', message: 'must be https://… or /path with no query or fragment' }] }),
      );
    }
    await new PlaytimeTracker({ platform, userId: 'u', relay: { url: 'https://game.example/campaign/' } }).dispose();
  });

  it('start() after dispose() throws', async () => {
    const { tracker } = createHarness();
    await tracker.dispose();
    expect(() => tracker.start()).toThrow('PlaytimeTracker: start() after dispose()');
  });
});
