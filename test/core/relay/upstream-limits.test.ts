/**
 * What the relay forwards stays within what the service takes: a client body near the relay's 1 MiB limit grows by
 * the player's `userId` (and its bound `callbackId`).
 * It is refused by the relay itself, with an answer the client does not retry, before the service is called.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelay, relayCallbackId, RELAY_ROUTES } from '../../../core/relay/index.js';
import { relayCaller } from '../../../core/relay/client-request.js';
import { SERVICE_MAX_BODY_BYTES } from '../../../core/schema/json-limits.js';
import { CampaignServer } from '../../../core/server/index.js';
import { startEmulator, type RunningEmulator } from '../../../emulator/index.js';
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

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    const server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url }, maxRetries: 0 });
    relay = createRelay({ server, authenticate: () => ({ userId: 'alice' }) });
  });
  afterAll(() => emulator.close());

  it("POST /webview/ott with a callbackId that the binding takes over the service's limit: 413, not the 503 of a refused upload", async () => {
    const body = { codeChallenge: CHALLENGE, callbackId: 'x'.repeat(SERVICE_MAX_BODY_BYTES - 90) };
    const forwarded = { ...body, callbackId: relayCallbackId('alice', body.callbackId), userId: 'alice' };
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, body, 'alice')));
    expect(answer.body).toEqual(tooLarge(bytes(forwarded)));
  });
});
