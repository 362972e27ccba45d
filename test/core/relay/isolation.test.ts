/**
 * A player's outcome depends only on its own batch: merged upstream calls stay under the service's body
 * limit (measured on the re-serialized body), a merged call the service refuses for good is sent again
 * client by client, and a session too large for the service on its own is refused before it is merged.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PlaytimeCoalescer, maxItemBytes, serializedSize } from '../../../core/relay/coalescer.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { CampaignError } from '../../../core/http/errors.js';
import { SERVICE_MAX_BODY_BYTES, utf8Length } from '../../../core/schema/json-limits.js';
import type { BulkPlaytimeItem } from '../../../core/schema/playtime.js';
import { reply, type RecordedRequest } from '../../helpers/fake-fetch.js';
import { read, relayOverFakeService, relayRequest, session, sessions, settle, success } from './fake-service.js';

const post = (body: unknown, userId: string) => relayRequest('POST', RELAY_ROUTES.playtime, typeof body === 'string' ? body : JSON.stringify(body), userId);
const ids = (call: RecordedRequest) => (call.body as { sessions: BulkPlaytimeItem[] }).sessions.map((s) => s.sessionId);
const bytesOf = (call: RecordedRequest) => utf8Length(call.rawBody ?? '');


/** `count` sessions of `userId` whose metadata pads each to about `bytes` bytes of JSON. */
function padded(userId: string, count: number, bytes: number, first = 0): BulkPlaytimeItem[] {
  return sessions(userId, count, first).map((s) => ({ ...s, metadata: { pad: 'x'.repeat(Math.max(0, bytes - serializedSize(s) - 20)) } }));
}


beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('merged calls stay under the service body limit', () => {
  it('sends two honest ~600 KB batches of one window in two calls, each under the limit, and records both', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    const alice = padded('alice', 500, 1200);
    const bob = padded('bob', 500, 1200);
    const answers = [relay.fetch(post({ sessions: alice }, 'alice')), relay.fetch(post({ sessions: bob }, 'bob'))];
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    const [a, b] = await Promise.all(answers.map(async (answer) => read(await answer)));
    expect([a?.status, b?.status]).toEqual([200, 200]);
    expect(a?.body.data.successful).toBe(500);
    expect(b?.body.data.successful).toBe(500);
    expect(bulkCalls().map(ids)).toEqual([alice.map((s) => s.sessionId), bob.map((s) => s.sessionId)]);
    for (const call of bulkCalls()) expect(bytesOf(call)).toBeLessThanOrEqual(SERVICE_MAX_BODY_BYTES);
  });

  it('measures the re-serialized size: 1e20 written in 4 bytes goes upstream as 21, and the batch is spread over calls under the limit', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    // 1000 sessions of 60 numbers: 300 KB of `1e20` from the client, 1.3 MB of digits once re-serialized.
    const numbers = Array.from({ length: 60 }, () => '1e20').join(',');
    const items = sessions('mallory', 1000).map((s) => JSON.stringify(s).replace(/}$/, `,"metadata":{"n":[${numbers}]}}`));
    const text = `{"sessions":[${items.join(',')}]}`;
    expect(utf8Length(text)).toBeLessThan(SERVICE_MAX_BODY_BYTES); // the relay takes it in
    const answer = relay.fetch(post(text, 'mallory'));
    const innocent = relay.fetch(post({ sessions: sessions('alice', 2) }, 'alice'));
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    const [mine, theirs] = [await read(await answer), await read(await innocent)];
    expect(mine.status).toBe(200);
    expect(mine.body.data.successful).toBe(1000);
    expect(mine.body.data.results.map((r: { sessionId: string }) => r.sessionId)).toEqual(sessions('mallory', 1000).map((s) => s.sessionId));
    expect(theirs.status).toBe(200);
    expect(theirs.body.data.successful).toBe(2);
    const sent = bulkCalls().map(bytesOf);
    expect(sent.reduce((sum, n) => sum + n, 0)).toBeGreaterThan(SERVICE_MAX_BODY_BYTES); // it had to be split
    for (const size of sent) expect(size).toBeLessThanOrEqual(SERVICE_MAX_BODY_BYTES);
  });

  it('refuses, before merging, a session too large for the service on its own: 400 naming it, nothing forwarded', async () => {
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    // 100 KB of `1e20` in the client's body: 1.2 MB once re-serialized.
    const text = JSON.stringify({ sessions: [session('mallory', 0), session('mallory', 1)] }).replace(/}\]}$/, `,"metadata":{"n":[${Array.from({ length: 50_000 }, () => '1e20').join(',')}]}}]}`);
    const answer = await read(await relay.fetch(post(text, 'mallory')));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('VALIDATION_ERROR');
    expect(answer.body.details).toEqual([{ path: 'sessions.1', message: expect.stringMatching(/bytes as JSON; the service takes at most \d+ bytes for one session$/) }]);
    expect(fake.calls).toEqual([]);
  });

  it('takes a session exactly as large as one upstream body can carry, and refuses one byte more', async () => {
    const room = maxItemBytes(false);
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0, maxBodyBytes: 2 * SERVICE_MAX_BODY_BYTES });
    const base = session('alice', 0, { metadata: { pad: '' } });
    const fit = { ...base, metadata: { pad: 'x'.repeat(room - serializedSize(base)) } };
    expect(serializedSize(fit)).toBe(room);
    expect((await relay.fetch(post({ sessions: [fit] }, 'alice'))).status).toBe(200);
    expect(bytesOf(bulkCalls()[0] as RecordedRequest)).toBe(SERVICE_MAX_BODY_BYTES);
    const over = { ...fit, sessionId: 's-alice-1', metadata: { pad: `${fit.metadata.pad}x` } };
    expect((await read(await relay.fetch(post({ sessions: [over] }, 'alice')))).status).toBe(400);
    expect(bulkCalls()).toHaveLength(1);
  });

  // The relay counts the characters of a body whose bytes were all ASCII without a \u escape as its UTF-8 size: a
  // body of non-ASCII text, raw or written with \u escapes (ASCII bytes that parse to 2-byte characters), is counted
  // by its UTF-8 bytes, to the byte.
  it.each([
    ['as UTF-8', (text: string) => text],
    ['as \\u escapes', (text: string) => text.replace(/é/g, '\\u00e9')],
  ])('measures a session of 2-byte characters written %s to the byte', async (_, written) => {
    const room = maxItemBytes(false);
    // Six bytes for each escaped character: the client's body is three times the upstream one.
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0, maxBodyBytes: 4 * SERVICE_MAX_BODY_BYTES });
    const base = session('alice', 0, { metadata: { pad: '' } });
    const left = room - serializedSize(base);
    const fit = { ...base, metadata: { pad: 'é'.repeat(Math.floor(left / 2)) + 'x'.repeat(left % 2) } };
    expect(serializedSize(fit)).toBe(room);
    expect((await relay.fetch(post(written(JSON.stringify({ sessions: [fit] })), 'alice'))).status).toBe(200);
    expect(bytesOf(bulkCalls()[0] as RecordedRequest)).toBe(SERVICE_MAX_BODY_BYTES);
    const over = { ...fit, sessionId: 's-alice-1', metadata: { pad: `${fit.metadata.pad}x` } };
    expect((await read(await relay.fetch(post(written(JSON.stringify({ sessions: [over] })), 'alice')))).status).toBe(400);
    expect(bulkCalls()).toHaveLength(1);
  });
});

