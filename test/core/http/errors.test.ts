/** A typed error per code of the spec, for transport failures, and for bodies that are not the spec's. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  BadRequestError,
  BoostCooldownError,
  CampaignError,
  ConflictError,
  ConnectionError,
  ForbiddenError,
  InternalError,
  NotFoundError,
  RateLimitError,
  TimeoutError,
  UnauthorizedError,
  UserCodeLimitError,
  ValidationError,
  isCampaignError,
} from '../../../core/http/errors.js';
import { CampaignServer } from '../../../core/server/campaign-server.js';
import { createFakeFetch, reply, type Reply } from '../../helpers/fake-fetch.js';

const SERVER_KEY = 'sk_test_1:s3cr3t';

/** What `payments.get` rejects with when the service answers `answer` (no retries). */
async function errorFor(answer: Reply): Promise<unknown> {
  const fake = createFakeFetch(answer);
  const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0 });
  const error = await server.payments.get('tx-1').then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(fake.calls).toHaveLength(1);
  return error;
}

describe('one typed error per code', () => {
  it('VALIDATION_ERROR -> ValidationError with the details', async () => {
    const details = [{ path: 'sessions.0.creatorKey', message: 'must be exactly 5 uppercase letters or digits' }];
    const error = await errorFor(reply.error(400, 'VALIDATION_ERROR', 'Validation failed', { details }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ name: 'ValidationError', status: 400, code: 'VALIDATION_ERROR', message: 'Validation failed', details });
  });

  it('422 VALIDATION_ERROR (single playtime session) -> ValidationError', async () => {
    const error = await errorFor(reply.error(422, 'VALIDATION_ERROR', 'endedAt before startedAt', { details: [{ path: 'endedAt', message: 'x' }] }));
    expect(error).toBeInstanceOf(ValidationError);
    expect(error).toMatchObject({ status: 422, details: [{ path: 'endedAt', message: 'x' }] });
  });

  it('BAD_REQUEST -> BadRequestError (not a cooldown)', async () => {
    const error = await errorFor(reply.error(400, 'BAD_REQUEST', 'Malformed JSON body'));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(BoostCooldownError);
    expect(error).toMatchObject({ name: 'BadRequestError', status: 400, code: 'BAD_REQUEST', message: 'Malformed JSON body', details: undefined });
  });

  it('BAD_REQUEST stating the days remaining -> BoostCooldownError with daysRemaining', async () => {
    const fake = createFakeFetch(reply.error(400, 'BAD_REQUEST', 'Boost can be changed again in 12 days'));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    const error = await server.sponsors.change('user-1', { newCreatorKey: 'XYZ99' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BoostCooldownError);
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ name: 'BoostCooldownError', status: 400, code: 'BAD_REQUEST', daysRemaining: 12, message: 'Boost can be changed again in 12 days' });
  });

  it.each([
    ['Boost can be changed again in 1 day', 1],
    ['Cooldown: 29 days remaining', 29],
  ])('reads daysRemaining from %j', async (message, days) => {
    const fake = createFakeFetch(reply.error(400, 'BAD_REQUEST', message));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    expect(await server.sponsors.change('user-1', { newCreatorKey: 'XYZ99' }).catch((e: unknown) => e)).toMatchObject({ daysRemaining: days });
  });

  it('a BAD_REQUEST mentioning days outside a boost change is a plain BadRequestError', async () => {
    const error = await errorFor(reply.error(400, 'BAD_REQUEST', 'Coupon expired in 3 days'));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).not.toBeInstanceOf(BoostCooldownError);
    expect(error).toMatchObject({ name: 'BadRequestError', code: 'BAD_REQUEST', message: 'Coupon expired in 3 days' });
  });

  it.each<[number, string, new (...args: never[]) => CampaignError, string]>([
    [401, 'UNAUTHORIZED', UnauthorizedError, 'UnauthorizedError'],
    [403, 'FORBIDDEN', ForbiddenError, 'ForbiddenError'],
    [404, 'NOT_FOUND', NotFoundError, 'NotFoundError'],
    [409, 'CONFLICT', ConflictError, 'ConflictError'],
    [500, 'INTERNAL_ERROR', InternalError, 'InternalError'],
  ])('%i %s -> %O', async (status, code, Class, name) => {
    const error = await errorFor(reply.error(status, code, `${code} happened`));
    expect(error).toBeInstanceOf(Class);
    expect(error).toBeInstanceOf(CampaignError);
    expect(error).toMatchObject({ name, status, code, message: `${code} happened` });
    expect((error as CampaignError).headers?.get('content-type')).toBe('application/json');
  });

  it('RATE_LIMITED -> RateLimitError with retryAfterMs from Retry-After', async () => {
    const error = await errorFor(reply.error(429, 'RATE_LIMITED', 'Slow down', { headers: { 'retry-after': '7' } }));
    expect(error).toBeInstanceOf(RateLimitError);
    expect(error).toMatchObject({ name: 'RateLimitError', status: 429, code: 'RATE_LIMITED', retryAfterMs: 7000 });
  });

  it('RATE_LIMITED without Retry-After leaves retryAfterMs undefined', async () => {
    expect(await errorFor(reply.error(429, 'RATE_LIMITED', 'Slow down'))).toMatchObject({ retryAfterMs: undefined });
  });

  it('USER_CODE_LIMIT -> UserCodeLimitError (from coupon redemption)', async () => {
    const fake = createFakeFetch(reply.error(400, 'USER_CODE_LIMIT', 'Coupon usage limit exceeded'));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch });
    const error = await server.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserCodeLimitError);
    expect(error).toMatchObject({ name: 'UserCodeLimitError', status: 400, code: 'USER_CODE_LIMIT', message: 'Coupon usage limit exceeded' });
  });
});

