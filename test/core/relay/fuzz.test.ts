/**
 * Property tests: thousands of malformed relay requests, each answered with a 4xx carrying the spec's
 * error body, none reaching the service, and the relay still serving good requests afterwards.
 * Most run against a fake service (which records what reached it); one runs a relay in front of a real
 * in-process emulator and checks that the emulator received and stored nothing, while the same relay
 * stores the same content once it is sent properly.
 */
import fc from 'fast-check';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createEmulator, DEMO_BOOSTED_CREATORS, DEMO_CREATOR_KEYS, DEMO_USERS } from '../../../emulator/index.js';
import { createRelay } from '../../../core/relay/index.js';
import { RELAY_ROUTES, RelayPlaytimeRequest, RelaySponsorRequest, RelayWebviewRequest } from '../../../core/relay/protocol.js';
import { CampaignServer } from '../../../core/server/index.js';
import { ErrorBody } from '../../../core/schema/errors.js';
import { check } from '../../../core/schema/validate.js';
import { MAX_JSON_DEPTH, SERVICE_MAX_BODY_BYTES, scanJsonDepth, utf8Length } from '../../../core/schema/json-limits.js';
import type { FakeFetch } from '../../helpers/fake-fetch.js';
import { authenticateByHeader, RELAY, relayOverFakeService, relayRequest, sessions } from './fake-service.js';

const SEED = 20240501;
const SMALL_CAP = 64 * 1024;
const generous = () => new RateLimiterMemory({ points: 1_000_000, duration: 1 });
const service = relayOverFakeService({ rateLimiter: generous(), coalesceWindowMs: 0 });
const smallCap = relayOverFakeService({ rateLimiter: generous(), coalesceWindowMs: 0, maxBodyBytes: SMALL_CAP });

/** A relay in front of a real in-process emulator (the service stores what reaches it). */
const emulator = createEmulator();
const emulated = createRelay({
  server: new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: 'http://emulator.local' }, fetch: emulator.fetch, maxRetries: 0 }),
  authenticate: authenticateByHeader,
  rateLimiter: generous(),
  coalesceWindowMs: 0,
  maxBodyBytes: SMALL_CAP,
});
const emulatorAtStart = emulator.state();
afterAll(() => emulator.close());

/** A demo user whose boost may change now: a sponsor request that got through would change it. */
const USER = DEMO_USERS.changeable;
const NEW_CREATOR = DEMO_CREATOR_KEYS.find((key) => key !== DEMO_BOOSTED_CREATORS.changeable) as string;
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';
/** A body each route accepts (and the emulator would store) for USER. */
function validBody(route: string): unknown {
  if (route === RELAY_ROUTES.playtime) return { sessions: sessions(USER, 3) };
  if (route === RELAY_ROUTES.webviewToken) return { codeChallenge: CHALLENGE };
  return { newCreatorKey: NEW_CREATOR };
}

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
  expect(Object.keys(body as object).filter((key) => !ERROR_BODY_KEYS.has(key))).toEqual([]);
  expect(parsed.data.status).toBe(response.status);
  expect(parsed.data.error.length).toBeGreaterThan(0);
  expect(parsed.data.message.length).toBeGreaterThan(0);
  expect(parsed.data.code.length).toBeGreaterThan(0);
  return parsed.data;
}
const ERROR_BODY_KEYS = new Set(['status', 'error', 'message', 'code', 'details']);

/** What reached a fake service so far, taken out of its record. */
function takeCalls(fake: FakeFetch) {
  return fake.calls.splice(0);
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
  // Nothing reached a fake service but what a test took out of its record (the good requests at the end).
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
        if (new TextEncoder().encode(text).length > SMALL_CAP) expect([body.status, body.code]).toEqual([413, 'BAD_REQUEST']);
        else expect([body.status, body.code]).toEqual([400, 'VALIDATION_ERROR']);
      }),
      { numRuns: 100, seed: SEED },
    );
  });
});

