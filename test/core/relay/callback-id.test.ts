import { describe, expect, it } from 'vitest';
import { relayCallbackId, RELAY_ROUTES } from '../../../core/relay/index.js';
import { reply } from '../../helpers/fake-fetch.js';
import { boostRecord, read, relayOverFakeService, relayRequest } from './fake-service.js';

const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
/** The JSON body of a recorded upstream call. */
const bodyOf = (call: { body: unknown }) => call.body as Record<string, unknown>;

// Webhook events carry the request's callbackId (spec "Callback tracking") and a game server waits for them by it: a
// player must not be able to cause an event whose callbackId the game server or another player's request uses.
describe("a client's callbackId is bound to the authenticated player", () => {
  it.each([
    ['PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }],
    ['POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }],
  ] as const)('%s %s forwards relay:<length>:<userId>:<callbackId>, never the id the client chose', async (method, route, body) => {
    const { relay, fake } = relayOverFakeService();
    const answer = await relay.fetch(relayRequest(method, route, { ...body, callbackId: 'order-42' }, 'alice'));
    expect(answer.status).toBe(200);
    expect(bodyOf(fake.last())).toMatchObject({ callbackId: 'relay:5:alice:order-42' });
    expect(bodyOf(fake.last()).callbackId).toBe(relayCallbackId('alice', 'order-42'));
  });

  it('forwards no callbackId when the client sent none', async () => {
    const { relay, fake } = relayOverFakeService();
    await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'alice'));
    await relay.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, { codeChallenge: CHALLENGE }, 'alice'));
    expect(fake.calls.map((c) => 'callbackId' in bodyOf(c))).toEqual([false, false]);
  });

  it("a player cannot produce another player's id, whatever either id holds", async () => {
    // Player `a` choosing `b:c` and player `a:b` choosing `c` read the same without the length.
    const { relay, fake } = relayOverFakeService();
    await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE', callbackId: 'b:c' }, 'a'));
    expect(bodyOf(fake.last()).callbackId).toBe('relay:1:a:b:c');
    expect(bodyOf(fake.last()).callbackId).not.toBe(relayCallbackId('a:b', 'c'));
    // A client sending an id already in the relay's form gets it bound once more, to itself.
    await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE', callbackId: relayCallbackId('bob', 'x') }, 'alice'));
    expect(bodyOf(fake.last()).callbackId).toBe('relay:5:alice:relay:3:bob:x');
  });

  it("a player's first boost (the change's 404, then a creation) carries the bound id too", async () => {
    const { relay, fake } = relayOverFakeService();
    fake.push(reply.error(404, 'NOT_FOUND', 'User alice has no boost'), reply.ok(boostRecord('alice', 'ABCDE')));
    const answer = await read(await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE', callbackId: 'boost-1' }, 'alice')));
    expect(answer.status).toBe(200);
    expect(fake.calls.map((c) => [c.method, bodyOf(c).callbackId])).toEqual([
      ['PUT', 'relay:5:alice:boost-1'],
      ['POST', 'relay:5:alice:boost-1'],
    ]);
  });
});
