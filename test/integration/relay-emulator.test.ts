/**
 * The relay's web view and boost routes against the emulator (in-process): the token works at the web
 * view host for the authenticated user only, and the service's typed errors reach the client intact.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createEmulator, DEMO_BOOSTED_CREATORS, DEMO_CREATOR_KEYS, DEMO_USERS, type Emulator } from '../../emulator/index.js';
import { createRelay, RELAY_ROUTES } from '../../core/relay/index.js';
import { CampaignServer } from '../../core/server/index.js';

const BASE = 'http://emulator.local';
let emulator: Emulator | undefined;
afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
});

function setup() {
  const emu = (emulator = createEmulator());
  const server = new CampaignServer({ serverKey: emu.serverKey, environment: { baseUrl: BASE }, fetch: emu.fetch, maxRetries: 0 });
  const relay = createRelay({ server, authenticate: (request) => ({ userId: request.headers.get('x-user') ?? '' }) });
  const call = async (method: string, route: string, user: string, body: unknown) => {
    const response = await relay.fetch(
      new Request(`http://game.local/campaign${route}`, { method, headers: { 'content-type': 'application/json', 'x-user': user }, body: JSON.stringify(body) }),
    );
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };
  return { emu, call };
}

describe('relay -> emulator: web view token', () => {
  it('issues a token bound to the authenticated user that the web view host exchanges with the verifier', async () => {
    const { emu, call } = setup();
    const verifier = 'v'.repeat(20) + '-._~' + 'A1'.repeat(12);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const answer = await call('POST', RELAY_ROUTES.webviewToken, 'player-7', { codeChallenge: challenge, userId: 'someone-else', showCampaignDetail: true });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ ott: expect.any(String), expiresIn: 60, url: `${BASE}/webview` });

    const exchange = await emu.fetch(
      new Request(`${BASE}/v1/webview/sessions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ott: answer.body.data.ott, codeVerifier: verifier }) }),
    );
    expect(exchange.status).toBe(200);
    const session = ((await exchange.json()) as { data: { userId: string; showCampaignDetail: boolean } }).data;
    expect([session.userId, session.showCampaignDetail]).toEqual(['player-7', true]);
  });
});

describe('relay -> emulator: boost change', () => {
  it('changes the boost of a user whose cooldown is over', async () => {
    const { call } = setup();
    const newCreatorKey = DEMO_CREATOR_KEYS.find((key) => key !== DEMO_BOOSTED_CREATORS.changeable) as string;
    const answer = await call('PUT', RELAY_ROUTES.sponsor, DEMO_USERS.changeable, { newCreatorKey });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ userId: DEMO_USERS.changeable, creatorKey: newCreatorKey, isActive: true });
  });

  it('passes the cooldown 400 through with the days remaining', async () => {
    const { call } = setup();
    const answer = await call('PUT', RELAY_ROUTES.sponsor, DEMO_USERS.inCooldown, { newCreatorKey: DEMO_BOOSTED_CREATORS.changeable });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 400, error: 'Bad Request', code: 'BAD_REQUEST', message: 'Boost can be changed again in 20 days' });
  });

  it('passes the 404 for an unknown creator through', async () => {
    const { call } = setup();
    const answer = await call('PUT', RELAY_ROUTES.sponsor, DEMO_USERS.changeable, { newCreatorKey: 'ZZZZ9' });
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('NOT_FOUND');
    expect(answer.body.status).toBe(404);
  });

  it('answers 503 with Retry-After while the service fails every request', async () => {
    const { emu, call } = setup();
    emu.setFaults({ errorRate: 1 });
    const answer = await call('PUT', RELAY_ROUTES.sponsor, DEMO_USERS.changeable, { newCreatorKey: 'NOVA1' });
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('INTERNAL_ERROR');
    expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });
});
