/**
 * The server, relay and webhooks guides' examples run as a studio copies them, against the emulator: each block (with
 * the block it continues, `<!-- snippet: continues -->`) is written to build/doc-examples/ and imported, with only
 * what points it at the emulator instead of the service changed (`environment`), its keys in the environment
 * variables it reads, and the game's own functions it declares (`playerOfToken`, `grant`) defined as globals. The
 * SDK's own name resolves to dist/ (Node's package self-reference), as in test/docs/testing-guide.test.ts. The relay
 * guide's Bun and Deno blocks run on Bun and Deno from their npm packages (the type check declares those runtimes'
 * globals by stand-ins, test/docs/runtime-globals.d.ts: running them shows the stand-ins' shapes are the runtimes').
 * Compiling alone (test/docs/docs.test.ts) does not show a block that calls the API wrongly at run time: the
 * webhooks guide's handler read `rawBody` and `req`, names no server has.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { edit, runAsModule } from '../helpers/guide-code.js';
import { createNodeServer } from '../../adapters/node/index.js';
import { CampaignServer, signWebhook } from '../../core/server/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { paymentItem } from '../core/schema/samples.js';

const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'build/doc-examples');

type Block = { line: number; code: string; mark?: string };

/** The block of a guide holding `containing`, joined to the blocks it continues. */
function example(guide: string, containing: string): string {
  const blocks = tsBlocks(readFileSync(join(ROOT, guide), 'utf8')) as Block[];
  const index = blocks.findIndex((block) => block.code.includes(containing));
  expect(index, `${guide}: a block with ${containing}`).toBeGreaterThanOrEqual(0);
  let code = blocks[index]!.code;
  for (let i = index; blocks[i]!.mark === 'continues'; i--) code = `${blocks[i - 1]!.code}\n${code}`;
  return code;
}

/** Imports `code` as a module of its own. */
const run = <T>(name: string, code: string) => runAsModule<T>(OUT, name, code);

