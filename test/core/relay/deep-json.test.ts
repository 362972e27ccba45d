/**
 * JSON nesting is capped while reading: the relay scans the text before parsing it, with the very rule the
 * emulator (the service) applies, so 100,000 levels are a 400 VALIDATION_ERROR naming the item, never a 5xx,
 * and nothing is stored.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { MAX_JSON_DEPTH, parsedJsonBreaks, scanJsonDepth } from '../../../core/schema/json-limits.js';
import { MAX_JSON_DEPTH as EMULATOR_MAX_JSON_DEPTH } from '../../../emulator/middleware/json-body.js';
import { read, relayOverFakeService, relayOverEmulator, relayRequest, session, sessions } from './fake-service.js';

/** `levels` objects nested one in the other: `{"a":{"a":...1}}`. */
const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
/** A playtime body whose second session's metadata nests `levels` deep (the body itself: levels + 3). */
const bodyWithMetadata = (levels: number) =>
  JSON.stringify({ sessions: [session('alice', 0), session('alice', 1, { metadata: {} })] }).replace('"metadata":{}', `"metadata":${nested(levels)}`);

const { emulator, relay } = relayOverEmulator();

describe('scanJsonDepth', () => {
  it('measures nesting on the text, as JSON.parse would see it', () => {
    expect(scanJsonDepth('1').depth).toBe(0);
    expect(scanJsonDepth('{}').depth).toBe(1);
    expect(scanJsonDepth('{"a":[1,{"b":[]}]}').depth).toBe(4);
    expect(scanJsonDepth('["[[[[", "\\"[[[", {"k}]": "{{"}]').depth).toBe(2); // brackets in strings, escaped quotes
    expect(scanJsonDepth('["\\\\", [[]]]').depth).toBe(3); // an escaped backslash ends before the quote
  });

  it('names where it went too deep, by the first three path segments', () => {
    expect(scanJsonDepth(nested(3), 2).tooDeep).toEqual(['a.a']);
    expect(scanJsonDepth(bodyWithMetadata(MAX_JSON_DEPTH)).tooDeep).toEqual(['sessions.1.metadata']);
    expect(scanJsonDepth('{"sessions":[{}, {"b\\u0061d": [[[]]]}]}', 4).tooDeep).toEqual(['sessions.1.bad']);
    expect(scanJsonDepth('[[[]]]', 2).tooDeep).toEqual(['0.0']);
    expect(scanJsonDepth('[]', 0).tooDeep).toEqual(['(body)']);
  });

  it('is the emulator rule: one constant, one scan', () => {
    expect(EMULATOR_MAX_JSON_DEPTH).toBe(MAX_JSON_DEPTH);
  });

  it('takes 1,000,000 levels without a stack', () => {
    const text = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(scanJsonDepth(text)).toEqual({ depth: 1_000_000, tooDeep: ['0.0.0'] });
  });
});

describe('parsedJsonBreaks (the relay check of every parsed body; scanJsonDepth then names where)', () => {
  it('says a value is too deep exactly when scanJsonDepth measures its text deeper than the limit', () => {
    const texts = ['1', '{}', '{"a":[1,{"b":[]}]}', '["[[[[", "\\"[[[", {"k}]": "{{"}]', '["\\\\", [[]]]', nested(3), bodyWithMetadata(MAX_JSON_DEPTH - 3), bodyWithMetadata(MAX_JSON_DEPTH)];
    const tooDeep = (text: string, max: number) => parsedJsonBreaks(JSON.parse(text), max) === 'depth';
    for (const text of texts) for (const max of [0, 1, 2, 3, 4, MAX_JSON_DEPTH]) expect([text, max, tooDeep(text, max)]).toEqual([text, max, scanJsonDepth(text, max).depth > max]);
    fc.assert(
      fc.property(fc.json({ depthSize: 'large' }), fc.nat(8), (text, max) => tooDeep(text, max) === scanJsonDepth(text, max).depth > max),
      { numRuns: 500 },
    );
  });

  it('walks no deeper than the limit: 1,000,000 parsed levels, no stack', () => {
    expect(parsedJsonBreaks(JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000)))).toBe('depth');
  });

  it('finds a number beyond a double anywhere, and answers nesting first', () => {
    expect(parsedJsonBreaks(JSON.parse('{"a":[1,{"b":1e400}]}'))).toBe('number');
    expect(parsedJsonBreaks(JSON.parse('{"a":[1,{"b":-1e400}],"c":{"d":2}}'))).toBe('number');
    expect(parsedJsonBreaks(JSON.parse('{"a":[1e400],"b":[[[1]]]}'), 3)).toBe('depth');
    expect(parsedJsonBreaks(JSON.parse('{"a":[1,{"b":1e308}]}'))).toBeUndefined();
  });
});

