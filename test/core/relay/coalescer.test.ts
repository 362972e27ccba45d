import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { maxItemBytes, measureBatch, PlaytimeCoalescer, splitResults } from '../../../core/relay/coalescer.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { ValidationError } from '../../../core/http/errors.js';
import type { BulkPlaytimeItem, BulkPlaytimeResult } from '../../../core/schema/playtime.js';
import { reply, type RecordedRequest } from '../../helpers/fake-fetch.js';
import { read, relayOverFakeService, relayRequest, session, sessions, settle, success } from './fake-service.js';

const post = (body: unknown, userId: string) => relayRequest('POST', RELAY_ROUTES.playtime, body, userId);
const sent = (calls: RecordedRequest[]) => calls.map((c) => (c.body as { sessions: BulkPlaytimeItem[] }).sessions.map((s) => s.sessionId));



beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('coalescing through the relay', () => {
  it('merges batches arriving within the window into one bulk call and answers each client with its own items', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    const answers = ['alice', 'bob', 'carol'].map((user) => relay.fetch(post({ sessions: sessions(user, 2) }, user)));
    await settle();
    expect(bulkCalls()).toEqual([]); // nothing goes before the window ends
    await vi.advanceTimersByTimeAsync(50);
    expect(sent(bulkCalls())).toEqual([['s-alice-0', 's-alice-1', 's-bob-0', 's-bob-1', 's-carol-0', 's-carol-1']]);
    const bodies = await Promise.all(answers.map(async (a) => (await read(await a)).body));
    expect(bodies.map((b) => b.data.results.map((r: { sessionId: string }) => r.sessionId))).toEqual([
      ['s-alice-0', 's-alice-1'],
      ['s-bob-0', 's-bob-1'],
      ['s-carol-0', 's-carol-1'],
    ]);
    expect(bodies[1].data).toEqual({
      totalRequested: 2,
      successful: 2,
      failed: 0,
      skipped: 0,
      results: [
        { sessionId: 's-bob-0', status: 'SUCCESS' },
        { sessionId: 's-bob-1', status: 'SUCCESS' },
      ],
    });
  });

  it('keeps test and live sessions in separate bulk calls', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    const answers = [
      relay.fetch(post({ sessions: sessions('alice', 1), isTest: true }, 'alice')),
      relay.fetch(post({ sessions: sessions('bob', 1) }, 'bob')),
      relay.fetch(post({ sessions: sessions('carol', 1), isTest: true }, 'carol')),
      relay.fetch(post({ sessions: sessions('dave', 1), isTest: false }, 'dave')),
    ];
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    await Promise.all(answers);
    expect(bulkCalls().map((c) => c.body)).toEqual([
      { sessions: [session('alice', 0), session('carol', 0)], isTest: true },
      { sessions: [session('bob', 0), session('dave', 0)] },
    ]);
  });

  it('sends a full buffer at once and starts a new one for a batch that would overflow it', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    const answers = [
      relay.fetch(post({ sessions: sessions('alice', 600) }, 'alice')),
      relay.fetch(post({ sessions: sessions('bob', 600) }, 'bob')),
      relay.fetch(post({ sessions: sessions('carol', 400) }, 'carol')),
    ];
    await settle();
    // alice's 600 left when bob's would have made 1200; bob + carol made exactly 1000 and left without waiting.
    expect(bulkCalls().map((c) => (c.body as { sessions: unknown[] }).sessions.length)).toEqual([600, 1000]);
    const statuses = await Promise.all(answers.map(async (a) => (await a).status));
    expect(statuses).toEqual([200, 200, 200]);
  });

  it('answers nobody before the service has answered', async () => {
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 10 });
    let release: () => void = () => undefined;
    fake.push(() => new Promise((resolve) => (release = () => resolve(reply.ok(success(sessions('alice', 1)))))));
    let answered = false;
    const answer = relay.fetch(post({ sessions: sessions('alice', 1) }, 'alice')).then((r) => ((answered = true), r));
    await settle();
    await vi.advanceTimersByTimeAsync(1000);
    expect(fake.calls).toHaveLength(1);
    expect(answered).toBe(false);
    release();
    expect((await answer).status).toBe(200);
  });

  it('sends each client on its own after a merged call fails validation, so one bad part fails only its client', async () => {
    const { relay, fake, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    const details = [{ path: 'sessions.1.campaignId', message: 'campaign not found' }];
    fake.push(reply.error(400, 'VALIDATION_ERROR', 'Invalid request', { details }));
    fake.push((request) => reply.ok(success((request.body as { sessions: BulkPlaytimeItem[] }).sessions)));
    fake.push(reply.error(400, 'VALIDATION_ERROR', 'Invalid request', { details: [{ path: 'sessions.0.campaignId', message: 'campaign not found' }] }));
    const good = relay.fetch(post({ sessions: sessions('alice', 1) }, 'alice'));
    const bad = relay.fetch(post({ sessions: sessions('bob', 1) }, 'bob'));
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    const [goodAnswer, badAnswer] = await Promise.all([read(await good), read(await bad)]);
    expect(sent(bulkCalls())).toEqual([['s-alice-0', 's-bob-0'], ['s-alice-0'], ['s-bob-0']]);
    expect(goodAnswer.status).toBe(200);
    expect(goodAnswer.body.data.results).toEqual([{ sessionId: 's-alice-0', status: 'SUCCESS' }]);
    expect(badAnswer.status).toBe(400);
    expect(badAnswer.body).toEqual({
      status: 400,
      error: 'Bad Request',
      code: 'VALIDATION_ERROR',
      message: 'Invalid request',
      details: [{ path: 'sessions.0.campaignId', message: 'campaign not found' }],
    });
  });

  it('fails every merged client with 503 when the service is unavailable for everyone (503), without splitting', async () => {
    const { relay, fake, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    fake.push(reply.error(503, 'SERVICE_UNAVAILABLE', 'down'));
    const answers = ['alice', 'bob'].map((user) => relay.fetch(post({ sessions: sessions(user, 1) }, user)));
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([503, 503]);
    expect(bulkCalls()).toHaveLength(1);
  });

  it("sends each client on its own after a merged call's 500, so a batch the service cannot process fails only its player", async () => {
    const { relay, fake, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    // The service fails (500) on any body holding the hostile player's session, and records the others.
    const poisoned = (request: { body: unknown }) => JSON.stringify(request.body).includes('s-mallory-0');
    for (let i = 0; i < 3; i++) {
      fake.push((request) => (poisoned(request) ? reply.error(500, 'INTERNAL_ERROR', 'boom') : reply.ok(success((request.body as { sessions: BulkPlaytimeItem[] }).sessions))));
    }
    const honest = relay.fetch(post({ sessions: sessions('alice', 1) }, 'alice'));
    const hostile = relay.fetch(post({ sessions: sessions('mallory', 1) }, 'mallory'));
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    const [honestAnswer, hostileAnswer] = await Promise.all([read(await honest), read(await hostile)]);
    expect(sent(bulkCalls())).toEqual([['s-alice-0', 's-mallory-0'], ['s-alice-0'], ['s-mallory-0']]);
    expect(honestAnswer.status).toBe(200);
    expect(honestAnswer.body.data.results).toEqual([{ sessionId: 's-alice-0', status: 'SUCCESS' }]);
    // The hostile player's batch stays transient (the tracker keeps it queued): the service, not the player, failed.
    expect(hostileAnswer.status).toBe(503);
  });

  it('gives each client its own result when two clients send the same sessionId', async () => {
    const { relay } = relayOverFakeService({ coalesceWindowMs: 50 });
    const shared = session('alice', 0);
    const first = relay.fetch(post({ sessions: [shared] }, 'alice'));
    const second = relay.fetch(post({ sessions: [shared, session('alice', 1)] }, 'alice'));
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    expect((await read(await first)).body.data.results).toEqual([{ sessionId: 's-alice-0', status: 'SUCCESS' }]);
    expect((await read(await second)).body.data.results).toEqual([
      { sessionId: 's-alice-0', status: 'SKIPPED' },
      { sessionId: 's-alice-1', status: 'SUCCESS' },
    ]);
  });
});

describe('PlaytimeCoalescer', () => {
  it('does not retry a lone part that fails validation', async () => {
    const send = vi.fn(() => Promise.reject(new ValidationError({ code: 'VALIDATION_ERROR', status: 400, message: 'bad' })));
    const coalescer = new PlaytimeCoalescer({ send, windowMs: 5 });
    const result = coalescer.submit(sessions('alice', 1), false).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5);
    expect(await result).toBeInstanceOf(ValidationError);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it("names a refused session by its place in the client's batch when the batch was spread over several calls", async () => {
    // On b3f633f the details kept the service's numbering of the second call (sessions.0), which is another session of the batch.
    const send = vi.fn((items: BulkPlaytimeItem[]) =>
      items.some((s) => s.sessionId === 's-alice-3')
        ? Promise.reject(new ValidationError({ code: 'VALIDATION_ERROR', status: 400, message: 'bad', details: [{ path: 'sessions.1.metadata', message: 'not allowed' }, { path: '(body)', message: 'x' }] }))
        : Promise.resolve(success(items)),
    );
    const coalescer = new PlaytimeCoalescer({ send, windowMs: 5, maxItems: 2 });
    const result = coalescer.submit(sessions('alice', 4), false).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5);
    expect(send.mock.calls.map(([items]) => items.map((s) => s.sessionId))).toEqual([['s-alice-0', 's-alice-1'], ['s-alice-2', 's-alice-3']]);
    expect((await result) as ValidationError).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'sessions.3.metadata', message: 'not allowed' }, { path: '(body)', message: 'x' }] });
  });

  it('honours a smaller maxItems', async () => {
    const send = vi.fn((items: BulkPlaytimeItem[]) => Promise.resolve(success(items)));
    const coalescer = new PlaytimeCoalescer({ send, windowMs: 5, maxItems: 3 });
    const results = [coalescer.submit(sessions('a', 2), false), coalescer.submit(sessions('b', 2), false), coalescer.submit(sessions('c', 1), false)];
    await vi.advanceTimersByTimeAsync(5);
    await Promise.all(results);
    expect(send.mock.calls.map(([items]) => items.map((s) => s.sessionId))).toEqual([['s-a-0', 's-a-1'], ['s-b-0', 's-b-1', 's-c-0']]);
  });

  it('hands send each upstream body as the JSON text of its sessions, written once: merged, spread over calls, in test mode, alone', async () => {
    const send = vi.fn((items: BulkPlaytimeItem[], _isTest: boolean, _json: string) => Promise.resolve(success(items)));
    // 3 items a call: bob's 4 are more than one call takes, so they are spread over two, the last joined by dave's 2.
    const coalescer = new PlaytimeCoalescer({ send, windowMs: 5, maxItems: 3 });
    const bob = [session('bob', 0, { metadata: { name: 'Zoë 🎮', quote: 'say "hi"\n' } }), ...sessions('bob', 3, 1)];
    const results = [
      coalescer.submit(sessions('alice', 2), false, measureBatch(sessions('alice', 2), false, maxItemBytes(false))),
      coalescer.submit(bob, false),
      coalescer.submit(sessions('dave', 2), false),
      coalescer.submit(sessions('carol', 1), true),
      coalescer.submit(sessions('erin', 1), true, measureBatch(sessions('erin', 1), true, maxItemBytes(true))),
    ];
    await vi.advanceTimersByTimeAsync(5);
    await Promise.all(results);
    expect(send.mock.calls.map(([items]) => items.map((s) => s.sessionId))).toEqual([['s-alice-0', 's-alice-1'], ['s-bob-0', 's-bob-1', 's-bob-2'], ['s-bob-3', 's-dave-0', 's-dave-1'], ['s-carol-0', 's-erin-0']]);
    for (const [items, isTest, json] of send.mock.calls) expect(json).toBe(JSON.stringify(isTest ? { sessions: items, isTest } : { sessions: items }));
  });
});

