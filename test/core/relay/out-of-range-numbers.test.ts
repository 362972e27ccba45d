/**
 * A JSON number beyond a double's range (`1e400`) parses as Infinity, which `JSON.stringify` writes as `null`: the
 * relay forwarded and the emulator stored such a `metadata` value as `null`, changing the data without an error.
 * Both now refuse it with 400 VALIDATION_ERROR naming its path (one rule: core/schema/json-limits.ts), and
 * `durationSeconds: 1e400` says what is wrong rather than "must be a number".
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { numbersOutOfRange, OUT_OF_RANGE_MESSAGE } from '../../../core/schema/json-limits.js';
import { read, relayOverFakeService, relayOverEmulator, relayRequest, session } from './fake-service.js';
import { caller, sessionBody } from '../../emulator/helpers.js';

const { emulator, relay } = relayOverEmulator();
const call = caller(emulator);

/** A playtime body whose second session carries `metadata` written as `metadataText`. */
const withMetadata = (metadataText: string, prefix = 'oor') =>
  JSON.stringify({ sessions: [session('alice', 0), session('alice', 1, { metadata: {} })] })
    .replace('"metadata":{}', `"metadata":${metadataText}`)
    .replace(/s-alice-/g, `${prefix}-`);

describe('numbersOutOfRange', () => {
  it('names every number JSON.parse turns into Infinity, by its full path', () => {
    const text = '{"a":1e400,"b":[1,-1E+400,{"c":2e308}],"d":"1e400","e":1e-400,"f":1.7976931348623157e308}';
    expect(numbersOutOfRange(JSON.parse(text))).toEqual(['a', 'b.1', 'b.2.c']);
    const digits = '9'.repeat(400);
    expect(numbersOutOfRange(JSON.parse(digits))).toEqual(['(body)']);
    // 210 digits and a 2-digit exponent: 1e308 is finite, 2e308 is not.
    const mixed = `[1${'0'.repeat(209)}e98,1${'0'.repeat(209)}e99,2${'0'.repeat(209)}e99,1${'0'.repeat(300)}e99]`;
    expect(numbersOutOfRange(JSON.parse(mixed))).toEqual(['2', '3']);
  });

  it('finds every number JSON.parse reads as Infinity (generated digits, signs, fractions, exponents and whitespace, at the root, in arrays and objects)', () => {
    const space = fc.stringMatching(/^[ \t\n\r]{0,2}$/);
    const numberText = fc
      .record({
        minus: fc.boolean(),
        lead: fc.integer({ min: 1, max: 9 }),
        zeros: fc.nat(400),
        fraction: fc.boolean(),
        exponent: fc.option(fc.record({ mark: fc.constantFrom('e', 'E'), plus: fc.boolean(), value: fc.integer({ min: -400, max: 400 }) })),
      })
      .map(({ minus, lead, zeros, fraction, exponent }) => {
        const e = exponent === null ? '' : `${exponent.mark}${exponent.plus && exponent.value >= 0 ? '+' : ''}${exponent.value}`;
        return `${minus ? '-' : ''}${lead}${'0'.repeat(zeros)}${fraction ? '.5' : ''}${e}`;
      });
    const item = fc.tuple(space, numberText, space).map(([before, number, after]) => `${before}${number}${after}`);
    fc.assert(
      fc.property(fc.array(item, { minLength: 1, maxLength: 5 }), fc.constantFrom('root', 'array', 'object'), (numbers, shape) => {
        const text = shape === 'root' ? numbers[0]! : shape === 'array' ? `[${numbers.join(',')}]` : `{${numbers.map((n, i) => `"k${i}":${n}`).join(',')}}`;
        const parsed = JSON.parse(text) as unknown;
        const values = shape === 'root' ? [parsed as number] : Object.values(parsed as object) as number[];
        const names = (i: number) => (shape === 'root' ? '(body)' : shape === 'array' ? String(i) : `k${i}`);
        const expected = values.flatMap((n, i) => (Number.isFinite(n) ? [] : [names(i)]));
        expect(numbersOutOfRange(parsed)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('finds nothing in any JSON that JSON.stringify writes (what every game client sends)', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => numbersOutOfRange(JSON.parse(JSON.stringify(value))).length === 0));
  });
});

describe('the relay', () => {
  it('refuses 1e400 in metadata with 400 VALIDATION_ERROR naming it, and forwards nothing', async () => {
    const { relay: faked, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    const answer = await read(await faked.fetch(relayRequest('POST', RELAY_ROUTES.playtime, withMetadata('{"score":1e400}'), 'alice')));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'sessions.1.metadata.score', message: OUT_OF_RANGE_MESSAGE }] });
    expect(fake.calls).toEqual([]);
  });

  it('refuses it in web view metadata too', async () => {
    const { relay: faked, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    const text = '{"codeChallenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","metadata":{"n":[1e999]}}';
    const answer = await read(await faked.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, text, 'alice')));
    expect([answer.status, answer.body.code, answer.body.details]).toEqual([400, 'VALIDATION_ERROR', [{ path: 'metadata.n.0', message: OUT_OF_RANGE_MESSAGE }]]);
    expect(fake.calls).toEqual([]);
  });

  it('says what is wrong with durationSeconds: 1e400', async () => {
    const text = JSON.stringify({ sessions: [session('alice', 5)] }).replace('"durationSeconds":60', '"durationSeconds":1e400');
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, text, 'alice')));
    expect([answer.status, answer.body.code, answer.body.details]).toEqual([400, 'VALIDATION_ERROR', [{ path: 'sessions.0.durationSeconds', message: OUT_OF_RANGE_MESSAGE }]]);
  });

  it('still forwards the largest finite number, and the service stores it as it was written', async () => {
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, withMetadata('{"max":1.7976931348623157e308,"tiny":5e-324}', 'fin'), 'alice')));
    expect(answer.status).toBe(200);
    const stored = emulator.state().sessions.find((s) => s.sessionId === 'fin-1') as { metadata?: unknown } | undefined;
    expect(stored?.metadata).toEqual({ max: Number.MAX_VALUE, tiny: 5e-324 });
  });
});

