/**
 * What outside review found the Unity package doing differently from the JavaScript SDK, on mono
 * (csharp/ManagedParityProbe.cs): a bad `Tracker.Start` argument (or `Init` default) is a VALIDATION_ERROR at once,
 * as core/tracker/options.ts throws, and the running session goes on; going to the background waits for the
 * checkpoint's write only, not for the background flush's reads of the queue; an answer envelope the bridge cannot
 * read still completes its Task and clears its entry; a session under 1 s is dropped with the JavaScript tracker's
 * error and details; a relay answering outside the spec (a VALIDATION_ERROR without the spec's body, a 404, a captive
 * portal's page) has the sessions kept or dropped, and reported, as the JavaScript tracker does; and a story raises
 * the same events with the same JSON on both.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createMemoryPlatform, createMemoryStorage } from '../../../core/memory-platform.js';
import { PlaytimeTracker } from '../../../core/tracker/index.js';
import { sessionQueue } from '../../../core/tracker/queue.js';
import { runMono } from '../../contract/cs-runner/mono.js';
import { compileDeviceProbe } from './device-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-managed-parity-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let report: Record<string, unknown> = {};

/**
 * Relay answers outside the spec, and the spec's own refusals, each played on both trackers (status, body; SID: the
 * batch's first session id).
 */
const UNUSUAL_ANSWERS: Array<[number, string]> = [
  [400, '{"code":"VALIDATION_ERROR"}'],
  [404, '{"code":"NOT_FOUND","message":"no route"}'],
  [200, '<html>log in to the Wi-Fi</html>'],
  [401, '{"code":"UNAUTHORIZED","message":"session expired"}'],
  [403, '{"code":"FORBIDDEN","message":"not this game"}'],
  [403, 'Forbidden'],
  [413, '{"code":"PAYLOAD_TOO_LARGE","message":"too big"}'],
  [422, '{"code":"VALIDATION_ERROR","message":"Invalid request","details":[{"path":"sessions.0.metadata","message":"too large"}]}'],
  [503, '{"code":"SERVICE_UNAVAILABLE","message":"down"}'],
  [500, 'Internal Server Error'],
  [200, '{"data":{"results":[{"sessionId":"SID","status":"FAILED","error":"campaign ended"}]}}'],
  [200, '{"data":{"results":[]}}'],
];

beforeAll(() => {
  const exe = join(work, 'parity.exe');
  compileDeviceProbe(exe, 'ManagedParityProbe');
  const answers = join(work, 'answers.txt');
  writeFileSync(answers, UNUSUAL_ANSWERS.map(([status, text]) => `${status} ${text}`).join('\n'));
  const { status, stdout, stderr } = runMono(exe, [join(work, 'device'), answers], 'jit');
  expect(status, stderr).toBe(0);
  report = JSON.parse(stdout) as Record<string, unknown>;
}, 120_000);

it('refuses a bad creator key or an empty campaign id at Start (and as Init defaults) with VALIDATION_ERROR, the running session going on', () => {
  expect(report['badCreatorKey']).toBe('VALIDATION_ERROR Invalid request: start.creatorKey must be exactly 5 uppercase letters or digits');
  expect(report['emptyCampaignId']).toBe('VALIDATION_ERROR Invalid request: start.campaignId must not be empty');
  expect(report['endedAfterBadStarts']).toEqual(['stop 5']);
  expect(report['badDefaultCreatorKey']).toBe('VALIDATION_ERROR Invalid request: options.creatorKey must be exactly 5 uppercase letters or digits');
});

it('going to the background writes the checkpoint before OnApplicationPause returns and does not wait for the queue reads of the background flush', () => {
  expect(report['playedMsOnDiskAtPause']).toBe(4000);
  expect(report['pauseWaitedForQueueRead']).toBe(false);
});

it('completes a call whose error answer the bridge cannot read as sent (a status beyond range, no message), and clears its entry', () => {
  expect(report['unreadableAnswers']).toEqual(['INTERNAL_ERROR: huge status', 'BAD_REQUEST: huge days', 'INTERNAL_ERROR: unknown error']);
  expect(report['pendingAfter']).toBe(0);
});

