/**
 * Failed authentications limited per client address: after the limit, an address is answered 429 without
 * `authenticate` being called; another address is unaffected; successes do not count. The address comes from
 * `clientAddress` (behind a proxy) or, by default, from the socket `toNodeHandler` read.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { DEFAULT_FAILED_AUTH_LIMIT, RELAY_ROUTES } from '../../../core/relay/index.js';
import { limitKeyOfAddress } from '../../../core/relay/client-address.js';
import { authenticateByHeader, read, RELAY, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

/** A request from `address` (as a trusted proxy would forward it), with a valid or a guessed token. */
const from = (address: string, userId: string | undefined, n = 0) =>
  relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions(userId ?? 'alice', 1, n) }, undefined, {
    'x-client-address': address,
    authorization: userId === undefined ? `Bearer guess-${n}` : `Bearer user:${userId}`,
  });

/** A relay over the fake service that reads each client's address from `x-client-address`, as a trusted proxy sets it. */
const relayByAddress = (options: Parameters<typeof relayOverFakeService>[0]) =>
  relayOverFakeService({ coalesceWindowMs: 0, clientAddress: (request) => request.headers.get('x-client-address') ?? undefined, ...options });

afterEach(() => {
  vi.useRealTimers();
});

describe('failed authentications per client address', () => {
  it("does not count a userId that is not a string as the address's failure: the game's bug, answered 500", async () => {
    const { relay } = relayByAddress({
      authenticate: () => ({ userId: 42 as unknown as string }),
      failedAuthLimit: new RateLimiterMemory({ points: 2, duration: 60 }),
    });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await relay.fetch(from('203.0.113.7', 'alice', i))).status);
    expect(statuses).toEqual([500, 500, 500, 500]);
  });

  it('answers 429 after the limit without calling authenticate, leaves another address alone, and lets the address in again after the window', async () => {
    vi.useFakeTimers();
    const authenticate = vi.fn(authenticateByHeader);
    const { relay, bulkCalls } = relayByAddress({
      authenticate,
      failedAuthLimit: new RateLimiterMemory({ points: 3, duration: 60 }),
    });
    /** Fetches with fake timers running (the coalescing window is a timer, even at 0 ms). */
    const go = async (request: Request) => {
      const answer = relay.fetch(request);
      await vi.advanceTimersByTimeAsync(0);
      return answer;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await go(from('203.0.113.7', undefined, i))).status);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(authenticate).toHaveBeenCalledTimes(3);

    const blocked = await read(await go(from('203.0.113.7', 'alice')));
    expect(blocked.status).toBe(429); // even a valid token, from that address, until the window ends
    expect(blocked.body).toEqual({ status: 429, error: 'Too Many Requests', code: 'RATE_LIMITED', message: 'Too many failed authentications from this address' });
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThanOrEqual(59);
    expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(authenticate).toHaveBeenCalledTimes(3);

    expect((await go(from('198.51.100.2', 'bob'))).status).toBe(200);
    expect((await go(from('198.51.100.2', undefined))).status).toBe(401);

    await vi.advanceTimersByTimeAsync(60_000);
    expect((await go(from('203.0.113.7', 'alice', 1))).status).toBe(200);
    expect(bulkCalls()).toHaveLength(2);
  });

  it('does not count successes: many valid requests from one address are never limited', async () => {
    const { relay } = relayByAddress({
      failedAuthLimit: new RateLimiterMemory({ points: 2, duration: 60 }),
    });
    expect((await relay.fetch(from('203.0.113.9', undefined))).status).toBe(401);
    for (let i = 0; i < 5; i++) expect((await relay.fetch(from('203.0.113.9', 'alice', i))).status).toBe(200);
    expect((await relay.fetch(from('203.0.113.9', undefined, 1))).status).toBe(401); // the second failure is still allowed
    expect((await relay.fetch(from('203.0.113.9', undefined, 2))).status).toBe(429);
  });

  it('does not count successes at once either: valid requests from one address all get in, however many run together', async () => {
    // Players behind one address (a carrier's NAT, a school) whose logins are checked at the same time: on b3f633f
    // each held a point of the failure budget while `authenticate` ran, and those past it were answered 429 for a minute.
    const pending: Array<() => void> = [];
    const authenticate = vi.fn(async (request: Request) => {
      await new Promise<void>((resolve) => pending.push(resolve));
      return authenticateByHeader(request);
    });
    const { relay } = relayByAddress({
      authenticate,
      failedAuthLimit: new RateLimiterMemory({ points: 3, duration: 60 }),
      clientAddress: () => '203.0.113.11',
    });
    const answers = Array.from({ length: 12 }, (_, i) => relay.fetch(from('ignored', `player-${i}`)));
    // Whatever is in flight, released one step at a time until every request has been answered.
    const settled = Promise.all(answers);
    let done = false;
    void settled.then(() => (done = true));
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      pending.splice(0).forEach((release) => release());
    }
    expect((await settled).map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(authenticate).toHaveBeenCalledTimes(12);
    // The budget is untouched: three failures are still allowed, the fourth is not.
    const guesses: number[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = relay.fetch(from('ignored', undefined, i));
      await new Promise((resolve) => setImmediate(resolve));
      pending.splice(0).forEach((release) => release());
      guesses.push((await answer).status);
    }
    expect(guesses).toEqual([401, 401, 401, 429]);
  });

  it('on a Cloudflare Worker, where a request cannot wait for another, answers one past the turns 429 with Retry-After: 1', async () => {
    // workerd's globals (see no-coalescing.test.ts): WebSocketPair at every date.
    vi.stubGlobal('WebSocketPair', function WebSocketPair() {});
    vi.stubGlobal('navigator', { userAgent: 'Cloudflare-Workers' });
    try {
      const pending: Array<() => void> = [];
      const authenticate = vi.fn(async (request: Request) => {
        await new Promise<void>((resolve) => pending.push(resolve));
        return authenticateByHeader(request);
      });
      const { relay } = relayOverFakeService({ coalesceWindowMs: 0, authenticate, failedAuthLimit: new RateLimiterMemory({ points: 2, duration: 60 }), clientAddress: () => '203.0.113.13' });
      const running = [relay.fetch(from('ignored', 'alice')), relay.fetch(from('ignored', 'bob'))];
      const third = await read(await relay.fetch(from('ignored', 'carol')));
      expect([third.status, third.body.code, third.headers.get('retry-after')]).toEqual([429, 'RATE_LIMITED', '1']);
      pending.splice(0).forEach((release) => release());
      expect((await Promise.all(running)).map((r) => r.status)).toEqual([200, 200]);
      const again = relay.fetch(from('ignored', 'carol', 1));
      await new Promise((resolve) => setImmediate(resolve));
      pending.splice(0).forEach((release) => release());
      expect((await again).status).toBe(200);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('frees the turns of an address whose authenticate calls stalled, uncounted, so a player behind it gets in after the time-out', async () => {
    vi.useFakeTimers();
    const stalled = new Set(['Bearer user:stuck']);
    const authenticate = vi.fn((request: Request) => (stalled.has(request.headers.get('authorization') ?? '') ? new Promise<null>(() => undefined) : authenticateByHeader(request)));
    const limiter = new RateLimiterMemory({ points: 2, duration: 60 });
    const { relay } = relayOverFakeService({ coalesceWindowMs: 0, authenticate, failedAuthLimit: limiter, authenticateTimeoutMs: 5_000, clientAddress: () => '203.0.113.14' });
    const stuck = [relay.fetch(from('ignored', 'stuck')), relay.fetch(from('ignored', 'stuck', 1))];
    let answered = false;
    const alice = relay.fetch(from('ignored', 'alice')).then((r) => ((answered = true), r));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(answered).toBe(false); // both of the address's turns are taken by the stalled look-ups
    await vi.advanceTimersByTimeAsync(1);
    expect((await Promise.all(stuck)).map((r) => r.status)).toEqual([503, 503]);
    expect((await alice).status).toBe(200);
    expect(await limiter.get('203.0.113.14')).toBeNull(); // a stall is not the client's failure
  });

  it('answers 503 with Retry-After, without calling authenticate, when the store of failures cannot be reached', async () => {
    const authenticate = vi.fn(authenticateByHeader);
    const limiter = new RateLimiterMemory({ points: 3, duration: 60 });
    vi.spyOn(limiter, 'get').mockRejectedValue(new Error('store down'));
    const { relay } = relayOverFakeService({ coalesceWindowMs: 0, authenticate, failedAuthLimit: limiter, clientAddress: () => '203.0.113.12' });
    const answer = await read(await relay.fetch(from('ignored', 'alice')));
    expect([answer.status, answer.body.code, Number(answer.headers.get('retry-after')) >= 1]).toEqual([503, 'INTERNAL_ERROR', true]);
    expect(authenticate).not.toHaveBeenCalled();
  });

  it('holds a burst of concurrent guesses to the limit', async () => {
    const authenticate = vi.fn(authenticateByHeader);
    const { relay } = relayOverFakeService({
      coalesceWindowMs: 0,
      authenticate,
      failedAuthLimit: new RateLimiterMemory({ points: 5, duration: 60 }),
      clientAddress: () => '203.0.113.10',
    });
    const statuses = (await Promise.all(Array.from({ length: 50 }, (_, i) => relay.fetch(from('ignored', undefined, i))))).map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(5);
    expect(statuses.filter((s) => s === 429)).toHaveLength(45);
    expect(authenticate).toHaveBeenCalledTimes(5);
  });

  it('is off by default, and does not limit a request with no known address', async () => {
    const off = relayOverFakeService({ coalesceWindowMs: 0 });
    for (let i = 0; i < 30; i++) expect((await off.relay.fetch(from('203.0.113.7', undefined, i))).status).toBe(401);
    const noAddress = relayOverFakeService({ coalesceWindowMs: 0, failedAuthLimit: new RateLimiterMemory({ points: 1, duration: 60 }) });
    for (let i = 0; i < 5; i++) expect((await noAddress.relay.fetch(from('203.0.113.7', undefined, i))).status).toBe(401); // a bare Request has no peer
  });

  it("does not let another site's page lock a player out: requests a browser sends cross-origin without a preflight are refused before authenticate", async () => {
    // Before, a page on any site could make its visitor's browser POST a form (or a no-cors fetch, which drops
    // content-type: application/json) to the relay: each was a failed login of the player's address, and 10 of them
    // answered the player's own valid requests 429 for a minute, again every minute the page stayed open.
    const authenticate = vi.fn(authenticateByHeader);
    const { relay } = relayOverFakeService({
      coalesceWindowMs: 0,
      authenticate,
      failedAuthLimit: true,
    });
    const simple = (route: string, method: string, contentType: string | undefined, n: number) =>
      new Request(`${RELAY}${route}`, {
        method,
        headers: { 'x-client-address': '198.51.100.23', ...(contentType === undefined ? {} : { 'content-type': contentType }) },
        body: JSON.stringify({ sessions: sessions('alice', 1, n) }),
      });
    const kinds = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', undefined];
    const answers: Array<[number, string]> = [];
    for (let i = 0; i < 12; i++) {
      const [route, method] = i % 3 === 0 ? [RELAY_ROUTES.sponsor, 'PUT'] : i % 3 === 1 ? [RELAY_ROUTES.webviewToken, 'POST'] : [RELAY_ROUTES.playtime, 'POST'];
      const answer = await read(await relay.fetch(simple(route, method, kinds[i % kinds.length], i)));
      answers.push([answer.status, answer.body.code]);
    }
    expect(answers).toEqual(Array(12).fill([400, 'BAD_REQUEST']));
    expect(authenticate).not.toHaveBeenCalled();
    expect((await relay.fetch(from('198.51.100.23', 'alice'))).status).toBe(200);
  });

  it('counts an IPv6 client by its /64: a guesser rotating through its own network is held to the limit', async () => {
    // Before, each address had its own 10 failures: 30 guesses from 30 addresses of one /64 all reached authenticate.
    const authenticate = vi.fn(authenticateByHeader);
    const { relay } = relayByAddress({
      authenticate,
      failedAuthLimit: true,
    });
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await relay.fetch(from(`2001:db8:7:42:${((i * 7919) & 0xffff).toString(16)}::${i + 1}`, undefined, i))).status);
    expect(statuses).toEqual([...Array<number>(10).fill(401), ...Array<number>(20).fill(429)]);
    expect(authenticate).toHaveBeenCalledTimes(10);
    // Another /64 (the next subscriber) is not affected; the same /64 written another way is the same network.
    expect((await relay.fetch(from('2001:db8:7:43::1', 'alice'))).status).toBe(200);
    expect((await relay.fetch(from('[2001:0DB8:0007:0042:0:0:0:abcd]', 'alice'))).status).toBe(429);
  });

  it('counts an IPv4 peer reported IPv4-mapped (a dual-stack server) and as IPv4 once', async () => {
    const { relay } = relayByAddress({
      failedAuthLimit: new RateLimiterMemory({ points: 2, duration: 60 }),
    });
    const statuses: number[] = [];
    for (const [i, address] of ['::ffff:203.0.113.9', '203.0.113.9', '::FFFF:cb00:7109'].entries()) statuses.push((await relay.fetch(from(address, undefined, i))).status);
    expect(statuses).toEqual([401, 401, 429]);
  });

  it('counts one IPv4 client once on node:http whether a dual-stack socket reports it mapped (::ffff:127.0.0.1) or plain', async (context) => {
    // Two servers over one relay, as one process listening on :: and on 127.0.0.1 would be: node reports the same
    // client as ::ffff:127.0.0.1 on the first and 127.0.0.1 on the second; before, each had its own count.
    const { relay } = relayOverFakeService({ coalesceWindowMs: 0, failedAuthLimit: new RateLimiterMemory({ points: 2, duration: 60 }) });
    const servers: Server[] = [createServer(toNodeHandler(relay)), createServer(toNodeHandler(relay))];
    // A host without IPv6 (some containers) cannot listen on ::; there is nothing to test there.
    const dualStack = await new Promise<boolean>((resolve) => servers[0]!.once('error', () => resolve(false)).listen(0, '::', () => resolve(true)));
    if (!dualStack) return context.skip();
    await new Promise<void>((resolve) => servers[1]!.listen(0, '127.0.0.1', resolve));
    const send = (server: Server, n: number) =>
      fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/campaign${RELAY_ROUTES.playtime}`, {
        method: 'POST',
        headers: { authorization: `Bearer guess-${n}`, 'content-type': 'application/json' },
        body: JSON.stringify({ sessions: sessions('alice', 1, n) }),
      }).then((answer) => answer.status);
    try {
      expect([await send(servers[0]!, 0), await send(servers[1]!, 1), await send(servers[0]!, 2), await send(servers[1]!, 3)]).toEqual([401, 401, 429, 429]);
    } finally {
      await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
    }
  });

  it.each([
    ['2001:db8:7:42:1:2:3:4', '2001:db8:7:42::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:198.51.100.7', '198.51.100.7'],
    ['198.51.100.7', '198.51.100.7'],
    ['player-key:7', 'player-key:7'],
    ['1::2::3', '1::2::3'],
    ['::ffff:300.1.1.1', '::ffff:300.1.1.1'],
    // With the port a proxy wrote (Azure Application Gateway's X-Forwarded-For, RFC 7239's Forwarded): the address alone.
    ['203.0.113.9:41234', '203.0.113.9'],
    [' 203.0.113.9 ', '203.0.113.9'],
    ['[2001:db8:7:42::1]:41234', '2001:db8:7:42::/64'],
    ['[::ffff:198.51.100.7]:443', '198.51.100.7'],
    ['2001:db8::4:443', '2001:db8:0:0::/64'],
  ])('keys %s as %s', (address, key) => {
    expect(limitKeyOfAddress(address)).toBe(key);
  });

  it('keys on the socket address toNodeHandler supplies (failedAuthLimit: true: 10 failures a minute)', async () => {
    const authenticate = vi.fn(authenticateByHeader);
    const { relay } = relayOverFakeService({ coalesceWindowMs: 0, authenticate, failedAuthLimit: true });
    const server: Server = createServer(toNodeHandler(relay));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/campaign${RELAY_ROUTES.playtime}`;
    const send = (authorization: string, spoofed = '198.51.100.99') =>
      fetch(url, { method: 'POST', headers: { authorization, 'content-type': 'application/json', 'x-forwarded-for': spoofed }, body: JSON.stringify({ sessions: sessions('alice', 1) }) });
    try {
      const statuses: number[] = [];
      for (let i = 0; i <= DEFAULT_FAILED_AUTH_LIMIT.points; i++) statuses.push((await send(`Bearer guess-${i}`, `198.51.100.${i}`)).status);
      expect(statuses).toEqual([...Array(DEFAULT_FAILED_AUTH_LIMIT.points).fill(401), 429]);
      expect(authenticate).toHaveBeenCalledTimes(DEFAULT_FAILED_AUTH_LIMIT.points);
      expect((await send('Bearer user:alice')).status).toBe(429); // a forwarded-for header does not change the socket
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