describe('the server, relay and webhooks guides run against the emulator', () => {
  let emulator: RunningEmulator;
  let server: CampaignServer;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/server.js'))) throw new Error('dist/ is missing: run `npm run build` (npm test does it first)');
    emulator = await startEmulator({ port: 0 });
    server = new CampaignServer({ serverKey: emulator.serverKey, environment: { baseUrl: emulator.url } });
    process.env['CAMPAIGN_SERVER_KEY'] = emulator.serverKey;
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    delete process.env['CAMPAIGN_SERVER_KEY'];
    delete process.env['WEBHOOK_SECRET'];
    delete (globalThis as Record<string, unknown>)['playerOfToken'];
    delete (globalThis as Record<string, unknown>)['grant'];
    await emulator.close();
  });

  it('docs/guides/server.md: the client and its per-call options read a payment and walk a user\'s coupon usage', async () => {
    await server.payments.registerBulk({ payments: [{ ...paymentItem, userId: 'user-1', transactionId: 'tx-1' }] });
    await server.coupons.redeem({ couponCode: 'WELCOME', userId: 'user-1' });
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    let code = example('docs/guides/server.md', 'listUsage(');
    code = edit(code, "environment: 'sandbox',", `environment: { baseUrl: ${JSON.stringify(emulator.url)} },`);
    await run('server', code);
    expect(logged.mock.calls).toEqual([['WELCOME']]);
    // The logger option heard the requests it says it hears.
    expect(debug.mock.calls.map(([type, method]) => `${type} ${method}`)).toContain('request GET');
  });

  it('docs/guides/relay.md: the relay binds the player from authenticate and records the session', async () => {
    (globalThis as Record<string, unknown>)['playerOfToken'] = async (token: string) => (token === 'token-of-player-1' ? 'player-1' : undefined);
    let code = example('docs/guides/relay.md', 'playerOfToken');
    code = edit(code, "environment: 'live'", `environment: { baseUrl: ${JSON.stringify(emulator.url)} }`);
    const { relay } = await run<{ relay: { fetch(request: Request): Promise<Response> } }>('relay', `${code}\nexport { relay };\n`);
    const now = Date.now();
    const session = { sessionId: 'guide-relay-1', userId: 'player-1', durationSeconds: 300, startedAt: new Date(now - 600_000).toISOString(), endedAt: new Date(now - 300_000).toISOString() };
    const post = (authorization: string) =>
      relay.fetch(new Request('https://game.example/campaign/playtime/sessions', {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json' },
        body: JSON.stringify({ sessions: [session], sentAt: new Date(now).toISOString() }),
      }));
    expect((await post('Bearer someone-else')).status).toBe(401);
    const answer = await post('Bearer token-of-player-1');
    expect(answer.status).toBe(200);
    expect(emulator.state().sessions.map((stored) => [stored.sessionId, stored.userId])).toContainEqual(['guide-relay-1', 'player-1']);
  });

  it('docs/guides/webhooks.md: the handler and the receiver grant a redeemed coupon delivered by the emulator', async () => {
    const grant = vi.fn();
    (globalThis as Record<string, unknown>)['grant'] = grant;
    let handlers: Record<string, (request: Request) => Promise<Response>> = {};
    const http = createNodeServer({ fetch: (request: Request) => {
      const handler = handlers[new URL(request.url).pathname];
      return handler ? handler(request) : Promise.resolve(new Response(null, { status: 404 }));
    } });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
      const first = await server.webhooks.create({ url: `${base}/handler`, eventType: 'coupon.redeemed' });
      process.env['WEBHOOK_SECRET'] = first.secret;
      const { onWebhook } = await run<{ onWebhook(request: Request): Promise<Response> }>('webhooks-handler', example('docs/guides/webhooks.md', 'export async function onWebhook(request: Request): Promise<Response> {\n'));
      const second = await server.webhooks.create({ url: `${base}/receiver`, eventType: 'coupon.redeemed' });
      process.env['WEBHOOK_SECRET'] = second.secret;
      const { receiver } = await run<{ receiver: { fetch(request: Request): Promise<Response> } }>(
        'webhooks-receiver',
        `${example('docs/guides/webhooks.md', "console.warn('coupon.redeemed without userId or reward'")}\nexport { receiver };\n`,
      );
      handlers = { '/handler': onWebhook, '/receiver': (request) => receiver.fetch(request) };
      // A delivery the handler cannot verify is refused with its reason.
      const forged = await fetch(`${base}/handler`, { method: 'POST', body: '{}', headers: { 'webhook-id': 'x', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' } });
      expect([forged.status, await forged.text()]).toEqual([401, 'invalid_signature']);
      await server.coupons.redeem({ couponCode: 'WELCOME', userId: 'player-7' });
      await emulator.webhooksIdle();
      const reward = [{ itemName: expect.anything() }];
      expect(grant.mock.calls).toEqual([
        ['player-7', expect.arrayContaining(reward.map((item) => expect.objectContaining(item)))],
        ['player-7', expect.arrayContaining(reward.map((item) => expect.objectContaining(item)))],
      ]);
      expect(emulator.state().deliveries.map((delivery) => delivery.status)).toEqual(['SUCCESS', 'SUCCESS']);
    } finally {
      await new Promise((resolve) => http.close(resolve));
    }
  });
});

/** A runtime's process running an example until it prints the port it listens on. */
async function serveOn(command: string, args: string[], env: NodeJS.ProcessEnv, portOf: RegExp) {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    // Deno.serve prints its "Listening on" to stderr.
    for (const stream of [child.stdout, child.stderr]) {
      stream.on('data', () => {
        const match = portOf.exec(output);
        if (match) resolve(Number(match[1]));
      });
    }
    child.once('exit', (code) => reject(new Error(`${command} exited (${code}) before listening:\n${output}`)));
  });
  return { port, output: () => output, stop: () => child.kill('SIGTERM') };
}

