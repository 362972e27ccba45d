/** What goes on the wire: keys, environments, headers, bodies, path encoding, and which statuses are success. */
import { describe, expect, it } from 'vitest';
import { CampaignClient } from '../../../core/client/campaign-client.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { BASE_URLS } from '../../../core/http/environment.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { CHALLENGE, boostRecord, couponUsage, oneTimeToken, paymentDetail, playtimeSession, sessionRequest, webhookConfig } from '../schema/samples.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';
const CLIENT_KEY = 'ck_test_1:pub1ic';

describe('API keys', () => {
  // Also what no header can carry: a zero-width space, curly quotes or a dash pasted from a document.
  it.each(['nocolon', ':secret', 'id:', 'id :secret', 'id:sec ret', 'id:secret\u200b', '\u201cid:secret\u201d', 'id\u2013x:secret', 'id:s\u00e9cret'])('rejects the key %j at construction with a TypeError', (key) => {
    const fake = createFakeFetch();
    expect(() => new CampaignServer({ serverKey: key, fetch: fake.fetch })).toThrow(new TypeError('Server key must have the form <key_id>:<secret>'));
    expect(() => new CampaignClient({ clientKey: key, fetch: fake.fetch })).toThrow(new TypeError('Client key must have the form <key_id>:<secret>'));
    expect(fake.calls).toHaveLength(0);
  });

  // On 16d1558 a Server key read from an env file with its line break said only "must have the form", and one wrapped in
  // the quotes Docker's --env-file keeps was accepted: every call then failed 401.
  it.each([
    ['sk_test_1:s3cr3t\n', 'has a line break or space at its start or end (read from an env file? trim it)'],
    ['sk_test_1:s3cr3t\r', 'has a line break or space at its start or end (read from an env file? trim it)'],
    [' sk_test_1:s3cr3t', 'has a line break or space at its start or end (read from an env file? trim it)'],
    ['"sk_test_1:s3cr3t"', 'is wrapped in quotes, which are not part of it (an env file read without removing them?)'],
    ["'sk_test_1:s3cr3t'", 'is wrapped in quotes, which are not part of it (an env file read without removing them?)'],
  ])('a Server key as an env file leaves it (%j): a TypeError saying why, the key not in it, nothing sent', (key, problem) => {
    const fake = createFakeFetch();
    let error: unknown;
    try {
      new CampaignServer({ serverKey: key, fetch: fake.fetch });
    } catch (caught) {
      error = caught;
    }
    expect(error).toEqual(new TypeError(`Server key ${problem}; it must have the form <key_id>:<secret>`));
    expect((error as Error).message).not.toContain('s3cr3t');
    expect(fake.calls).toHaveLength(0);
  });

  it('rejects a key that is not a string', () => {
    expect(() => new CampaignServer({ serverKey: 42 as unknown as string })).toThrow(new TypeError('Server key must have the form <key_id>:<secret>'));
  });

  // An unset environment variable (process.env.CLIENT_KEY, import.meta.env.VITE_CLIENT_KEY) gives undefined or ''.
  it.each([undefined, ''])('says a key given as %j is missing', (key) => {
    const fake = createFakeFetch();
    expect(() => new CampaignServer({ serverKey: key as string, fetch: fake.fetch })).toThrow(new TypeError('Server key missing: must have the form <key_id>:<secret>'));
    expect(() => new CampaignClient({ clientKey: key as string, fetch: fake.fetch })).toThrow(new TypeError('Client key missing: must have the form <key_id>:<secret>'));
    expect(fake.calls).toHaveLength(0);
  });

  it('sends Authorization: Bearer <key> on every request', async () => {
    const fake = createFakeFetch(reply.ok(paymentDetail), reply.ok(boostRecord));
    await new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch }).payments.get('tx-1');
    await new CampaignClient({ clientKey: CLIENT_KEY, fetch: fake.fetch }).sponsors.get('user-1');
    expect(fake.calls.map((c) => c.headers['authorization'])).toEqual([`Bearer ${SERVER_KEY}`, `Bearer ${CLIENT_KEY}`]);
  });
});

