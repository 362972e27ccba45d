/**
 * The two runners' fake relays answer what a tracker could send wrong as the real relay (core/relay/relay.ts, its
 * router, and core/relay/playtime.ts `answerPlaytime`) and a network do, and each counts it a contract violation alike:
 * relays.ts and cs-runner/FakeRelay.cs (on mono, relay-probe/FakeRelayProbe.cs), the same requests. Before (found by
 * p41), a URL no relay is at was a 404 from the C# fake and a connection error from the TypeScript one, and a batch
 * without `sentAt` failed a scenario on the C# runner only.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { csFiles, mcs, packageSources, runMono } from './cs-runner/mono.js';
import { createRelays, relayUrl } from './relays.js';

const session = { sessionId: '11111111-1111-4111-8111-111111111111', userId: 'p1', startedAt: '2026-06-01T12:00:00.000Z', endedAt: '2026-06-01T12:00:05.000Z', durationSeconds: 5 };
const SENT_AT = '2026-06-01T12:00:06.000Z';
const route = `${relayUrl('g1', 'sandbox')}/playtime/sessions`;
const body = (fields: Record<string, unknown>) => JSON.stringify({ sessions: [session], isTest: true, ...fields });

/** Each request, and what both fakes must answer (as the real relay and network would) and count. */
const REQUESTS = [
  { what: 'the playtime route', method: 'POST', url: route, body: body({ sentAt: SENT_AT }), expected: { status: 200, code: null, violations: 0, sends: 1, received: 1 } },
  { what: 'a batch without sentAt (the real relay takes it: no shift)', method: 'POST', url: route, body: body({}), expected: { status: 200, code: null, violations: 1, sends: 1, received: 1 } },
  { what: 'a sentAt that is no Timestamp (the real relay: 400)', method: 'POST', url: route, body: body({ sentAt: 'yesterday' }), expected: { status: 400, code: 'VALIDATION_ERROR', violations: 0, sends: 1, received: 0 } },
  { what: 'another route of the relay (404)', method: 'POST', url: `${relayUrl('g1', 'sandbox')}/playtime`, body: body({ sentAt: SENT_AT }), expected: { status: 404, code: 'NOT_FOUND', violations: 1, sends: 1, received: 0 } },
  { what: 'the relay itself, no route (404)', method: 'POST', url: relayUrl('g1', 'live'), body: body({ sentAt: SENT_AT }), expected: { status: 404, code: 'NOT_FOUND', violations: 1, sends: 1, received: 0 } },
  { what: 'another method on the route (405)', method: 'PUT', url: route, body: body({ sentAt: SENT_AT }), expected: { status: 405, code: 'BAD_REQUEST', violations: 1, sends: 1, received: 0 } },
  { what: 'an environment no relay serves', method: 'POST', url: 'https://g1.example/staging/campaign/playtime/sessions', body: body({ sentAt: SENT_AT }), expected: { status: 'connection error', code: null, violations: 1, sends: 0, received: 0 } },
  { what: 'a host no relay is at', method: 'POST', url: 'https://relay.invalid/campaign/playtime/sessions', body: body({ sentAt: SENT_AT }), expected: { status: 'connection error', code: null, violations: 1, sends: 0, received: 0 } },
];

/** What relays.ts answers each request, on a fresh set of relays each. */
async function typeScriptOutcomes() {
  const outcomes = [];
  for (const { method, url, body } of REQUESTS) {
    const relays = createRelays();
    let status: number | string = 'connection error';
    let code: unknown = null;
    try {
      const response = await relays.fetch(url, { method, headers: { authorization: 'Bearer p1', 'content-type': 'application/json' }, body });
      status = response.status;
      code = ((await response.json()) as { code?: unknown }).code ?? null;
    } catch (error) {
      if (!(error instanceof TypeError)) throw error;
    }
    outcomes.push({ status, code, violations: relays.violations.length, sends: relays.sends(), received: relays.received.length });
  }
  return outcomes;
}

const work = mkdtempSync(join(tmpdir(), 'contract-relay-parity-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the contract fake relays agree (relays.ts, cs-runner/FakeRelay.cs)', () => {
  it('answer and count a wrong route, method, host or sentAt as the real relay and the network do', async () => {
    const expected = REQUESTS.map((request) => ({ what: request.what, ...request.expected }));
    const typeScript = await typeScriptOutcomes();
    expect(REQUESTS.map(({ what }, index) => ({ what, ...typeScript[index] }))).toEqual(expected);
    const cases = join(work, 'requests.json');
    writeFileSync(cases, JSON.stringify(REQUESTS.map(({ method, url, body }) => ({ method, url, body }))));
    const exe = join(work, 'FakeRelayProbe.exe');
    mcs(['-target:exe', `-out:${exe}`, ...packageSources(), join(import.meta.dirname, 'cs-runner', 'FakeRelay.cs'), ...csFiles(join(import.meta.dirname, 'relay-probe'))]);
    const { status, stdout, stderr } = runMono(exe, [cases], 'jit');
    expect(status, stderr).toBe(0);
    const csharp = JSON.parse(stdout) as Record<string, unknown>[];
    expect(REQUESTS.map(({ what }, index) => ({ what, ...csharp[index], code: csharp[index]!['code'] ?? null }))).toEqual(expected);
  }, 120_000);

  // A fake that answered inside the call let a game's Flush() send, hear a 503 and end within the call, so the background
  // flush of the same frame sent a second request where TypeScript's joined the first (p60's flush-then-leave; p61:
  // scenario flush-and-leave-relay-503.json, about 3 runs in 100 under load). This holds the fake to Unity's rule at once.
  it('C#: the fake relay is heard on a later turn of the main thread, never inside the call, as UnityWebRequest is', () => {
    const exe = join(work, 'FakeRelayTurnProbe.exe');
    const runner = join(import.meta.dirname, 'cs-runner');
    mcs(['-target:exe', `-out:${exe}`, ...packageSources(), join(runner, 'FakeRelay.cs'), join(runner, 'MainLoop.cs'), ...csFiles(join(import.meta.dirname, 'answer-turn-probe'))]);
    const { status, stdout, stderr } = runMono(exe, [route, body({ sentAt: SENT_AT })], 'jit');
    expect(status, stderr).toBe(0);
    expect(JSON.parse(stdout)).toEqual({ heardInTheCall: false, heardAfterATurn: true, status: 200 });
  }, 120_000);
});
