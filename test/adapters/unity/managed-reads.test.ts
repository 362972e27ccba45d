/**
 * The managed SDK (outside WebGL) takes a read's or relay call's `data` only in the shape the call returns, as the
 * JavaScript SDK's transport does (core/http/transport.ts `success`; docs/decisions.md "A success with no `data`"):
 * an object for one item (a campaign, a creator, a boost, the web view token), a list for a list. Every other success
 * is the same ResponseValidationError INVALID_RESPONSE, message and status as the JavaScript SDK's, computed here from
 * it for the same answers (csharp/ManagedReadsProbe.cs plays them through the game's own API and the bridge). Before,
 * `{ data: null }` reached the game as a null Campaign (or as "no boost"), `{ data: {} }` as an empty list of
 * creators, and a 204 after a boost change as a null BoostRecord. In a WebGL player the JavaScript SDK itself answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { CampaignClient } from '../../../core/client/campaign-client.js';
import { relayCaller } from '../../../core/relay/client-request.js';
import { aotProgram, runMono } from '../../contract/cs-runner/mono.js';
import { createFakeFetch, reply } from '../../helpers/fake-fetch.js';
import { deviceProbeOnce } from './device-probe.js';

const work = mkdtempSync(join(tmpdir(), 'unity-managed-reads-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const probe = deviceProbeOnce(join(work, 'reads.exe'), 'ManagedReadsProbe', { runner: [] });

type Call = 'campaigns.get' | 'campaigns.listCreators' | 'creators.get' | 'creators.search' | 'boost.change' | 'boost.current' | 'webview.open';

const campaign = { campaignId: 'camp-1', projectId: 'p-1', campaignName: { en: 'Summer' }, status: 'active' };
const creator = { creatorKey: 'ABC12', creatorName: 'Star' };
const boost = { userId: 'reader', campaignId: 'camp-1', creatorKey: 'ABC12', isActive: true, sponsoredAt: '2026-06-01T12:00:00.000Z' };
const token = { url: 'https://view.example/wv', ott: 'ott_1' };

/** [call, status, body (undefined: none, a 204), what the C# game gets when the answer is taken]. */
const ANSWERS: [Call, number, unknown, string?][] = [
  ['campaigns.get', 200, { data: null }],
  ['campaigns.get', 200, { data: [] }],
  ['campaigns.get', 200, { data: [campaign] }],
  ['campaigns.get', 200, {}],
  ['campaigns.get', 200, 'not JSON: a proxy page'],
  ['campaigns.get', 200, { data: campaign }, 'Campaign'],
  ['campaigns.listCreators', 200, { data: null }],
  ['campaigns.listCreators', 200, { data: {} }],
  ['campaigns.listCreators', 200, { data: creator }],
  ['campaigns.listCreators', 200, { data: [] }, '0 items'],
  ['campaigns.listCreators', 200, { data: [creator, creator] }, '2 items'],
  ['creators.get', 200, { data: null }],
  ['creators.get', 200, { data: [creator] }],
  ['creators.get', 200, { data: creator }, 'Creator'],
  ['creators.search', 200, { data: {} }],
  ['creators.search', 200, { data: null }],
  ['creators.search', 200, { data: [creator] }, '1 items'],
  ['boost.change', 200, { data: null }],
  ['boost.change', 200, { data: [] }],
  ['boost.change', 204, undefined],
  ['boost.change', 200, { data: boost }, 'BoostRecord'],
  ['boost.current', 200, { data: null }],
  ['boost.current', 200, { data: [boost] }],
  ['boost.current', 200, { data: boost }, 'BoostRecord'],
  ['webview.open', 200, { data: null }],
  ['webview.open', 200, { data: [] }],
  ['webview.open', 200, { data: token }, 'opened 1'],
  // Error answers: only the spec's error body (one with a `code`) gives the error its message; a framework's or an AWS
  // HTTP API's `{ message }` is not the service's (before, both SDKs took it, and Boost.Current read it as "no boost").
  ['campaigns.get', 404, { message: 'Not Found' }],
  ['creators.get', 404, { status: 404, error: 'Not Found', code: 'NOT_FOUND', message: 'No creator ABC12' }],
  ['boost.current', 404, { message: 'Route GET:/v1/client/sponsors/user/reader not found', error: 'Not Found', statusCode: 404 }],
  ['boost.change', 401, { message: 'session expired' }],
  ['boost.change', 400, { status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: 'Boost can be changed again in 12 days' }],
];