describe('splitResults', () => {
  const parts = [{ sessions: sessions('a', 2) }, { sessions: sessions('b', 1) }];

  it('splits an answer in request order by position', () => {
    const result = success([...sessions('a', 2), ...sessions('b', 1)]);
    expect(splitResults(result, parts)).toEqual([
      [
        { sessionId: 's-a-0', status: 'SUCCESS' },
        { sessionId: 's-a-1', status: 'SUCCESS' },
      ],
      [{ sessionId: 's-b-0', status: 'SUCCESS' }],
    ]);
  });

  it('matches an answer in another order by sessionId', () => {
    const result = success([session('b', 0), session('a', 1), session('a', 0)]);
    expect(splitResults(result, parts)).toEqual([
      [
        { sessionId: 's-a-0', status: 'SUCCESS' },
        { sessionId: 's-a-1', status: 'SUCCESS' },
      ],
      [{ sessionId: 's-b-0', status: 'SUCCESS' }],
    ]);
  });

  it('leaves a part out when the answer misses one of its sessions, or has no results', () => {
    expect(splitResults(success([session('b', 0), session('a', 1)]), parts)).toEqual([undefined, [{ sessionId: 's-b-0', status: 'SUCCESS' }]]);
    expect(splitResults({ totalRequested: 0 } as unknown as BulkPlaytimeResult, parts)).toEqual([undefined, undefined]);
  });
});