describe('bodies that are not the spec error body', () => {
  it('types an HTML 502 from a proxy by its status', async () => {
    const error = await errorFor(reply.text(502, '<html><body>Bad gateway</body></html>', { 'content-type': 'text/html' }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 502, code: 'INTERNAL_ERROR', message: 'HTTP 502', details: undefined });
  });

  it.each<[number, new (...args: never[]) => CampaignError, string]>([
    [400, BadRequestError, 'BAD_REQUEST'],
    [401, UnauthorizedError, 'UNAUTHORIZED'],
    [403, ForbiddenError, 'FORBIDDEN'],
    [404, NotFoundError, 'NOT_FOUND'],
    [409, ConflictError, 'CONFLICT'],
    [422, ValidationError, 'VALIDATION_ERROR'],
    [429, RateLimitError, 'RATE_LIMITED'],
    [503, InternalError, 'INTERNAL_ERROR'],
  ])('types an empty %i body by its status', async (status, Class, code) => {
    const error = await errorFor(reply.text(status, ''));
    expect(error).toBeInstanceOf(Class);
    expect(error).toMatchObject({ status, code, message: `HTTP ${status}` });
  });

  it('keeps an unknown code, with the class its status implies', async () => {
    const error = await errorFor(reply.error(503, 'MAINTENANCE', 'Back soon'));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ status: 503, code: 'MAINTENANCE', message: 'Back soon' });
  });

  it('does not take an inherited property name for a known code', async () => {
    const error = await errorFor(reply.error(400, 'constructor', 'odd'));
    expect(error).toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({ status: 400, code: 'constructor' });
  });

  it('takes nothing from a JSON body without a code (a proxy\'s or a framework\'s): its message and details are not the service\'s', async () => {
    // Before: the message was the body's, which `gc.boost.current()` took for the service's "no boost".
    const error = await errorFor(reply.json(404, { message: 'Not Found', details: [{ path: 'x', message: 'y' }] }));
    expect(error).toBeInstanceOf(NotFoundError);
    expect(error).toMatchObject({ status: 404, code: 'NOT_FOUND', message: 'HTTP 404', details: undefined });
  });

  it('gives a status with no meaning of its own the base class and code UNKNOWN', async () => {
    const error = await errorFor(reply.json(418, { hello: 'teapot' }));
    expect(error).toBeInstanceOf(CampaignError);
    expect(error).toMatchObject({ name: 'CampaignError', status: 418, code: 'UNKNOWN', message: 'HTTP 418' });
  });
});

