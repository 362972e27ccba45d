/**
 * Property tests: thousands of malformed relay requests, each answered with a 4xx carrying the spec's
 * error body, none reaching the service, and the relay still serving good requests afterwards.
 */
import fc from 'fast-check';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import { RELAY_ROUTES, RelayPlaytimeRequest, RelaySponsorRequest, RelayWebviewRequest } from '../../../core/relay/protocol.js';
import { ErrorBody } from '../../../core/schema/errors.js';
import { check } from '../../../core/schema/validate.js';
import { RELAY, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const SEED = 20240501;
const generous = () => new RateLimiterMemory({ points: 1_000_000, duration: 1 });
const service = relayOverFakeService({ rateLimiter: generous(), coalesceWindowMs: 0 });
const smallCap = relayOverFakeService({ rateLimiter: generous(), coalesceWindowMs: 0, maxBodyBytes: 64 * 1024 });

const ROUTES = [
  { method: 'POST', route: RELAY_ROUTES.playtime, schema: RelayPlaytimeRequest },
  { method: 'POST', route: RELAY_ROUTES.webviewToken, schema: RelayWebviewRequest },
  { method: 'PUT', route: RELAY_ROUTES.sponsor, schema: RelaySponsorRequest },
] as const;
const SESSION_FIELDS = ['sessionId', 'userId', 'durationSeconds', 'startedAt', 'endedAt', 'campaignId', 'creatorKey', 'metadata'] as const;

/** Asserts a 4xx answer with the spec's error body; returns the body. */
async function expectClientError(response: Response): Promise<ErrorBody> {
  const text = await response.text();
  const body: unknown = JSON.parse(text);
  const parsed = check(ErrorBody, body);
  if (!parsed.success) throw new Error(`not an error body: ${text.slice(0, 200)}`);
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  expect(parsed.data.status).toBe(response.status);
  expect(parsed.data.message.length).toBeGreaterThan(0);
  expect(parsed.data.code.length).toBeGreaterThan(0);
  return parsed.data;
}

/** A value of some JSON type, huge strings included. */
const wrongValue = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string(),
  fc.array(fc.jsonValue(), { maxLength: 3 }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 3 }),
  fc.integer({ min: 1000, max: 50_000 }).map((n) => 'x'.repeat(n)),
);

afterEach(() => {
  expect(service.fake.calls).toEqual([]);
  expect(smallCap.fake.calls).toEqual([]);
});

describe('malformed bodies never reach the service', () => {
  it('answers any JSON value that is not a valid request with a 4xx error body (900 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.jsonValue(), async ({ method, route, schema }, value) => {
        fc.pre(!check(schema, value).success);
        await expectClientError(await service.relay.fetch(relayRequest(method, route, value, 'alice')));
      }),
      { numRuns: 900, seed: SEED },
    );
  });

  it('rejects session-like items with a field of the wrong type as VALIDATION_ERROR naming that item (600 runs)', async () => {
    const broken = fc.record({
      size: fc.integer({ min: 1, max: 20 }),
      index: fc.nat(),
      field: fc.constantFrom(...SESSION_FIELDS),
      value: wrongValue,
    });
    await fc.assert(
      fc.asyncProperty(broken, async ({ size, index, field, value }) => {
        const batch: Array<Record<string, unknown>> = sessions('alice', size);
        const at = index % size;
        batch[at] = { ...batch[at], [field]: value };
        fc.pre(!check(RelayPlaytimeRequest, { sessions: batch }).success);
        const body = await expectClientError(await service.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: batch }, 'alice')));
        expect(body.code).toBe('VALIDATION_ERROR');
        expect(body.details?.length).toBeGreaterThan(0);
        for (const detail of body.details ?? []) expect(detail.path.startsWith(`sessions.${at}.`)).toBe(true);
      }),
      { numRuns: 600, seed: SEED },
    );
  });

  it('answers bytes that are not JSON with 400 (300 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), fc.uint8Array({ maxLength: 300 }), async ({ method, route, schema }, bytes) => {
        const text = new TextDecoder().decode(bytes);
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        fc.pre(!check(schema, parsed).success);
        const request = new Request(`${RELAY}${route}`, {
          method,
          headers: { authorization: 'Bearer user:alice', 'content-type': 'application/json' },
          body: bytes,
        });
        expect((await expectClientError(await service.relay.fetch(request))).status).toBe(400);
      }),
      { numRuns: 300, seed: SEED },
    );
  });

  it('answers any body with a content type other than JSON with 400, even a valid one (200 runs)', async () => {
    const contentType = fc.oneof(
      fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data', 'application/xml', 'text/json', 'application/octet-stream'),
      fc.string({ maxLength: 40 }).filter((s) => !/json/i.test(s)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...ROUTES), contentType, async ({ method, route }, type) => {
        const valid = { sessions: sessions('alice', 1), codeChallenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', newCreatorKey: 'ABCDE' };
        let request: Request;
        try {
          request = relayRequest(method, route, valid, 'alice', { 'content-type': type });
        } catch {
          return; // not a legal header value: no client could send it
        }
        const body = await expectClientError(await service.relay.fetch(request));
        expect([body.status, body.code]).toEqual([400, 'BAD_REQUEST']);
      }),
      { numRuns: 200, seed: SEED },
    );
  });

  it('answers bodies over the cap with 413 and huge invalid fields under it with 400 (100 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 200_000 }), fc.constantFrom('creatorKey', 'startedAt', 'durationSeconds'), async (length, field) => {
        const batch = [{ ...sessions('alice', 1)[0], [field]: 'Z'.repeat(length) }];
        const text = JSON.stringify({ sessions: batch });
        const body = await expectClientError(await smallCap.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, text, 'alice')));
        if (new TextEncoder().encode(text).length > 64 * 1024) expect([body.status, body.code]).toEqual([413, 'BAD_REQUEST']);
        else expect([body.status, body.code]).toEqual([400, 'VALIDATION_ERROR']);
      }),
      { numRuns: 100, seed: SEED },
    );
  });

  it('still serves a good request after all of that', async () => {
    const { relay, bulkCalls } = relayOverFakeService({ coalesceWindowMs: 0 });
    const huge = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, JSON.stringify({ sessions: 'x'.repeat(2 * 1024 * 1024) }), 'alice'));
    expect((await expectClientError(huge)).status).toBe(413);
    expect((await service.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }, 'alice'))).status).toBe(400);
    expect((await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 3) }, 'alice'))).status).toBe(200);
    expect(bulkCalls()).toHaveLength(1);
  });
});