describe('deep JSON through the relay', () => {
  it('answers 100,000-level metadata with 400 VALIDATION_ERROR naming the item, and stores nothing', async () => {
    const text = bodyWithMetadata(100_000);
    const answer = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, text, 'alice')));
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      status: 400,
      error: 'Bad Request',
      code: 'VALIDATION_ERROR',
      message: `Invalid request: sessions.1.metadata must not be nested deeper than ${MAX_JSON_DEPTH} levels in the request body`,
      details: [{ path: 'sessions.1.metadata', message: `must not be nested deeper than ${MAX_JSON_DEPTH} levels in the request body` }],
    });
    expect(answer.headers.get('retry-after')).toBeNull();
    expect(emulator.state().sessions.filter((s) => s.userId === 'alice')).toEqual([]);
    expect(emulator.state().requests).toEqual({});
  });

  it('forwards the deepest body the service takes (64 levels) and the service stores it; one level more is refused by the relay', async () => {
    const deepest = bodyWithMetadata(MAX_JSON_DEPTH - 3).replace(/s-alice-/g, 's-deep-');
    expect(scanJsonDepth(deepest).depth).toBe(MAX_JSON_DEPTH);
    const ok = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, deepest, 'alice')));
    expect(ok.status).toBe(200);
    expect(ok.body.data.successful).toBe(2);
    const stored = emulator.state().sessions.find((s) => s.sessionId === 's-deep-1') as { metadata?: unknown } | undefined;
    expect(JSON.stringify(stored?.metadata)).toBe(nested(MAX_JSON_DEPTH - 3));

    const over = bodyWithMetadata(MAX_JSON_DEPTH - 2).replace(/s-alice-/g, 's-over-');
    const refused = await read(await relay.fetch(relayRequest('POST', RELAY_ROUTES.playtime, over, 'alice')));
    expect([refused.status, refused.body.code, refused.body.details]).toEqual([400, 'VALIDATION_ERROR', [{ path: 'sessions.1.metadata', message: expect.any(String) }]]);
    expect(emulator.state().sessions.some((s) => s.sessionId.startsWith('s-over-'))).toBe(false);
  });

  it('answers deep web view metadata with 400 too, never a 5xx', async () => {
    const { relay: faked, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    const text = `{"codeChallenge":"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM","metadata":${nested(100_000)}}`;
    const answer = await read(await faked.fetch(relayRequest('POST', RELAY_ROUTES.webviewToken, text, 'alice')));
    expect([answer.status, answer.body.code, answer.body.details]).toEqual([400, 'VALIDATION_ERROR', [{ path: 'metadata.a.a', message: expect.any(String) }]]);
    expect(fake.calls).toEqual([]);
  });

  it('answers a deep array where sessions belong with 400, and the next good batch is recorded', async () => {
    const { relay: faked, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    const text = `{"sessions":${'['.repeat(200_000)}${']'.repeat(200_000)}}`;
    expect((await read(await faked.fetch(relayRequest('POST', RELAY_ROUTES.playtime, text, 'alice')))).status).toBe(400);
    expect(fake.calls).toEqual([]);
    expect((await faked.fetch(relayRequest('POST', RELAY_ROUTES.playtime, { sessions: sessions('alice', 1) }, 'alice'))).status).toBe(200);
  });
});