describe('nesting depth and number formats', () => {
  /** JSON text nesting `depth` containers (objects and arrays as `kinds` says) around a leaf. */
  const nestedText = (kinds: boolean[], leaf: string) =>
    kinds.map((isArray) => (isArray ? '[' : '{"k":')).join('') + leaf + [...kinds].reverse().map((isArray) => (isArray ? ']' : '}')).join('');

  it('answers metadata of any depth (1 to 3000 levels) with 200 up to the service limit and 400 naming the item past it, never a 5xx (300 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 20 }),
        fc.nat(),
        fc.oneof(fc.integer({ min: 1, max: 80 }), fc.integer({ min: 1, max: 3000 })),
        fc.infiniteStream(fc.boolean()),
        async (size, index, depth, kinds) => {
          const at = index % size;
          const items = sessions('alice', size).map((s, i) => {
            const text = JSON.stringify(s);
            return i === at ? text.replace(/}$/, `,"metadata":{"m":${nestedText([...kinds.take(depth)], '1')}}}`) : text;
          });
          const body = `{"sessions":[${items.join(',')}]}`;
          const response = await service.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice'));
          const forwarded = takeCalls(service.fake);
          if (scanJsonDepth(body).depth <= MAX_JSON_DEPTH) {
            expect(response.status).toBe(200);
            expect(forwarded).toHaveLength(1);
          } else {
            const error = await expectClientError(response);
            expect([error.status, error.code]).toEqual([400, 'VALIDATION_ERROR']);
            expect(error.details?.map((d) => d.path)).toEqual([`sessions.${at}.metadata`]);
            expect(forwarded).toEqual([]);
          }
        },
      ),
      { numRuns: 300, seed: SEED },
    );
  });

  /** Number literals as a client may write them: exponents, negative zero, overflow, underflow, long digits. */
  const numberText = fc.oneof(
    fc.constantFrom('1e20', '-0', '0e0', '1E+308', '1e309', '-1e999', '1e-400', '6e1', '60.0', '600e-1', '9007199254740993', '0.1e1'),
    fc.record({ mantissa: fc.integer({ min: -9, max: 9 }), exponent: fc.integer({ min: -2000, max: 2000 }) }).map(({ mantissa, exponent }) => `${mantissa}e${exponent}`),
    fc.integer({ min: 1, max: 400 }).map((n) => '9'.repeat(n)),
    fc.double().filter(Number.isFinite).map(String),
  );

  it('takes any number format in metadata and durationSeconds: 200 when valid, 400 VALIDATION_ERROR when not, never a 5xx (400 runs)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(numberText, { minLength: 1, maxLength: 50 }), numberText, async (inMetadata, duration) => {
        const template = JSON.stringify({ ...sessions('alice', 1)[0], durationSeconds: 0, metadata: { n: 0 } });
        const item = template.replace('"durationSeconds":0', `"durationSeconds":${duration}`).replace('"n":0', `"n":[${inMetadata.join(',')}]`);
        const body = `{"sessions":[${item}]}`;
        const parsed = JSON.parse(body) as { sessions: Array<{ durationSeconds: number }> };
        const response = await service.relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, body, 'alice'));
        const forwarded = takeCalls(service.fake);
        expect(response.status).toBeLessThan(500);
        // A number beyond a double's range (1e400) parses as Infinity, which JSON writes as null: refused, never forwarded as null.
        const finite = !JSON.stringify(parsed).includes('null');
        const schemaValid = check(RelayPlaytimeRequest, parsed).success && finite;
        const valid = schemaValid && (parsed.sessions[0]?.durationSeconds ?? 0) <= 61; // the interval is 60 s
        if (valid) {
          expect(response.status).toBe(200);
          expect(forwarded).toHaveLength(1);
          for (const call of forwarded) expect(utf8Length(call.rawBody ?? '')).toBeLessThanOrEqual(SERVICE_MAX_BODY_BYTES);
        } else if (!schemaValid) {
          expect((await expectClientError(response)).code).toBe('VALIDATION_ERROR');
          expect(forwarded).toEqual([]);
        } else {
          // Valid by the schema but longer than its interval: an item FAILED, not forwarded.
          const answer = (await response.json()) as { data: { results: Array<{ status: string }> } };
          expect(answer.data.results.map((r) => r.status)).toEqual(['FAILED']);
          expect(forwarded).toEqual([]);
        }
      }),
      { numRuns: 400, seed: SEED },
    );
  });
});

