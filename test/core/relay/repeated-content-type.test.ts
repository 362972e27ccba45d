/**
 * A `Content-Type` sent twice arrives joined with ", " (Headers.append, undici, node:http): the relay answered 400 and
 * the emulator 415 to `application/json, application/json`. The same JSON type repeated is now taken; copies that
 * differ (another type, another charset) are refused with a message saying so (core/relay/request-body.ts).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createEmulator } from '../../../emulator/index.js';
import { RELAY_ROUTES } from '../../../core/relay/index.js';
import { conflictingContentType, isJsonContentType } from '../../../core/relay/request-body.js';
import { read, relayOverFakeService, relayRequest, session } from './fake-service.js';
import { caller, sessionBody } from '../../emulator/helpers.js';

const emulator = createEmulator();
afterAll(() => emulator.close());
const call = caller(emulator);

/** The value `Headers.get` gives for the copies, appended one by one. */
function joined(...copies: string[]): string {
  const headers = new Headers();
  for (const copy of copies) headers.append('content-type', copy);
  return headers.get('content-type')!;
}

const SAME = [
  ['application/json', 'application/json'],
  ['application/json', 'application/json; charset=utf-8'],
  ['Application/JSON; charset=UTF-8', 'application/json;charset=utf-8'],
  ['application/vnd.api+json', 'application/vnd.api+json'],
];
const CONFLICTING = [
  ['application/json', 'text/plain'],
  ['text/plain', 'application/json'],
  ['application/json; charset=utf-8', 'application/json; charset=latin1'],
  ['application/json', 'application/vnd.api+json'],
];

describe('isJsonContentType', () => {
  it('takes one JSON type sent more than once, and refuses copies that differ, saying so', () => {
    for (const copies of SAME) expect([copies, isJsonContentType(joined(...copies))]).toEqual([copies, true]);
    for (const copies of CONFLICTING) {
      expect([copies, isJsonContentType(joined(...copies))]).toEqual([copies, false]);
      expect(conflictingContentType(joined(...copies))).toMatch(/^Content-Type was sent more than once with different values/);
    }
  });

  it('reads one value as before, a comma inside a quoted parameter included', () => {
    expect(isJsonContentType('application/json; profile="a,b"')).toBe(true);
    expect(isJsonContentType('text/plain, text/plain')).toBe(false);
    expect(conflictingContentType('text/plain, text/plain')).toBeUndefined();
    expect(isJsonContentType(null)).toBe(false);
    expect(isJsonContentType('')).toBe(false);
  });
});

describe('the relay', () => {
  it('forwards a batch whose Content-Type was sent twice with the same value', async () => {
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    const request = relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [session('alice', 0)] }, 'alice');
    request.headers.append('content-type', 'application/json');
    expect(request.headers.get('content-type')).toBe('application/json, application/json');
    expect((await read(await relay.fetch(request))).status).toBe(200);
    expect(fake.calls.length).toBe(1);
  });

  it('refuses copies that differ with 400 naming the problem, before authenticating', async () => {
    const { relay, fake } = relayOverFakeService({ coalesceWindowMs: 0 });
    const request = relayRequest('POST', RELAY_ROUTES.playtime, { sessions: [session('alice', 0)] }, 'alice');
    request.headers.append('content-type', 'text/plain');
    const answer = await read(await relay.fetch(request));
    expect([answer.status, answer.body.code]).toEqual([400, 'BAD_REQUEST']);
    expect(answer.body.message).toMatch(/^Content-Type was sent more than once with different values/);
    expect(fake.calls).toEqual([]);
  });
});

describe('the emulator', () => {
  it('records a session whose Content-Type was sent twice with the same value', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions', { raw: JSON.stringify(sessionBody('ct-twice')), contentType: joined('application/json', 'application/json') });
    expect(answer.status).toBe(201);
    expect(emulator.state().sessions.some((s) => s.sessionId === 'ct-twice')).toBe(true);
  });

  it('refuses copies that differ with 415 naming the problem', async () => {
    const answer = await call('POST', '/v1/server/playtime/sessions', { raw: JSON.stringify(sessionBody('ct-differ')), contentType: joined('application/json', 'text/plain') });
    expect([answer.status, answer.body.code]).toEqual([415, 'BAD_REQUEST']);
    expect(answer.body.message).toMatch(/^Content-Type was sent more than once with different values/);
    expect(emulator.state().sessions.some((s) => s.sessionId === 'ct-differ')).toBe(false);
  });
});