it('drops a session under 1 s with the dropped event the JavaScript tracker raises (error and details), as a WebGL build of the game receives it', async () => {
  vi.useFakeTimers();
  try {
    const tracker = new PlaytimeTracker({ platform: createMemoryPlatform(), userId: 'short', relay: { url: 'https://g1.example/sandbox/campaign' } });
    const dropped: unknown[] = [];
    tracker.on('dropped', ({ reason, error, details }) => dropped.push({ reason, error, details: details ?? [] }));
    tracker.start();
    await vi.advanceTimersByTimeAsync(500);
    await tracker.stop();
    await tracker.dispose();
    expect(dropped).toHaveLength(1);
    expect(report['tooShortDropped']).toEqual(dropped);
  } finally {
    vi.useRealTimers();
  }
});

it('drops a crashed session whose running record parses but is malformed (playedMs missing, spanMs negative) with the JavaScript tracker\'s dropped event (invalid, error and details), no storage error', async () => {
  vi.useFakeTimers();
  try {
    const storage = createMemoryStorage();
    const options = { userId: 'malformed', relay: { url: 'https://g1.example/sandbox/campaign' }, isTest: true };
    const first = createMemoryPlatform({ storage });
    const crashed = new PlaytimeTracker({ ...options, platform: first });
    crashed.start({ campaignId: 'c1' });
    await vi.advanceTimersByTimeAsync(20_000);
    first.crash();
    await crashed.dispose().catch(() => undefined);
    for (const [key, value] of Object.entries(storage.snapshot()))
      if (key.includes(':running:')) {
        const { playedMs: _, ...rest } = value as Record<string, unknown>;
        await storage.set(key, { ...rest, spanMs: -5000 });
      }
    const tracker = new PlaytimeTracker({ ...options, platform: createMemoryPlatform({ storage }) });
    const dropped: unknown[] = [];
    const errors: unknown[] = [];
    tracker.on('dropped', ({ reason, error, details }) => dropped.push({ reason, error, details: details ?? [] }));
    tracker.on('error', ({ kind }) => errors.push(kind));
    await tracker.flush();
    await tracker.dispose();
    expect(dropped).toEqual([
      {
        reason: 'invalid',
        error: 'durationSeconds must be a number; endedAt must be greater than or equal to startedAt',
        details: [
          { path: 'durationSeconds', message: 'must be a number' },
          { path: 'endedAt', message: 'must be greater than or equal to startedAt' },
        ],
      },
    ]);
    expect(errors).toEqual([]);
    expect(report['malformedDropped']).toEqual(dropped);
    expect(report['malformedErrors']).toEqual(errors);
  } finally {
    vi.useRealTimers();
  }
});

/**
 * The JavaScript tracker (what a WebGL build runs) against one relay answer, then a relay that accepts: its dropped and
 * error events as GameCampaign.jslib `forward` hands them to C# ({kind, message, code unless JS_ERROR, status}), and how
 * many sessions arrived.
 */
async function javaScriptOutcome(status: number, text: string, index: number): Promise<Record<string, unknown>> {
  vi.useFakeTimers();
  try {
    let scripted = false;
    let arrived = 0;
    const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      if (scripted) return new Response(text.replace('SID', sessions[0]!.sessionId), { status, headers: { 'content-type': 'application/json' } });
      arrived += sessions.length;
      return new Response(JSON.stringify({ data: { results: sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } }), { status: 200 });
    };
    const tracker = new PlaytimeTracker({ platform: createMemoryPlatform({ fetch }), userId: `unusual-${index}`, relay: { url: 'https://g1.example/sandbox/campaign' } });
    const events: unknown[] = [];
    tracker.on('dropped', ({ reason, error, details }) => events.push({ dropped: reason, error, details: details ?? [] }));
    tracker.on('error', ({ kind, error, status: answered }) => {
      const { code, message } = error as { code?: string; message: string };
      events.push({ kind, message, ...(code && code !== 'JS_ERROR' && { code }), ...(answered !== undefined && { status: answered }) });
    });
    tracker.start();
    await vi.advanceTimersByTimeAsync(2000);
    await tracker.stop();
    scripted = true;
    await tracker.flush();
    scripted = false;
    await tracker.flush();
    await tracker.dispose();
    return { status: String(status), events, arrived };
  } finally {
    vi.useRealTimers();
  }
}