describe('malformed requests store nothing in a real emulator behind the relay', () => {
  const ROUTE_LIST = ROUTES.map(({ route }) => route);
  const routeOf = (route: string) => ROUTES.find((r) => r.route === route)!;
  type Case =
    | { kind: 'json'; route: string; value: unknown }
    | { kind: 'broken item'; size: number; index: number; field: (typeof SESSION_FIELDS)[number]; value: unknown }
    | { kind: 'bytes'; route: string; bytes: Uint8Array<ArrayBuffer> }
    | { kind: 'content type'; route: string; type: string }
    | { kind: 'unauthenticated'; route: string; authorization: string | null }
    | { kind: 'over the cap'; count: number };
  const route = fc.constantFrom(...ROUTE_LIST);
  const malformed: fc.Arbitrary<Case> = fc.oneof(
    { weight: 4, arbitrary: fc.record({ kind: fc.constant('json' as const), route, value: fc.jsonValue() }) },
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('broken item' as const),
        size: fc.integer({ min: 1, max: 20 }),
        index: fc.nat(),
        field: fc.constantFrom(...SESSION_FIELDS),
        value: wrongValue,
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('bytes' as const), route, bytes: fc.uint8Array({ maxLength: 300 }) }) },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('content type' as const),
        route,
        type: fc.oneof(fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml', 'text/json'), fc.string({ maxLength: 40 }).filter((t) => !/json/i.test(t))),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('unauthenticated' as const),
        route,
        authorization: fc.option(fc.oneof(fc.constantFrom('Bearer user:', `Bearer ${USER}`, `Basic ${USER}`, `bearer user:${USER}`, 'user:'), fc.string({ maxLength: 40 }))),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('over the cap' as const), count: fc.integer({ min: 600, max: 1000 }) }) },
  );

  /** The request a case sends, with the status and code it must get; undefined when the case is not malformed after all. */
  function build(c: Case): { request: Request; status?: number; code?: string } | undefined {
    const method = (path: string) => routeOf(path).method;
    const post = (path: string, body: unknown, headers: Record<string, string> = {}, user: string | undefined = USER) => {
      try {
        return relayRequest(method(path), path, body, user, headers);
      } catch {
        return undefined; // not a legal header value: no client could send it
      }
    };
    switch (c.kind) {
      case 'json': {
        if (check(routeOf(c.route).schema, c.value).success) return undefined;
        return { request: relayRequest(method(c.route), c.route, c.value, USER) };
      }
      case 'broken item': {
        const batch: Array<Record<string, unknown>> = sessions(USER, c.size);
        batch[c.index % c.size] = { ...batch[c.index % c.size], [c.field]: c.value };
        if (check(RelayPlaytimeRequest, { sessions: batch }).success) return undefined;
        return { request: relayRequest('POST', RELAY_ROUTES.playtime, { sessions: batch }, USER), status: 400, code: 'VALIDATION_ERROR' };
      }
      case 'bytes': {
        let parsed: unknown;
        try {
          parsed = JSON.parse(new TextDecoder().decode(c.bytes));
        } catch {
          parsed = undefined;
        }
        if (check(routeOf(c.route).schema, parsed).success) return undefined;
        const request = new Request(`${RELAY}${c.route}`, {
          method: method(c.route),
          headers: { authorization: `Bearer user:${USER}`, 'content-type': 'application/json' },
          body: c.bytes,
        });
        return { request, status: 400 };
      }
      case 'content type': {
        const request = post(c.route, validBody(c.route), { 'content-type': c.type });
        return request && { request, status: 400, code: 'BAD_REQUEST' };
      }
      case 'unauthenticated': {
        const request = post(c.route, validBody(c.route), c.authorization === null ? {} : { authorization: c.authorization }, undefined);
        if (!request || authenticateByHeader(request)) return undefined; // the header authenticates after all
        return { request, status: 401, code: 'UNAUTHORIZED' };
      }
      case 'over the cap': {
        const text = JSON.stringify({ sessions: sessions(USER, c.count) }); // a valid batch, only too big
        expect(new TextEncoder().encode(text).length).toBeGreaterThan(SMALL_CAP);
        return { request: relayRequest('POST', RELAY_ROUTES.playtime, text, USER), status: 413 };
      }
    }
  }

  it('answers each with a 4xx error body, and the emulator receives and records nothing (1500 runs)', async () => {
    const seen: Record<string, Record<number, number>> = {};
    await fc.assert(
      fc.asyncProperty(malformed, async (c) => {
        const built = build(c);
        fc.pre(built !== undefined);
        const body = await expectClientError(await emulated.fetch(built.request));
        if (built.status !== undefined) expect(body.status).toBe(built.status);
        if (built.code !== undefined) expect(body.code).toBe(built.code);
        const byStatus = (seen[c.kind] ??= {});
        byStatus[body.status] = (byStatus[body.status] ?? 0) + 1;
      }),
      { numRuns: 1500, seed: SEED },
    );

    // Every kind of malformed request was sent (the generator's filters did not starve one).
    expect(Object.keys(seen).sort()).toEqual(['broken item', 'bytes', 'content type', 'json', 'over the cap', 'unauthenticated']);
    const state = emulator.state();
    expect(state.sessions).toEqual([]);
    expect(state.requests).toEqual({}); // not even a request reached it
    expect(state.webview.tokens).toEqual([]);
    expect(state.boosts).toEqual(emulatorAtStart.boosts);
    expect(state.boostHistory).toEqual(emulatorAtStart.boostHistory);
  });
});