/** The JavaScript SDK's call for the same answer: the client's reads, and the relay calls as core/boost and core/webview make them. */
function javascriptCall(call: Call, fetch: (input: string | Request, init?: RequestInit) => Promise<Response>): Promise<unknown> {
  const client = new CampaignClient({ clientKey: 'ck_g1_sandbox:secret', fetch, maxRetries: 0 });
  const relay = relayCaller({ relay: { url: 'https://g1.example/sandbox/campaign' }, fetch, maxRetries: 0 });
  switch (call) {
    case 'campaigns.get':
      return client.campaigns.get('camp-1');
    case 'campaigns.listCreators':
      return client.campaigns.listCreators('camp-1');
    case 'creators.get':
      return client.creators.get('ABC12');
    case 'creators.search':
      return client.creators.search({ query: 'star' });
    case 'boost.change':
      return relay({ method: 'PUT', path: '/sponsor', body: { newCreatorKey: 'ABC12', campaignId: 'camp-1' }, answer: 'BoostRecord', cooldown: true });
    case 'boost.current':
      return client.sponsors.get('reader');
    case 'webview.open':
      return relay({ method: 'POST', path: '/webview/ott', body: { codeChallenge: 'c' }, answer: 'OneTimeToken' });
  }
}

/** What the JavaScript SDK gives each answer: the C# result named in the table when it resolves, else its error's fields. */
async function javascriptOutcome([call, status, body, taken]: (typeof ANSWERS)[number]): Promise<unknown> {
  const answer = body === undefined ? reply.noContent() : typeof body == 'string' ? reply.text(status, body) : reply.json(status, body);
  const fake = createFakeFetch(answer);
  return javascriptCall(call, fake.fetch).then(
    () => `ok: ${taken ?? 'the table names no result'}`,
    (error: { name: string; code: string; status?: number; message: string }) => ({ name: error.name, code: error.code, status: error.status ?? null, message: error.message }),
  );
}

it("refuses data of the wrong shape on every read and relay call with the JavaScript SDK's error, and takes the right shape", () => played(probe(), 'jit'), 120_000);

// iOS and IL2CPP players run no JIT: the same answers fully ahead of time.
it('mono full AOT: the same', () => played(aotProgram(probe(), join(work, 'aot')), 'full-aot'), 600_000);

async function played(exe: string, mode: 'jit' | 'full-aot'): Promise<void> {
  const expected = await Promise.all(ANSWERS.map(javascriptOutcome));
  // The table's refusals of successes are the transport's own: ResponseValidationError INVALID_RESPONSE naming the status and schema.
  expect(expected.filter((outcome, i) => typeof outcome != 'string' && ANSWERS[i]![1] < 300)).toEqual(
    ANSWERS.filter(([, status, , taken]) => !taken && status < 300).map(() => expect.objectContaining({ name: 'ResponseValidationError', code: 'INVALID_RESPONSE' })),
  );
  const table = ANSWERS.map(([call, status, body]) => [call, status, body === undefined ? null : typeof body == 'string' ? body : JSON.stringify(body)]);
  const { status, stdout, stderr } = runMono(exe, [join(work, `device-${mode}`), JSON.stringify(table)], mode);
  expect(status, stderr).toBe(0);
  const outcomes = JSON.parse(stdout) as unknown[];
  expect(ANSWERS.map(([call, answerStatus, body], i) => [call, answerStatus, body, outcomes[i]])).toEqual(ANSWERS.map(([call, answerStatus, body], i) => [call, answerStatus, body, expected[i]]));
}