describe('environments', () => {
  it.each([
    [undefined, 'https://sandbox-api.game-campaign.com/v1/server/payments/tx-1'],
    ['sandbox' as const, 'https://sandbox-api.game-campaign.com/v1/server/payments/tx-1'],
    ['live' as const, 'https://api.game-campaign.com/v1/server/payments/tx-1'],
    [{ baseUrl: 'http://emulator.local' }, 'http://emulator.local/v1/server/payments/tx-1'],
    [{ baseUrl: 'http://127.0.0.1:8787/' }, 'http://127.0.0.1:8787/v1/server/payments/tx-1'],
    [{ baseUrl: 'https://proxy.example/campaign//' }, 'https://proxy.example/campaign/v1/server/payments/tx-1'],
  ])('%j sends to %s', async (environment, url) => {
    const fake = createFakeFetch(reply.ok(paymentDetail));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, ...(environment ? { environment } : {}) });
    await server.payments.get('tx-1');
    expect(fake.last().url).toBe(url);
    expect(server.baseUrl).toBe(url.slice(0, url.indexOf('/v1/')));
  });

  it('exports the two base addresses', () => {
    expect(BASE_URLS).toEqual({ live: 'https://api.game-campaign.com', sandbox: 'https://sandbox-api.game-campaign.com' });
  });

  it.each([['production'], [{ baseUrl: 'emulator.local' }], [{ baseUrl: 'ftp://x' }]])('rejects %j at construction', (environment) => {
    expect(() => new CampaignServer({ serverKey: SERVER_KEY, environment: environment as never })).toThrow(TypeError);
  });

  it.each(['https://proxy.example/campaign?token=abc', 'https://proxy.example/campaign/?', 'https://proxy.example/#api'])(
    'rejects the base address %j (a query or fragment would end up in front of every path) with a TypeError saying so',
    (baseUrl) => {
      const message = `Unknown environment ${JSON.stringify({ baseUrl })}: use 'live', 'sandbox' or { baseUrl: 'https://…' } with no query or fragment`;
      expect(() => new CampaignServer({ serverKey: SERVER_KEY, environment: { baseUrl } })).toThrow(new TypeError(message));
      expect(() => new CampaignClient({ clientKey: CLIENT_KEY, environment: { baseUrl } })).toThrow(new TypeError(message));
    },
  );
});

describe('request hygiene', () => {
  it('sends Content-Type: application/json and Accept on a body', async () => {
    const fake = createFakeFetch(reply.created(playtimeSession));
    await new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch }).playtime.record(sessionRequest);
    expect(fake.last().headers).toEqual({ authorization: `Bearer ${SERVER_KEY}`, accept: 'application/json', 'content-type': 'application/json' });
    expect(fake.last().rawBody).toBe(JSON.stringify(sessionRequest));
  });

  it('sends no body and no Content-Type on GET and DELETE', async () => {
    const fake = createFakeFetch(reply.ok(paymentDetail), reply.noContent());
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await server.payments.get('tx-1');
    await server.webhooks.delete(5);
    for (const call of fake.calls) {
      expect(call.rawBody).toBeUndefined();
      expect(call.headers).toEqual({ authorization: `Bearer ${SERVER_KEY}`, accept: 'application/json' });
    }
    expect(fake.calls.map((c) => c.method)).toEqual(['GET', 'DELETE']);
  });

  it('drops unknown fields, at the top and inside items', async () => {
    const fake = createFakeFetch(reply.created(playtimeSession), reply.ok({ totalRequested: 1, successful: 1, failed: 0, skipped: 0, results: [] }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await server.playtime.record({ ...sessionRequest, extra: 'nope', apiKey: 'leak' } as typeof sessionRequest);
    await server.playtime.recordBulk({ sessions: [{ ...sessionRequest, platform: 'iOS', debug: true } as typeof sessionRequest], verbose: 1 } as never);
    expect(fake.calls[0]!.body).toEqual(sessionRequest);
    expect(fake.calls[1]!.body).toEqual({ sessions: [sessionRequest] });
  });

  it('omits an absent optional field instead of sending null', async () => {
    const fake = createFakeFetch(reply.ok(boostRecord));
    await new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch }).sponsors.change('user-1', { newCreatorKey: 'XYZ99', campaignId: undefined });
    expect(fake.last().rawBody).toBe('{"newCreatorKey":"XYZ99"}');
  });

  it('percent-encodes path parameters', async () => {
    const fake = createFakeFetch(
      reply.page([couponUsage(1)], { page: 1, limit: 20, total: 1, totalPages: 1 }),
      reply.ok(paymentDetail),
      reply.ok(boostRecord),
    );
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await server.coupons.listUsage('a/b c');
    await server.payments.get('tx?1#2');
    await server.sponsors.change('ü/..', { newCreatorKey: 'XYZ99' });
    expect(fake.calls.map((c) => c.path)).toEqual(['/v1/server/coupons/user/a%2Fb%20c', '/v1/server/payments/tx%3F1%232', '/v1/server/sponsors/user/%C3%BC%2F..']);
  });
});

describe('success statuses', () => {
  it('accepts 200 and 201 with a { data } body', async () => {
    const fake = createFakeFetch(reply.created(playtimeSession), reply.ok(oneTimeToken));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await expect(server.playtime.record(sessionRequest)).resolves.toEqual(playtimeSession);
    await expect(server.webview.createToken({ userId: 'user-1', codeChallenge: CHALLENGE })).resolves.toEqual(oneTimeToken);
  });

  it('accepts 204, and a 200 with an empty body, for a delete', async () => {
    const fake = createFakeFetch(reply.noContent(), reply.text(200, ''), reply.ok(webhookConfig));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    await expect(server.webhooks.delete(1)).resolves.toBeUndefined();
    await expect(server.webhooks.delete(2)).resolves.toBeUndefined();
    await expect(server.webhooks.delete(3)).resolves.toBeUndefined();
    expect(fake.calls.map((c) => c.path)).toEqual(['/v1/server/webhooks/1', '/v1/server/webhooks/2', '/v1/server/webhooks/3']);
  });
});