describe('no response', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a failed connection is a ConnectionError', async () => {
    const error = await errorFor(reply.networkError('getaddrinfo ENOTFOUND api.example'));
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error).toMatchObject({
      name: 'ConnectionError',
      code: 'CONNECTION_ERROR',
      status: undefined,
      message: 'Connection failed: getaddrinfo ENOTFOUND api.example',
    });
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  // Node's fetch rejects with "fetch failed" and puts the reason in its cause: the emulator not running reads as a refused connection.
  it("names what failed when the fetch error's cause says it (Node: a refused connection, an unknown host)", async () => {
    const refused = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:8787'), { code: 'ECONNREFUSED' }) });
    const server = new CampaignServer({ serverKey: SERVER_KEY, environment: { baseUrl: 'http://127.0.0.1:8787' }, maxRetries: 0, fetch: () => Promise.reject(refused) });
    await expect(server.payments.get('tx-1')).rejects.toMatchObject({ name: 'ConnectionError', message: 'Connection failed: fetch failed (connect ECONNREFUSED 127.0.0.1:8787)', cause: refused });
  });

  it('no answer within timeoutMs is a TimeoutError (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = createFakeFetch(reply.hang());
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, timeoutMs: 5000, maxRetries: 0 });
    let outcome: unknown = 'pending';
    void server.payments.get('tx-1').then(
      () => (outcome = 'resolved'),
      (e: unknown) => (outcome = e),
    );
    await vi.advanceTimersByTimeAsync(4999);
    expect(outcome).toBe('pending');
    expect(fake.last().signal?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(TimeoutError);
    expect(outcome).toMatchObject({ name: 'TimeoutError', code: 'TIMEOUT', status: undefined, message: 'No response within 5000 ms' });
    expect(fake.last().signal?.aborted).toBe(true);
  });

  it('the time-out covers a body that stalls after the headers', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stalled = new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('{"data":')) });
    const fake = createFakeFetch(new Response(stalled, { status: 200, headers: { 'content-type': 'application/json' } }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, timeoutMs: 2000, maxRetries: 0 });
    let outcome: unknown = 'pending';
    void server.payments.get('tx-1').catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(1999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(TimeoutError);
  });

  it('times out a fetch that ignores its abort signal (an XHR polyfill, an in-process handler)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const deaf = () => new Promise<Response>(() => {});
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: deaf, timeoutMs: 1000, maxRetries: 0 });
    let outcome: unknown = 'pending';
    void server.payments.get('tx-1').catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(1000);
    expect(outcome).toBeInstanceOf(TimeoutError);
  });

  it('a connection lost in the middle of the body is a ConnectionError, and a safe request is retried', async () => {
    const broken = () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start: (controller) => {
            controller.enqueue(new TextEncoder().encode('{"data":'));
            controller.error(new TypeError('terminated'));
          },
        }),
        { status: 200 },
      );
    const fake = createFakeFetch(broken(), reply.ok({ ok: 1 }));
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, random: () => 0 });
    await expect(server.payments.get('tx-1')).resolves.toEqual({ ok: 1 });
    expect(fake.calls).toHaveLength(2);
    const once = new CampaignServer({ serverKey: SERVER_KEY, fetch: createFakeFetch(broken()).fetch, maxRetries: 0 });
    await expect(once.payments.get('tx-1')).rejects.toMatchObject({ name: 'ConnectionError', code: 'CONNECTION_ERROR', message: 'Connection failed: terminated' });
  });

  it('the default time-out is 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fake = createFakeFetch(reply.hang());
    const server = new CampaignServer({ serverKey: SERVER_KEY, fetch: fake.fetch, maxRetries: 0 });
    let outcome: unknown = 'pending';
    void server.payments.get('tx-1').catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(29_999);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(TimeoutError);
  });
});