it('keeps or drops, and reports, what a relay answers outside the spec as the JavaScript tracker does (a VALIDATION_ERROR without the spec body is no verdict on the sessions)', async () => {
  const expected = [];
  for (const [index, [status, text]] of UNUSUAL_ANSWERS.entries()) expected.push(await javaScriptOutcome(status, text, index));
  // Kept (delivered once the relay accepts) unless the spec's refusal says the session itself is wrong.
  expect(expected.map(({ arrived }) => arrived)).toEqual([1, 1, 1, 1, 1, 1, 0, 0, 1, 1, 0, 1]);
  expect(report['unusualRelayAnswers']).toEqual(expected);
});

/** Session ids in order of first appearance, as S1, S2, ...: each tracker draws its own. */
function namedIds(events: unknown): unknown {
  const ids = new Map<string, string>();
  return JSON.parse(JSON.stringify(events), (key, value: unknown) => {
    if ((key === 'sessionId' || key === 'continues') && typeof value === 'string') {
      if (!ids.has(value)) ids.set(value, `S${ids.size + 1}`);
      return ids.get(value);
    }
    return value;
  });
}

it('raises every tracker event with the JavaScript tracker\'s payload (a story with a time-out, its continuation, a restart and an erasure)', async () => {
  vi.useFakeTimers();
  // The same device clock as the C# story's (ProbeDevice: 2026-06-01T12:00Z plus the time earlier probes passed).
  vi.setSystemTime(Date.parse('2026-06-01T12:00:00.000Z') + (report['eventStoryStartMs'] as number));
  try {
    const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      return new Response(JSON.stringify({ data: { results: sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } }), { status: 200 });
    };
    const platform = createMemoryPlatform({ fetch });
    const tracker = new PlaytimeTracker({ platform, userId: 'story', relay: { url: 'https://g1.example/sandbox/campaign' }, isTest: true });
    const events: unknown[] = [];
    // As GameCampaign.jslib forward hands them to C#: JSON.stringify of the event.
    for (const name of ['session:start', 'session:end', 'flushed', 'dropped'] as const) tracker.on(name, (data: unknown) => events.push({ name, data: JSON.parse(JSON.stringify(data)) }));
    tracker.start({ campaignId: 'c1', creatorKey: 'ABCDE', metadata: { level: 3, mode: 'ranked', none: null, list: [1, null, 'x', false], nested: { tiny: 1.5e-7, big: 1e21, ü: 'ğ\u2028' } } });
    await vi.advanceTimersByTimeAsync(5000);
    platform.background();
    await vi.advanceTimersByTimeAsync(70_000);
    platform.foreground();
    await vi.advanceTimersByTimeAsync(3000);
    await tracker.stop();
    await tracker.flush();
    tracker.start();
    await vi.advanceTimersByTimeAsync(2000);
    tracker.start({ campaignId: 'c2' });
    await vi.advanceTimersByTimeAsync(1500);
    await tracker.deleteStoredData();
    await tracker.dispose();
    expect(namedIds(report['eventStory'])).toEqual(namedIds(events));
  } finally {
    vi.useRealTimers();
  }
});

