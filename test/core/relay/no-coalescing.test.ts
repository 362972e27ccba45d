// Merging off: `coalesceWindowMs: 0`, and always on a Cloudflare Worker: before 2024-10-14 one request cannot be
// answered from another's upstream call, and at every date workerd cancels a request waiting for another's upstream
// call as hung (test/runtimes/workerd.test.ts and server-stories.ts show the bare 500 workerd answers then).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { crossRequestPromisesUnsupported, isCloudflareWorker } from '../../../core/server/runtime.js';
import type { RecordedRequest } from '../../helpers/fake-fetch.js';
import { read, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const post = (userId: string, count = 2) => relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions(userId, count) }, userId);
const sent = (calls: RecordedRequest[]) => calls.map((c) => (c.body as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId));

/**
 * workerd's `navigator.userAgent`, and its `Request` after `upper_case_all_http_methods` (2024-10-14: `patch` becomes
 * `PATCH`) or before it (workerd throws "Invalid HTTP method string: patch"; Node's Request keeps `patch`).
 */
function pretendWorker(dated: 'before' | 'before, throwing' | 'before 2022-03-21, no navigator' | 'after') {
  // workerd has WebSocketPair at every date; its `navigator` global only from 2022-03-21 (`global_navigator`).
  vi.stubGlobal('WebSocketPair', function WebSocketPair() {});
  vi.stubGlobal('navigator', dated === 'before 2022-03-21, no navigator' ? undefined : { userAgent: 'Cloudflare-Workers' });
  if (dated === 'before') return;
  const Native = Request;
  vi.stubGlobal('Request', class extends Native {
    constructor(input: RequestInfo | URL, init?: RequestInit) {
      if (dated !== 'after' && init?.method === 'patch') throw new TypeError('Invalid HTTP method string: patch');
      super(input, init?.method ? { ...init, method: init.method.toUpperCase() } : init);
    }
  });
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('coalesceWindowMs: 0', () => {
  it('sends each batch upstream on its own, at once (fake time never moves), and answers each client', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0 });
    const answers = await Promise.all(['alice', 'bob', 'carol'].map((user) => relay.fetch(post(user))));
    expect(sent(bulkCalls())).toEqual([
      ['s-alice-0', 's-alice-1'],
      ['s-bob-0', 's-bob-1'],
      ['s-carol-0', 's-carol-1'],
    ]);
    const bodies = await Promise.all(answers.map(async (answer) => (await read(answer)).body.data.results.map((r: { sessionId: string }) => r.sessionId)));
    expect(bodies).toEqual([
      ['s-alice-0', 's-alice-1'],
      ['s-bob-0', 's-bob-1'],
      ['s-carol-0', 's-carol-1'],
    ]);
  });

  it('still splits a batch too large for one upstream call', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0, maxBodyBytes: 4 << 20 });
    const big = sessions('alice', 1000).map((s) => ({ ...s, metadata: { pad: 'x'.repeat(1500) } }));
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: big }, 'alice')));
    expect(answer.status).toBe(200);
    expect(bulkCalls().length).toBeGreaterThan(1);
    expect(sent(bulkCalls()).flat()).toEqual(big.map((s) => s.sessionId));
  });
});

describe('on a Cloudflare Worker', () => {
  it.each(['before', 'before, throwing', 'before 2022-03-21, no navigator'] as const)('dated before 2024-10-14 (Request %s): detected, and the relay never merges, whatever the window', async (dated) => {
    pretendWorker(dated);
    expect(crossRequestPromisesUnsupported()).toBe(true);
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    await Promise.all(['alice', 'bob'].map((user) => relay.fetch(post(user))));
    expect(sent(bulkCalls())).toEqual([
      ['s-alice-0', 's-alice-1'],
      ['s-bob-0', 's-bob-1'],
    ]);
  });

  // On d65db0b a Worker dated 2024-10-14 or later merged, and workerd answered the players waiting for another
  // player's upstream call with a bare 500 ("your Worker's code had hung"): server-stories.ts, one player's devices.
  it('dated 2024-10-14 or later: never merges either, whatever the window (a waiting request is cancelled as hung)', async () => {
    pretendWorker('after');
    expect(crossRequestPromisesUnsupported()).toBe(false);
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 50 });
    await Promise.all(['alice', 'bob'].map((user) => relay.fetch(post(user))));
    expect(sent(bulkCalls())).toEqual([
      ['s-alice-0', 's-alice-1'],
      ['s-bob-0', 's-bob-1'],
    ]);
  });

  it('is not detected on Node, Bun or Deno (no Workers user agent)', () => {
    expect(crossRequestPromisesUnsupported()).toBe(false);
    expect(isCloudflareWorker()).toBe(false);
  });
});
