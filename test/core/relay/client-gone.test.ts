/**
 * A client that goes away (its `request.signal` aborts: the player's connection closed) before the relay calls the
 * service is not forwarded; the web view token's call, which only that client could use, is aborted in flight; a boost
 * change or a playtime batch already sent runs to its end (the service may apply it all the same; a copy sent again is
 * SKIPPED, a second boost change would read the cooldown's 400). Over node:http the socket's close reaches the relay
 * through `toNodeHandler` (@hono/node-server aborts `request.signal` when the response was not finished).
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { reply, type Reply } from '../../helpers/fake-fetch.js';
import { BULK_PATH, boostRecord, read, relayOverFakeService, relayRequest, serviceReply, sessions } from './fake-service.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const GONE = { status: 499, error: 'Error', code: 'BAD_REQUEST', message: 'The client closed the request before the relay forwarded it; nothing was sent to the service' };

/** A request to the relay whose client can go away (`gone()`). */
function leaving(method: string, route: string, body: unknown) {
  const controller = new AbortController();
  const base = relayRequest(method, route, body, 'alice');
  return { request: new Request(base, { signal: controller.signal }), gone: () => controller.abort(new Error('client closed the connection')) };
}

/** A reply held until `release` is called with the one to give. */
function held(): { reply: Reply; arrived: Promise<void>; release: (answer: Reply) => void } {
  let release!: (answer: Reply) => void;
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const answer = new Promise<Reply>((resolve) => (release = resolve));
  return {
    reply: () => {
      arrive();
      return answer;
    },
    arrived,
    release,
  };
}

describe('a client gone before or while the relay calls the service', () => {
  it('web view token: not requested for a client gone before the call', async () => {
    const { relay, fake } = relayOverFakeService();
    const { request, gone } = leaving('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE });
    gone();
    const answer = await read(await relay.fetch(request));
    expect(answer).toMatchObject({ status: 499, body: GONE });
    expect(fake.calls).toHaveLength(0);
  });

  it('web view token: its call is aborted when the client goes while it is made', async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.hang());
    const { request, gone } = leaving('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE });
    const answering = relay.fetch(request);
    await expect.poll(() => fake.calls.length).toBe(1);
    expect(fake.calls[0]!.signal?.aborted).toBe(false);
    gone();
    const answer = await read(await answering);
    expect(fake.calls[0]!.signal?.aborted).toBe(true);
    expect(answer).toMatchObject({ status: 499, body: GONE });
  });

  it('boost: a change already sent runs to its end; after its 404 the creation is not sent for a client gone meanwhile', async () => {
    const { relay, fake } = relayOverFakeService();
    const change = held();
    fake.push(change.reply);
    const first = leaving('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'creator-b' });
    const answering = relay.fetch(first.request);
    await change.arrived;
    first.gone();
    // Not aborted: the service may apply a change whose connection closed, and the relay's view must match.
    expect(fake.calls[0]!.signal?.aborted ?? false).toBe(false);
    change.release(reply.error(404, 'NOT_FOUND', 'no boost for this user'));
    expect(await read(await answering)).toMatchObject({ status: 499, body: GONE });
    expect(fake.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['PUT /v1/server/sponsors/user/alice']);

    const applied = held();
    fake.push(applied.reply);
    const second = leaving('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'creator-b' });
    const running = relay.fetch(second.request);
    await applied.arrived;
    second.gone();
    applied.release(reply.ok(boostRecord('alice', 'creator-b')));
    expect((await read(await running)).status).toBe(200);
  });

  it('playtime: a batch whose client went while the game checked it is neither forwarded nor counted by the cap', async () => {
    let decide!: () => void;
    let asked = 0;
    const { relay, bulkCalls } = relayOverFakeService({
      coalesceWindowMs: 0,
      dailyPlaytimeCap: { seconds: 100 },
      acceptSession: async () => {
        if (asked++ === 0) await new Promise<void>((resolve) => (decide = resolve));
        return true;
      },
    });
    const { request, gone } = leaving('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) });
    const answering = relay.fetch(request);
    await expect.poll(() => asked).toBe(1);
    gone();
    decide();
    expect(await read(await answering)).toMatchObject({ status: 499, body: GONE });
    expect(bulkCalls()).toHaveLength(0);
    // Sent again, its 60 s still fit the 100 s cap: nothing was taken for the copy no one heard about.
    const again = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice')));
    expect(again.body.data.results).toEqual([{ sessionId: 's-alice-0', status: 'SUCCESS' }]);
    expect(bulkCalls()).toHaveLength(1);
  });

  it('playtime: a batch already sent upstream is not aborted, and a copy sent again is SKIPPED', async () => {
    const service = relayOverFakeService({ coalesceWindowMs: 0 });
    const seen = new Set<string>();
    const upstream = held();
    service.fake.push(upstream.reply).otherwise(serviceReply(seen));
    const { request, gone } = leaving('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) });
    const answering = service.relay.fetch(request);
    await upstream.arrived;
    gone();
    expect(service.fake.calls[0]!.signal?.aborted ?? false).toBe(false);
    upstream.release(serviceReply(seen));
    expect((await read(await answering)).status).toBe(200);
    const again = await read(await service.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice')));
    expect(again.body.data.results).toEqual([{ sessionId: 's-alice-0', status: 'SKIPPED' }]);
  });
});

describe('over node:http (toNodeHandler)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });

  it("aborts the web view token's upstream call when the player's socket closes", async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.hang());
    server = createServer(toNodeHandler(relay));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const body = JSON.stringify({ codeChallenge: CHALLENGE });
    const client = httpRequest({
      host: '127.0.0.1',
      port,
      path: `/campaign${RELAY_ROUTES.webviewToken}`,
      method: 'POST',
      headers: { authorization: 'Bearer user:alice', 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    });
    client.on('error', () => undefined);
    client.end(body);
    await expect.poll(() => fake.calls.length).toBe(1);
    client.destroy();
    await expect.poll(() => fake.calls[0]!.signal?.aborted).toBe(true);
  });
});