describe('the emulator', () => {
  it('refuses 1e400 in metadata with 400 VALIDATION_ERROR naming it, and stores nothing', async () => {
    const raw = JSON.stringify(sessionBody('oor-single', { metadata: { level: 3, score: 0 } })).replace('"score":0', '"score":-1e400');
    const answer = await call('POST', '/v1/server/playtime/sessions', { raw });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'metadata.score', message: OUT_OF_RANGE_MESSAGE }] });
    expect(emulator.state().sessions.some((s) => s.sessionId === 'oor-single')).toBe(false);
  });

  it('says what is wrong with durationSeconds: 1e400', async () => {
    const raw = JSON.stringify(sessionBody('oor-duration')).replace('"durationSeconds":60', '"durationSeconds":1e400');
    const answer = await call('POST', '/v1/server/playtime/sessions', { raw });
    expect([answer.status, answer.body.code, answer.body.details]).toEqual([400, 'VALIDATION_ERROR', [{ path: 'durationSeconds', message: OUT_OF_RANGE_MESSAGE }]]);
  });
});

describe('with an object made enumerable on Object.prototype (a prototype pollution in another package of the game server)', () => {
  /** Runs `body` while `Object.prototype.polluted` is an enumerable `{ deep: 1 }`, as lodash's merge of `__proto__` leaves it. */
  async function polluted<T>(body: () => Promise<T>): Promise<T> {
    (Object.prototype as Record<string, unknown>)['polluted'] = { deep: 1 };
    try {
      return await body();
    } finally {
      delete (Object.prototype as Record<string, unknown>)['polluted'];
    }
  }

  it('the walk reads only own keys: no stack overflow, and 1e400 still found', async () => {
    await polluted(async () => {
      expect(numbersOutOfRange(JSON.parse('{"a":{"b":[1,{"c":2}]}}'))).toEqual([]);
      expect(numbersOutOfRange(JSON.parse('{"a":{"b":1e400}}'))).toEqual(['a.b']);
    });
  });

  it('the relay still forwards a batch and answers 200 (a RangeError there was a 500 to every client)', async () => {
    const { relay: faked, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    const answer = await polluted(async () => read(await faked.fetch(relayRequest('POST', RELAY_ROUTES.playtime, withMetadata('{"level":3}', 'pol'), 'alice'))));
    expect([answer.status, answer.body.data]).toMatchObject([200, { totalRequested: 2, successful: 2, failed: 0 }]);
    expect(fake.calls).toHaveLength(1);
  });
});