it('raises the same events across a crash (overflow of a queue of one kept by a 503, a session killed and recovered at the next start-up)', async () => {
  vi.useFakeTimers();
  vi.setSystemTime(Date.parse('2026-06-01T12:00:00.000Z') + (report['crashStoryStartMs'] as number));
  try {
    let down = true;
    const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      if (down) return new Response('{"code":"SERVICE_UNAVAILABLE","message":"down"}', { status: 503 });
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      return new Response(JSON.stringify({ data: { results: sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } }), { status: 200 });
    };
    const storage = createMemoryStorage();
    const events: unknown[] = [];
    const run = () => {
      const platform = createMemoryPlatform({ fetch, storage });
      const tracker = new PlaytimeTracker({ platform, userId: 'crash', relay: { url: 'https://g1.example/sandbox/campaign' }, isTest: true, maxQueue: 1 });
      const heard = { alive: true };
      for (const name of ['session:start', 'session:end', 'flushed', 'dropped'] as const) tracker.on(name, (data: unknown) => void (heard.alive && events.push({ name, data: JSON.parse(JSON.stringify(data)) })));
      return { platform, tracker, heard };
    };
    const first = run();
    first.tracker.start({ campaignId: 'c1' });
    await vi.advanceTimersByTimeAsync(2000);
    await first.tracker.stop();
    await first.tracker.flush();
    first.tracker.start({ campaignId: 'c2' });
    await vi.advanceTimersByTimeAsync(2000);
    await first.tracker.stop();
    first.tracker.start({ campaignId: 'c3' });
    await vi.advanceTimersByTimeAsync(20_000);
    first.heard.alive = false;
    first.platform.crash();
    await first.tracker.dispose().catch(() => undefined);
    down = false;
    const next = run();
    await next.tracker.flush();
    await next.tracker.dispose();
    // The story as told (the second overflow: the recovered session takes the one place from the second).
    const told = events.map((event) => { const { name, data } = event as { name: string; data: { reason?: string } }; return data.reason ? `${name} ${data.reason}` : name; });
    expect(told).toEqual(['session:start', 'session:end stop', 'session:start', 'session:end stop', 'dropped overflow', 'session:start', 'session:end recovered', 'dropped overflow', 'flushed']);
    expect(namedIds(report['crashStory'])).toEqual(namedIds(events));
  } finally {
    vi.useRealTimers();
  }
});