describe('a merged call refused for good is retried client by client', () => {
  for (const [status, code] of [
    [413, 'BAD_REQUEST'],
    [400, 'BAD_REQUEST'],
    [404, 'NOT_FOUND'],
    [409, 'CONFLICT'],
  ] as const) {
    it(`after ${status} ${code}: the innocent client is recorded, only the offender gets the refusal`, async () => {
      const { relay, fake, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
      // The service refuses any body that holds one of mallory's sessions.
      const refuseMallory = (request: RecordedRequest) =>
        ids(request).some((id) => id.startsWith('s-mallory')) ? reply.error(status, code, 'refused') : reply.ok(success((request.body as { sessions: BulkPlaytimeItem[] }).sessions));
      fake.push(refuseMallory, refuseMallory, refuseMallory);
      const good = relay.fetch(post({ sessions: sessions('alice', 2) }, 'alice'));
      const bad = relay.fetch(post({ sessions: sessions('mallory', 1) }, 'mallory'));
      await settle();
      await vi.advanceTimersByTimeAsync(50);
      const [goodAnswer, badAnswer] = [await read(await good), await read(await bad)];
      expect(bulkCalls().map(ids)).toEqual([['s-alice-0', 's-alice-1', 's-mallory-0'], ['s-alice-0', 's-alice-1'], ['s-mallory-0']]);
      expect(goodAnswer.status).toBe(200);
      expect(goodAnswer.body.data.results).toEqual([
        { sessionId: 's-alice-0', status: 'SUCCESS' },
        { sessionId: 's-alice-1', status: 'SUCCESS' },
      ]);
      expect([badAnswer.status, badAnswer.body.code]).toEqual([status, code]);
    });
  }

  it("names the refused session by its place in the client's batch, not in the body the service got", async () => {
    // Another user's session and an implausible one stay behind, so the service numbers the offender 1, the client 3.
    const { relay, fake, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0 });
    fake.push(reply.error(400, 'VALIDATION_ERROR', 'Invalid request', { details: [{ path: 'sessions.1.metadata', message: 'not allowed here' }] }));
    const batch = [session('bob', 0), { ...session('alice', 1), durationSeconds: 99_999 }, session('alice', 2), session('alice', 3, { metadata: { odd: true } })];
    const answer = await read(await relay.fetch(post({ sessions: batch }, 'alice')));
    expect(bulkCalls().map(ids)).toEqual([['s-alice-2', 's-alice-3']]);
    expect([answer.status, answer.body.code, answer.body.details]).toEqual([400, 'VALIDATION_ERROR', [{ path: 'sessions.3.metadata', message: 'not allowed here' }]]);
  });

  it('does not retry part by part after a transient failure: everyone keeps their data (503)', async () => {
    const { relay, fake, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    fake.push(reply.error(429, 'RATE_LIMITED', 'slow down', { headers: { 'retry-after': '2' } }));
    const answers = ['alice', 'bob'].map((user) => relay.fetch(post({ sessions: sessions(user, 1) }, user)));
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([503, 503]);
    expect(bulkCalls()).toHaveLength(1);
  });

  it('does not retry part by part when the service refuses the relay key (401): every part would get the same', async () => {
    const { relay, fake, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    fake.push(reply.error(401, 'UNAUTHORIZED', 'bad key'));
    const answers = ['alice', 'bob'].map((user) => relay.fetch(post({ sessions: sessions(user, 1) }, user)));
    await settle();
    await vi.advanceTimersByTimeAsync(50);
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual([502, 502]);
    expect(bulkCalls()).toHaveLength(1);
  });
});

describe('PlaytimeCoalescer byte limits', () => {
  it('spreads one batch too big for one call over several, and answers it whole, in order', async () => {
    const send = vi.fn((items: BulkPlaytimeItem[]) => Promise.resolve(success(items)));
    const batch = sessions('a', 10);
    const size = serializedSize(batch[0] as BulkPlaytimeItem);
    // Room for 3 items (and their commas) per call.
    const coalescer = new PlaytimeCoalescer({ send, windowMs: 5, maxBytes: '{"sessions":[]}'.length + 3 * size + 2 });
    const result = coalescer.submit(batch, false);
    await vi.advanceTimersByTimeAsync(5);
    expect((await result).map((r) => r.sessionId)).toEqual(batch.map((s) => s.sessionId));
    expect(send.mock.calls.map(([items]) => items.length)).toEqual([3, 3, 3, 1]);
    for (const [items] of send.mock.calls) expect(utf8Length(JSON.stringify({ sessions: items }))).toBeLessThanOrEqual('{"sessions":[]}'.length + 3 * size + 2);
  });

  it('fails a spread batch with the error of its slice that failed, after every slice is answered', async () => {
    let call = 0;
    const send = vi.fn((items: BulkPlaytimeItem[]) => (++call === 2 ? Promise.reject(new CampaignError({ code: 'INTERNAL_ERROR', status: 500, message: 'boom' })) : Promise.resolve(success(items))));
    const batch = sessions('a', 4);
    const size = serializedSize(batch[0] as BulkPlaytimeItem);
    const coalescer = new PlaytimeCoalescer({ send, windowMs: 5, maxBytes: '{"sessions":[]}'.length + 2 * size + 1 });
    const result = coalescer.submit(batch, false).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5);
    expect(await result).toMatchObject({ status: 500 });
    expect(send).toHaveBeenCalledTimes(2);
  });

  it('rejects a session that no upstream call could carry, sending nothing', async () => {
    const send = vi.fn((items: BulkPlaytimeItem[]) => Promise.resolve(success(items)));
    const coalescer = new PlaytimeCoalescer({ send, windowMs: 5, maxBytes: 100 });
    await expect(coalescer.submit([session('a', 0, { metadata: { pad: 'x'.repeat(200) } })], false)).rejects.toBeInstanceOf(RangeError);
    await vi.advanceTimersByTimeAsync(5);
    expect(send).not.toHaveBeenCalled();
  });
});
