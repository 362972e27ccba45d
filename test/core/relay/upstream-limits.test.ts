/**
 * What the relay forwards stays within what the service takes: a client body near the relay's 1 MiB limit grows by
 * the player's `userId` (and its bound `callbackId`), and a long `userId` goes in `PUT /sponsor`'s upstream path.
 * Both are refused by the relay itself, with an answer the client does not retry, before the service is called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, relayCallbackId, RELAY_ROUTES } from '../../../core/relay/index.js';
import { relayCaller } from '../../../core/relay/client-request.js';
import { MAX_PATH_USER_CHARS } from '../../../core/relay/user-path.js';
import { SERVICE_MAX_BODY_BYTES } from '../../../core/schema/json-limits.js';
import { CampaignServer } from '../../../core/server/index.js';
import { DEMO_BOOSTED_CREATORS, startEmulator, type RunningEmulator } from '../../../emulator/index.js';
import { read, relayOverFakeService, relayRequest } from './fake-service.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).byteLength;

/** A web view request whose forwarded body (the client's with `userId: 'alice'`) is `limit + over` bytes. */
function webviewBody(over: number) {
  const forwarded = (pad: string) => ({ codeChallenge: CHALLENGE, metadata: { a: pad }, userId: 'alice' });
  const pad = 'x'.repeat(SERVICE_MAX_BODY_BYTES + over - bytes(forwarded('')));
  expect(bytes(forwarded(pad))).toBe(SERVICE_MAX_BODY_BYTES + over);
  return { codeChallenge: CHALLENGE, metadata: { a: pad } };
}

/** A boost change whose creation body (`userId`, `creatorKey`, the bound `callbackId`) is `limit + over` bytes. */
function sponsorBody(over: number) {
  const created = (pad: string) => ({ callbackId: relayCallbackId('alice', pad), userId: 'alice', creatorKey: 'ABCDE' });
  const pad = 'x'.repeat(SERVICE_MAX_BODY_BYTES + over - bytes(created('')));
  expect(bytes(created(pad))).toBe(SERVICE_MAX_BODY_BYTES + over);
  return { newCreatorKey: 'ABCDE', callbackId: pad };
}

const tooLarge = (size: number) => ({
  status: 413,
  error: 'Payload Too Large',
  code: 'BAD_REQUEST',
  message: `The body is ${size} bytes as forwarded with the player's id; the service takes at most ${SERVICE_MAX_BODY_BYTES} bytes`,
});

describe("a body within the relay's limit, over the service's once the relay adds the player", () => {
  it.each([
    ['POST', RELAY_ROUTES.webviewToken, webviewBody],
    ['PUT', RELAY_ROUTES.sponsor, sponsorBody],
  ] as const)('%s %s: 413 without calling the service one byte over; forwarded at the limit', async (method, route, body) => {
    const { relay, fake } = relayOverFakeService();
    const over = await read(await relay.fetch(relayRequest(method, route, body(1), 'alice')));
    expect(over.status).toBe(413);
    expect(over.body).toEqual(tooLarge(SERVICE_MAX_BODY_BYTES + 1));
    expect(fake.calls).toEqual([]);
    const at = await relay.fetch(relayRequest(method, route, body(0), 'alice'));
    expect(at.status).toBe(200);
    expect(fake.calls.length).toBe(1);
  });

  it("is a game client's final error: one request, a 413 it does not retry", async () => {
    const { relay } = relayOverFakeService();
    let requests = 0;
    const fetch = (input: RequestInfo | URL, init?: RequestInit) => (requests++, relay.fetch(new Request(input, init)));
    const call = relayCaller({ relay: { url: 'https://game.example/campaign', headers: { authorization: 'Bearer user:alice' } }, fetch, maxRetries: 3 });
    const refused = call({ method: 'PUT', path: RELAY_ROUTES.sponsor, body: sponsorBody(1), answer: 'BoostRecord' });
    await expect(refused).rejects.toMatchObject({ status: 413, code: 'BAD_REQUEST', message: tooLarge(SERVICE_MAX_BODY_BYTES + 1).message });
    expect(requests).toBe(1);
  });
});

describe('the relay in front of the emulator over HTTP', () => {
  let emulator: RunningEmulator;
  let relay: ReturnType<typeof createRelay>;
  const users: Record<string, string> = { euro: '€'.repeat(5000), longest: 'u'.repeat(MAX_PATH_USER_CHARS), over: 'u'.repeat(MAX_PATH_USER_CHARS + 1) };
  const creatorKey = Object.values(DEMO_BOOSTED_CREATORS)[0] as string;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url }, maxRetries: 0 });
    // The game's authenticate names the player by a short token: the long ids are its own data.
    relay = createRelay({ server, authenticate: (request) => ({ userId: users[request.headers.get('authorization')?.replace('Bearer user:', '') ?? ''] ?? 'alice' }) });
  });
  afterAll(() => emulator.close());

  it.each([
    ['euro', '€'.repeat(5000), 45_000],
    ['over', 'u'.repeat(MAX_PATH_USER_CHARS + 1), MAX_PATH_USER_CHARS + 1],
  ])("PUT /sponsor for a userId (%s) too long for a path: 500 naming authenticate, not a 503 the client retries", async (token, _userId, length) => {
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: creatorKey, isTest: true }, token)));
    expect(answer.status).toBe(500);
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(answer.body).toEqual({
      status: 500,
      error: 'Internal Server Error',
      code: 'INTERNAL_ERROR',
      message: `The game's authenticate returned a userId the service's path cannot carry (it is ${length} characters percent-encoded, over ${MAX_PATH_USER_CHARS}): this route cannot serve the player`,
    });
  });

  it('PUT /sponsor serves the longest userId a path takes; the web view route serves a longer one in its body', async () => {
    const boosted = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: creatorKey, isTest: true }, 'longest')));
    expect([boosted.status, boosted.body.data?.userId]).toEqual([200, users['longest']]);
    const ott = await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'euro'));
    expect(ott.status).toBe(200);
  });

  it("POST /webview/ott with a callbackId that the binding takes over the service's limit: 413, not the 503 of a refused upload", async () => {
    const body = { codeChallenge: CHALLENGE, callbackId: 'x'.repeat(SERVICE_MAX_BODY_BYTES - 90) };
    const forwarded = { ...body, callbackId: relayCallbackId('alice', body.callbackId), userId: 'alice' };
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, body, 'alice')));
    expect(answer.body).toEqual(tooLarge(bytes(forwarded)));
  });
});