// The two node:http relays the guides show (relay.md's createNodeServer, tracker.md's every option spelled out), as
// written but for the emulator's address and the port (0, exported so the test can reach it).
describe.each([
  {
    guide: 'docs/guides/relay.md',
    containing: 'createNodeServer(relay, {',
    edits: [
      ["environment: 'live'", 'environment: { baseUrl: process.env.EMULATOR_URL! }'],
      ['createNodeServer(relay, { headersTimeout: 10_000, requestTimeout: 30_000 }).listen(8080);', 'export const listening = createNodeServer(relay, { headersTimeout: 10_000, requestTimeout: 30_000 }).listen(0);'],
    ],
    auth: (authorization: string | null) => (authorization === 'Bearer t-1' ? { userId: 'player-1' } : null),
    global: 'sessionUser',
    byRequest: true,
  },
  {
    guide: 'docs/guides/tracker.md',
    containing: 'http.createServer(toNodeHandler(relay)).listen(8080);',
    edits: [
      ['serverKey: process.env.CAMPAIGN_SERVER_KEY!, maxRetries: 1 }', 'serverKey: process.env.CAMPAIGN_SERVER_KEY!, maxRetries: 1, environment: { baseUrl: process.env.EMULATOR_URL! } }'],
      ['http.createServer(toNodeHandler(relay)).listen(8080);', 'export const listening = http.createServer(toNodeHandler(relay)).listen(0);'],
    ],
    auth: (authorization: string | null) => (authorization === 'Bearer t-1' ? { userId: 'player-1' } : null),
    global: 'sessionUser',
    byRequest: false,
  },
])('$guide: the node:http relay', ({ guide, containing, edits, auth, global, byRequest }) => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    Object.assign(process.env, { CAMPAIGN_SERVER_KEY: emulator.serverKey, EMULATOR_URL: emulator.url });
  });
  afterAll(async () => {
    delete (globalThis as Record<string, unknown>)[global];
    delete process.env['EMULATOR_URL'];
    delete process.env['CAMPAIGN_SERVER_KEY'];
    await emulator.close();
  });

  it("records the signed-in player's session and refuses another token", async () => {
    (globalThis as Record<string, unknown>)[global] = async (input: Request | string | null) => auth(byRequest ? (input as Request).headers.get('authorization') : (input as string | null));
    let code = example(guide, containing);
    for (const [from, to] of edits) code = edit(code, from!, to!);
    const { listening } = await run<{ listening: import('node:http').Server }>(`node-relay-${guide.replace(/\W+/g, '-')}`, code);
    try {
      if (!listening.listening) await new Promise((resolve) => listening.once('listening', resolve));
      const now = Date.now();
      const session = { sessionId: 'guide-node-1', userId: 'player-1', durationSeconds: 300, startedAt: new Date(now - 600_000).toISOString(), endedAt: new Date(now - 300_000).toISOString() };
      const post = (authorization: string) =>
        fetch(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/campaign/playtime/sessions`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ sessions: [session], sentAt: new Date(now).toISOString() }),
        });
      expect((await post('Bearer wrong')).status).toBe(401);
      expect((await post('Bearer t-1')).status).toBe(200);
      expect(emulator.state().sessions.map((stored) => [stored.sessionId, stored.userId])).toEqual([['guide-node-1', 'player-1']]);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });
});

describe('docs/guides/webhooks.md, an event of an unknown type', () => {
  afterAll(() => {
    delete (globalThis as Record<string, unknown>)['expireCoupon'];
    delete (globalThis as Record<string, unknown>)['moveFollowers'];
    delete process.env['WEBHOOK_SECRET'];
  });

  it("the handler reads a newer type's field with checks, and the receiver emits it as unknown", async () => {
    const expireCoupon = vi.fn();
    const moveFollowers = vi.fn();
    Object.assign(globalThis, { expireCoupon, moveFollowers });
    const secret = 'whsec_' + Buffer.from('a secret of the guide example').toString('base64');
    process.env['WEBHOOK_SECRET'] = secret;
    const { onWebhook, receiver } = await run<{ onWebhook(request: Request): Promise<Response>; receiver: { fetch(request: Request): Promise<Response> } }>(
      'webhooks-unknown',
      `${example('docs/guides/webhooks.md', "event.type === 'coupon.expired'")}\nexport { receiver };\n`,
    );
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const delivery = (id: string, type: string, data: Record<string, unknown>) => {
      const payload = JSON.stringify({ id, type, createdAt: new Date().toISOString(), data });
      return new Request('https://game.example/webhooks', { method: 'POST', body: payload, headers: { 'content-type': 'application/json', ...signWebhook({ id, payload, secret }).headers } });
    };
    expect((await onWebhook(delivery('evt_1', 'coupon.expired', { couponCode: 'WELCOME' }))).status).toBe(204);
    expect((await onWebhook(delivery('evt_2', 'sponsor.changed', { userId: 'p', oldCreatorKey: 'LUNA7', newCreatorKey: 'NOVA1' }))).status).toBe(204);
    expect(expireCoupon.mock.calls).toEqual([['WELCOME']]);
    expect(moveFollowers.mock.calls).toEqual([['LUNA7', 'NOVA1']]);
    expect((await receiver.fetch(delivery('evt_3', 'coupon.expired', { couponCode: 'DAILY' }))).status).toBe(204);
    await vi.waitFor(() => expect(info.mock.calls.map(([text, type]) => [text, type])).toEqual([['webhook of a newer type', 'coupon.expired']]));
    info.mockRestore();
  });
});

describe.each([
  {
    runtime: 'bun',
    heading: 'Bun.serve(',
    edits: [['serveRelay(8080);', "console.log('listening', serveRelay(0).port);"]],
    command: (file: string) => [join(ROOT, 'node_modules/.bin/bun'), ['run', '--no-install', file]] as const,
    portOf: /listening (\d+)/,
  },
  {
    runtime: 'deno',
    heading: 'Deno.serve(',
    edits: [['Deno.serve({ port: 8080 }', "Deno.serve({ port: 0, hostname: '127.0.0.1' }"]],
    command: (file: string) =>
      [join(ROOT, 'node_modules/.bin/deno'), ['run', '--no-prompt', '--no-remote', '--cached-only', '--no-config', '--node-modules-dir=manual', '--allow-net=127.0.0.1', '--allow-env=CAMPAIGN_SERVER_KEY', file]] as const,
    portOf: /Listening on https?:\/\/[^\s/]+:(\d+)/,
  },
])('docs/guides/relay.md on $runtime', ({ runtime, heading, edits, command, portOf }) => {
  let emulator: RunningEmulator;
  const work = mkdtempSync(join(tmpdir(), `guide-${runtime}-`));
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('serves the relay, which records the signed-in player\'s session and reads the peer address from what the runtime passes', async () => {
    let code = example('docs/guides/relay.md', heading);
    for (const [from, to] of edits) code = edit(code, from!, to!);
    code = edit(code, "environment: 'live'", `environment: { baseUrl: ${JSON.stringify(emulator.url)} }`);
    code = code.replaceAll("from 'game-campaign-sdk/server'", `from ${JSON.stringify(join(ROOT, 'dist/server.js'))}`);
    // The game's own auth the block declares.
    code = `(globalThis as any).sessionUser = async (request: Request) => request.headers.get('authorization') === 'Bearer t-1' ? { userId: 'player-1' } : null;\n${code}`;
    mkdirSync(OUT, { recursive: true });
    const file = join(OUT, `relay-${runtime}.ts`);
    writeFileSync(file, code);
    const [binary, args] = command(file);
    const env = { PATH: process.env['PATH'], HOME: work, NO_COLOR: '1', DENO_DIR: join(work, 'deno'), DENO_NO_UPDATE_CHECK: '1', CAMPAIGN_SERVER_KEY: emulator.serverKey };
    const served = await serveOn(binary, [...args], env, portOf);
    try {
      const now = Date.now();
      const session = { sessionId: `guide-${runtime}-1`, userId: 'player-1', durationSeconds: 300, startedAt: new Date(now - 600_000).toISOString(), endedAt: new Date(now - 300_000).toISOString() };
      const post = (authorization: string) =>
        fetch(`http://127.0.0.1:${served.port}/campaign/playtime/sessions`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ sessions: [session], sentAt: new Date(now).toISOString() }),
        });
      expect((await post('Bearer wrong')).status).toBe(401);
      expect((await post('Bearer t-1')).status).toBe(200);
      expect(emulator.state().sessions.map((stored) => [stored.sessionId, stored.userId])).toEqual([[`guide-${runtime}-1`, 'player-1']]);
      // failedAuthLimit: true found the address in what relay.fetch was handed (else it warns once and limits nothing).
      expect(served.output()).not.toContain('no client address');
    } finally {
      served.stop();
    }
  }, 90_000);
});