it('a connection that flaps while the relay cannot be reached: of 10 returns inside the backoff only the first sends; a return after an outage longer than it sends at once', async () => {
  // No time passes between the returns: only a 0 ms draw of the jitter at its 5 min ceiling (1 in 300,000) would end the wait.
  expect(report['flappingReturnsSent']).toBe(1);
  expect(report['returnAfterOutageSent']).toBe(1);
  expect(report['flappingArrived']).toBe(1);
  // The JavaScript tracker on the memory platform, the same story (core/tracker/flusher.ts): the same counts.
  vi.useFakeTimers();
  try {
    let reachable = false;
    let requests = 0;
    const fetch = async (_url: string | URL | Request, init?: RequestInit): Promise<Response> => {
      requests++;
      if (!reachable) throw new TypeError('Failed to fetch');
      const { sessions } = JSON.parse(String(init?.body)) as { sessions: Array<{ sessionId: string }> };
      return new Response(JSON.stringify({ data: { results: sessions.map(({ sessionId }) => ({ sessionId, status: 'SUCCESS' })) } }), { status: 200 });
    };
    const platform = createMemoryPlatform({ fetch, storage: createMemoryStorage() });
    const tracker = new PlaytimeTracker({ platform, userId: 'flapping', relay: { url: 'https://g1.example/sandbox/campaign' }, isTest: true });
    const flushed: unknown[] = [];
    tracker.on('flushed', (data) => flushed.push(data));
    tracker.start({ campaignId: 'c1' });
    await vi.advanceTimersByTimeAsync(2000);
    await tracker.stop();
    for (let i = 0; i < 9; i++) await tracker.flush();
    let before = requests;
    for (let flip = 0; flip < 10; flip++) {
      platform.setOnline(false);
      platform.setOnline(true);
      await vi.advanceTimersByTimeAsync(0);
    }
    expect(requests - before).toBe(report['flappingReturnsSent']);
    platform.setOnline(false);
    await vi.advanceTimersByTimeAsync(301_000);
    before = requests;
    reachable = true;
    platform.setOnline(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(requests - before).toBe(report['returnAfterOutageSent']);
    expect(flushed).toHaveLength(1);
    await tracker.dispose();
  } finally {
    vi.useRealTimers();
  }
});

it('Boost.Current says "no boost" only for the service\'s 404 (its error body), as gc.boost.current(); a proxy\'s 404 is NOT_FOUND', () => {
  // A 404 without a body (a proxy's HTML page is no JSON), one with other JSON, one with the spec's error body, then
  // an AWS HTTP API's `{ message }` and a Fastify/NestJS body: no code, so not the service's (before: both "no boost").
  expect(report['boostCurrentOn404']).toEqual(['NOT_FOUND HTTP 404', 'NOT_FOUND HTTP 404', 'ok', 'NOT_FOUND HTTP 404', 'NOT_FOUND HTTP 404']);
});

/**
 * core/tracker/queue.ts `evict` played as ManagedParityProbe's Evictions: a queue capped at 1 holding a, something
 * happening to a's stored copy, then b queued (a evicted); what is heard, and what is stored for the next start-up.
 */
async function evictionInJavaScript(meanwhile: 'sent' | 'refused'): Promise<{ heard: string[]; queuedAtNextStart: string[] }> {
  const storage = createMemoryStorage();
  const heard: string[] = [];
  let refuse = false;
  const deleting = { ...storage, delete: (key: string) => (refuse ? Promise.reject(new Error('read-only')) : storage.delete(key)) };
  const queue = sessionQueue(deleting, 'q:', 1, ({ sessionId, reason, session }) => heard.push(`dropped ${sessionId} ${reason}${session ? '' : ' without the session'}`), () => heard.push('storage error'), () => 0, () => undefined);
  await queue.sync();
  await queue.enqueue({ sessionId: 'a' } as never);
  const [key] = await storage.keys('q:');
  if (meanwhile === 'sent') await storage.delete(key!);
  refuse = meanwhile === 'refused';
  await queue.enqueue({ sessionId: 'b' } as never);
  const queuedAtNextStart = (await storage.keys('q:')).map((stored) => stored.slice(stored.indexOf(':', 2) + 1));
  return { heard, queuedAtNextStart };
}

/** ManagedParityProbe's EvictionWhileRead on core/tracker/queue.ts: b queued while a flush reads a, evicted meanwhile. */
async function evictionWhileReadInJavaScript(): Promise<string[]> {
  const storage = createMemoryStorage();
  const heard: string[] = [];
  const queue = sessionQueue(storage, 'q:', 1, ({ sessionId, reason }) => heard.push(`dropped ${sessionId} ${reason}`), () => heard.push('storage error'), () => 0, () => undefined);
  await queue.sync();
  await queue.enqueue({ sessionId: 'a' } as never);
  const oldest = queue.oldest(10, new Set());
  const [enqueued, read] = await Promise.all([queue.enqueue({ sessionId: 'b' } as never), queue.read(oldest)]);
  expect(enqueued).toBe(true);
  return [...heard, ...read.map((item) => `read ${item.session.sessionId}`)];
}

it('a session evicted (dropped, overflow) while a flush reads it is not handed to the flush, in both queues: it was delivered and reported dropped both', async () => {
  const inJavaScript = await evictionWhileReadInJavaScript();
  expect(inJavaScript).toEqual(['dropped a overflow']);
  expect(report['evictionWhileRead']).toEqual(inJavaScript);
});

it('two stored copies of one session in one batch both leave the queue on its one answer, told once (core/tracker/flusher.ts settle, decisions "One session stored twice in one batch")', () => {
  expect(report['twoCopiesFlushed']).toEqual([1]);
  expect(report['twoCopiesLeftQueued']).toBe(0);
});

it('evicts as the JavaScript queue does: a file another copy of the game sent meanwhile is not reported dropped; a refused delete is a storage error, the session stored and sent by the next start-up', async () => {
  const sent = await evictionInJavaScript('sent');
  expect(sent).toEqual({ heard: [], queuedAtNextStart: ['b'] });
  // Before, the C# queue reported the session the relay had from the other copy as dropped (overflow) without it.
  expect(report['evictionOfASentFile']).toEqual(sent);
  const refused = await evictionInJavaScript('refused');
  expect(refused).toEqual({ heard: ['storage error'], queuedAtNextStart: ['a', 'b'] });
  expect(report['evictionDeleteRefused']).toEqual(refused);
});