describe('the relays that got all of that', () => {
  it('still serve a good request', async () => {
    for (const { relay, fake } of [service, smallCap]) {
      const huge = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, JSON.stringify({ sessions: 'x'.repeat(2 * 1024 * 1024) }), 'alice'));
      expect((await expectClientError(huge)).status).toBe(413);
      expect((await expectClientError(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [] }, 'alice')))).status).toBe(400);
      expect(fake.calls).toEqual([]);
      const good = await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 3) }, 'alice'));
      expect(good.status).toBe(200);
      const calls = takeCalls(fake);
      expect(calls.map((call) => [call.method, call.path])).toEqual([['POST', '/v1/server/playtime/sessions/bulk']]);
      expect((calls[0]!.body as { sessions: Array<{ sessionId: string }> }).sessions.map((s) => s.sessionId)).toEqual(['s-alice-0', 's-alice-1', 's-alice-2']);
    }
  });

  it('still stores, through the emulator, the very bodies that were refused when sent malformed', async () => {
    for (const { route, method } of ROUTES) {
      const response = await emulated.fetch(relayRequest(method, route, validBody(route), USER));
      expect([route, response.status]).toEqual([route, 200]);
    }
    const state = emulator.state();
    expect(state.sessions.map((s) => [s.sessionId, s.userId])).toEqual(sessions(USER, 3).map((s) => [s.sessionId, USER]));
    expect(state.webview.tokens.map((t) => t.userId)).toEqual([USER]);
    expect(state.boosts.find((b) => b.userId === USER)?.creatorKey).toBe(NEW_CREATOR);
  });
});
