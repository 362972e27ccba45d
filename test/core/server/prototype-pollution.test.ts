/**
 * A game server whose process holds a polluted `Object.prototype` (a deep merge of untrusted JSON elsewhere leaves
 * `Object.prototype.isTest = true`): zod builds its output by reading each field of the schema off the input
 * (zod/v4/core/schemas.ts `$ZodObject` reads `input[key]` and tests `key in input`), so a field the game left out was
 * read through the prototype and sent. The request must carry the game's own fields only.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRelay, RELAY_ROUTES } from '../../../core/relay/index.js';
import { verifyWebhook } from '../../../core/webhooks/index.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { read, relayOverFakeService, relayRequest, session } from '../relay/fake-service.js';
import { paymentItem, playtimeSession, sessionRequest } from '../schema/samples.js';

const POLLUTED = { isTest: true, callbackId: 'polluted', platform: 'Other', metadata: { from: 'prototype' }, limit: 5 };
const prototype = Object.prototype as Record<string, unknown>;

function pollute(): void {
  Object.assign(prototype, POLLUTED);
}

afterEach(() => {
  for (const key of Object.keys(POLLUTED)) delete prototype[key];
});

describe('CampaignServer under a polluted Object.prototype', () => {
  it('sends only the fields the game gave (playtime.record)', async () => {
    const fake = createFakeFetch(reply.created(playtimeSession));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch });
    pollute();
    await server.playtime.record({ ...sessionRequest });
    expect(JSON.parse(fake.last().rawBody!)).toEqual(JSON.parse(JSON.stringify(sessionRequest)));
  });

  it('sends only the fields the game gave, and its own generated callbackId (payments.registerBulk)', async () => {
    const fake = createFakeFetch(reply.created({ totalRequested: 1, successful: 1, failed: 0, skipped: 0, results: [] }));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch });
    pollute();
    await server.payments.registerBulk({ payments: [{ ...paymentItem }] });
    const sent = JSON.parse(fake.last().rawBody!) as Record<string, unknown>;
    expect(Object.keys(sent).sort()).toEqual(['callbackId', 'payments']);
    expect(sent['callbackId']).toMatch(/^gcsdk-bulk-[0-9a-f]{32}$/);
    expect(sent['payments']).toEqual([paymentItem]);
  });

  it('asks for a page with only its own query (campaigns.list)', async () => {
    const fake = createFakeFetch(reply.json(200, { data: [], pagination: { page: 1, limit: 20, total: 0, totalPages: 0 } }));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch });
    pollute();
    await server.campaigns.list({ page: 1 });
    expect(fake.last().query).toEqual({ page: '1' });
  });

  it('webhooks.delete(id, options) stays a delete with options, without a body', async () => {
    const fake = createFakeFetch(new Response(null, { status: 204 }));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch });
    pollute();
    await server.webhooks.delete(5, { signal: new AbortController().signal });
    expect([fake.last().method, fake.last().path, fake.last().rawBody]).toEqual(['DELETE', '/v1/server/webhooks/5', undefined]);
  });

  it('a relay forwards a client batch with only its own fields', async () => {
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    pollute();
    const body = { sessions: [session('alice', 0)] };
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice')));
    expect(answer.status).toBe(200);
    const sent = JSON.parse(fake.calls[0]!.rawBody!) as { sessions: unknown[]; isTest?: unknown };
    expect(sent.sessions).toEqual(body.sessions);
    expect(Object.keys(sent)).not.toContain('isTest');
  });
});

describe('CampaignServer options under a polluted Object.prototype', () => {
  const KEYS = ['headers', 'maxRetries'];
  afterEach(() => {
    for (const key of KEYS) delete prototype[key];
  });

  it('sends no inherited header and keeps its own retry count', async () => {
    const fake = createFakeFetch(reply.json(503, { code: 'INTERNAL_ERROR' }), reply.created(playtimeSession));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch, random: () => 0 } as never);
    prototype['headers'] = { 'x-polluted': '1' };
    prototype['maxRetries'] = 0;
    await server.playtime.record({ ...sessionRequest }, {});
    expect(fake.calls).toHaveLength(2);
    expect(fake.last().headers['x-polluted']).toBeUndefined();
  });
});

describe('the relay under a polluted Object.prototype', () => {
  it('forwards a boost change without a callbackId the client did not send', async () => {
    const { relay, fake } = relayOverFakeService();
    pollute();
    await relay.fetch(relayRequest('PUT', RELAY_ROUTES.sponsor, { newCreatorKey: 'ABCDE' }, 'alice'));
    expect(fake.calls.map((c) => [c.method, c.path, c.body])).toEqual([['PUT', '/v1/server/sponsors/user/alice', { newCreatorKey: 'ABCDE' }]]);
  });
});

describe('the misnamed-option checks under a polluted Object.prototype', () => {
  // A JSON merge payload such as {"__proto__":{"timeout":5000}} left every options object with an inherited `timeout`:
  // the game server could not start, though no option of its own was misnamed.
  const NAMES = ['timeout', 'timeoutMs', 'bodyTimeout', 'tolerance', 'toleranceMs'];
  afterEach(() => {
    for (const key of NAMES) delete prototype[key];
  });

  it('new CampaignServer, createRelay, a call and verifyWebhook read only their own fields', async () => {
    for (const key of NAMES) prototype[key] = 5000;
    const fake = createFakeFetch(reply.created(playtimeSession));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch });
    expect(() => createRelay({ server, authenticate: () => null })).not.toThrow();
    await server.playtime.record({ ...sessionRequest }, { maxRetries: 0 });
    const refused = await verifyWebhook({ payload: '{}', headers: {}, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }).catch((error: unknown) => error);
    expect(refused).not.toBeInstanceOf(TypeError);
    // A name given as the caller's own field is still refused.
    delete prototype['timeout'];
    expect(() => new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', timeout: 1 } as never)).toThrow(TypeError);
  });
});

describe('where CampaignServer sends its Server key under a polluted Object.prototype', () => {
  // `apiEndpoint` (shared with game clients) read `options.baseUrl ?? options.environment` through the prototype: with
  // `Object.prototype.baseUrl = 'https://evil.example'` (a JSON merge of {"__proto__":{"baseUrl":...}}) every request,
  // and so the Server key in its Authorization header, went to that host.
  const KEYS = ['baseUrl', 'environment', 'timeoutMs', 'maxResponseBytes', 'dangerouslyAllowBrowser'];
  afterEach(() => {
    for (const key of KEYS) delete prototype[key];
  });

  async function hostOf(options: Record<string, unknown>): Promise<string> {
    const fake = createFakeFetch(reply.created(playtimeSession));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch, ...options } as never);
    await server.playtime.record({ ...sessionRequest });
    expect(fake.last().headers['authorization']).toBe('Bearer sk_test_1:s3cr3t');
    return new URL(fake.last().url).origin;
  }

  it('a polluted top-level baseUrl: the key goes to the sandbox, or to the environment the game named', async () => {
    prototype['baseUrl'] = 'https://evil.example';
    expect(await hostOf({})).toBe('https://sandbox-api.game-campaign.com');
    expect(await hostOf({ environment: 'live' })).toBe('https://api.game-campaign.com');
    expect(await hostOf({ environment: { baseUrl: 'http://127.0.0.1:8787' } })).toBe('http://127.0.0.1:8787');
    // An object (what a merge of {"__proto__":{"baseUrl":{"baseUrl":...}}} leaves) was read as an environment.
    prototype['baseUrl'] = { baseUrl: 'https://evil.example' };
    expect(await hostOf({})).toBe('https://sandbox-api.game-campaign.com');
  });

  it('a polluted environment (a base address, or live): the key goes to the sandbox, the default', async () => {
    prototype['environment'] = { baseUrl: 'https://evil.example' };
    expect(await hostOf({})).toBe('https://sandbox-api.game-campaign.com');
    expect(await hostOf({ environment: undefined })).toBe('https://sandbox-api.game-campaign.com');
    prototype['environment'] = 'live';
    expect(await hostOf({})).toBe('https://sandbox-api.game-campaign.com');
  });

  it('an environment object without its own baseUrl is refused, not filled from the prototype', () => {
    prototype['baseUrl'] = 'https://evil.example';
    expect(() => new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', environment: {} } as never)).toThrow('Unknown environment {}');
  });

  it('polluted option values do not stop the game server from starting', async () => {
    prototype['timeoutMs'] = 'soon';
    prototype['maxResponseBytes'] = 'lots';
    prototype['dangerouslyAllowBrowser'] = true;
    expect(await hostOf({})).toBe('https://sandbox-api.game-campaign.com');
  });
});

describe('the game-client check under a polluted Object.prototype', () => {
  // globalThis inherits from Object.prototype on every server runtime: `{"__proto__":{"cc":{}}}` merged by another
  // package made `globalThis.cc` an object, and new CampaignServer refused to start ("Cocos detected"); likewise
  // `window` with `document` (a browser) and `navigator`/`product` (React Native; Node 21+ has a navigator of its own).
  const KEYS = ['cc', 'window', 'document', 'navigator', 'product', 'importScripts'];
  afterEach(() => {
    for (const key of KEYS) delete prototype[key];
    vi.unstubAllGlobals();
  });

  it.each([
    ['cc', { cc: { sys: {} } }],
    ['window and document', { window: {}, document: {} }],
    ['navigator', { navigator: { product: 'ReactNative' } }],
    ['product, under the navigator of Node 21+', { product: 'ReactNative' }],
  ])('a polluted %s: the game server starts and sends', async (name, polluted) => {
    // Node 21+ gives globalThis a navigator of its own (class Navigator: userAgent, no product), node 20 none.
    if (name.includes('Node 21')) vi.stubGlobal('navigator', Object.create(Object.create(Object.prototype, { userAgent: { get: () => 'Node.js/22' } })));
    Object.assign(prototype, polluted);
    const fake = createFakeFetch(reply.created(playtimeSession));
    const server = new CampaignServer({ serverKey: 'sk_test_1:s3cr3t', fetch: fake.fetch });
    await server.playtime.record({ ...sessionRequest });
    expect(fake.calls).toHaveLength(1);
  });
});