describe('isCampaignError', () => {
  it('is true for every error of the SDK, and filters by code', async () => {
    const error = await errorFor(reply.error(404, 'NOT_FOUND', 'No such payment'));
    expect(isCampaignError(error)).toBe(true);
    expect(isCampaignError(error, 'NOT_FOUND')).toBe(true);
    expect(isCampaignError(error, 'CONFLICT')).toBe(false);
    expect(isCampaignError(new ConnectionError({ code: 'CONNECTION_ERROR', message: 'x' }), 'CONNECTION_ERROR')).toBe(true);
  });

  it('recognises an error from another realm by name, code and status', () => {
    const foreign = { name: 'NotFoundError', code: 'NOT_FOUND', status: 404, message: 'No such payment' };
    expect(isCampaignError(foreign)).toBe(true);
    expect(isCampaignError(foreign, 'NOT_FOUND')).toBe(true);
    expect(isCampaignError({ name: 'ConnectionError', code: 'CONNECTION_ERROR', status: undefined })).toBe(true);
  });

  it.each([
    ['null', null],
    ['a string', 'NOT_FOUND'],
    ['a plain Error', new Error('boom')],
    ['a Node system error (code, no status)', Object.assign(new Error('reset'), { code: 'ECONNRESET' })],
    ['an object without name', { code: 'NOT_FOUND', status: 404 }],
    ['an object with a numeric code', { name: 'X', code: 404, status: 404 }],
  ])('is false for %s', (_, value) => {
    expect(isCampaignError(value)).toBe(false);
  });
});

// Node's dual package hazard: a server whose code `require`s the package in one place and `import`s it in another
// holds two copies of every class (dist/index.cjs and dist/index.js). A second copy of the module stands for the other build.
describe('instanceof across two copies of the SDK (its ESM and CJS builds side by side)', () => {
  it("holds for the other copy's errors, by class and up the hierarchy, and not across classes", async () => {
    vi.resetModules();
    await import('../../../core/server/campaign-server.js'); // as the other build's server entry: installs the check on its copy
    const other = (await import('../../../core/http/errors.js')) as typeof import('../../../core/http/errors.js');
    expect(other.NotFoundError).not.toBe(NotFoundError);
    const notFound = new other.NotFoundError({ code: 'NOT_FOUND', message: 'No such payment', status: 404 });
    expect(notFound instanceof NotFoundError).toBe(true);
    expect(notFound instanceof CampaignError).toBe(true);
    expect(notFound instanceof ConflictError).toBe(false);
    const cooldown = new other.BoostCooldownError({ code: 'BAD_REQUEST', message: '12 days remaining', status: 400, daysRemaining: 12 });
    expect(cooldown instanceof BoostCooldownError).toBe(true);
    expect(cooldown instanceof BadRequestError).toBe(true);
    expect(new other.BadRequestError({ code: 'BAD_REQUEST', message: 'x' }) instanceof BoostCooldownError).toBe(false);
    // And the other way round; an error of neither copy is no instance.
    expect(new NotFoundError({ code: 'NOT_FOUND', message: 'x' }) instanceof other.CampaignError).toBe(true);
    expect(new Error('boom') instanceof CampaignError).toBe(false);
    expect(Object.assign(new Error('x'), { name: 'NotFoundError', code: 'NOT_FOUND', status: 404 }) instanceof NotFoundError).toBe(false);
    expect((null as unknown) instanceof CampaignError).toBe(false);
  });
});
