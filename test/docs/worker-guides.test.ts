/**
 * The guides' Cloudflare Worker blocks, run on workerd from its npm package as a studio deploys them: each block
 * bundled by esbuild (neutral platform, no shim, no `nodejs_compat`) at the compatibility date the guides name as the
 * minimum, 2024-10-14, its secrets as bindings, changed only where it points at the emulator, with the game's own
 * functions it declares defined as globals. (test/docs/guide-examples.test.ts runs the Node, Bun and Deno blocks.)
 * p60: the webhooks guide's handler, which its comment offered for Workers, read `process.env` at module scope
 * (`process is not defined` there: the Worker never served), and a listener's grant after the 204 was cancelled.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edit } from '../helpers/guide-code.js';
import { signWebhook } from '../../core/webhooks/sign.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
import { launchWorker, type Launched } from '../runtimes/harness.js';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';

const ROOT = join(import.meta.dirname, '../..');

/** The block of `guide` holding `containing`. */
function block(guide: string, containing: string): string {
  const found = (tsBlocks(readFileSync(join(ROOT, guide), 'utf8')) as Array<{ code: string }>).find((candidate) => candidate.code.includes(containing));
  expect(found, `${guide}: a block with ${containing}`).toBeDefined();
  return found!.code;
}

describe("the guides' Worker blocks on workerd dated 2024-10-14", () => {
  let emulator: RunningEmulator;
  let recorder: Server;
  const grants: string[] = [];
  let recorderUrl = '';
  const workers: Launched[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
    // Where the game's `grant` writes (its database), reached from the Worker over loopback.
    recorder = createServer((request, response) => {
      grants.push(request.url ?? '');
      response.end();
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const worker of workers) await worker.stop();
    await new Promise((resolve) => recorder?.close(resolve));
    await emulator?.close();
  });

  it('docs/guides/relay.md: the Worker relay records the signed-in player\'s session', async () => {
    let code = block('docs/guides/relay.md', 'clientAddress: (incoming)');
    code = edit(code, "environment: 'live'", `environment: { baseUrl: ${JSON.stringify(emulator.url)} }`);
    code = `(globalThis as any).sessionUser = async (request: Request) => request.headers.get('authorization') === 'Bearer t-1' ? { userId: 'player-1' } : null;\n${code}`;
    const worker = await launchWorker(code, { CAMPAIGN_SERVER_KEY: emulator.serverKey });
    workers.push(worker);
    const now = Date.now();
    const session = { sessionId: 'guide-worker-1', userId: 'player-1', durationSeconds: 300, startedAt: new Date(now - 600_000).toISOString(), endedAt: new Date(now - 300_000).toISOString() };
    const post = (authorization: string) =>
      fetch(`${worker.url}/campaign/playtime/sessions`, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', 'cf-connecting-ip': '203.0.113.9' },
        body: JSON.stringify({ sessions: [session], sentAt: new Date(now).toISOString() }),
      });
    expect((await post('Bearer wrong')).status, worker.output()).toBe(401);
    expect((await post('Bearer t-1')).status, worker.output()).toBe(200);
    expect(emulator.state().sessions.filter((stored) => stored.sessionId === 'guide-worker-1').map((stored) => stored.userId)).toEqual(['player-1']);
  });

  it("docs/guides/webhooks.md: the Worker receiver starts without process.env and finishes the listener's grant after its 204", async () => {
    const secret = 'whsec_' + Buffer.from('the worker guide secret, 32 B!!').toString('base64');
    // The game's grant: a write that takes its time (a timer, then a request), as a database write does.
    const grant = `(globalThis as any).grant = async (userId: string) => { await new Promise((resolve) => setTimeout(resolve, 50)); await (await fetch(${JSON.stringify(recorderUrl)} + '/grant/' + userId)).text(); };\n`;
    const worker = await launchWorker(grant + block('docs/guides/webhooks.md', 'receiver.fetch(request, ctx)'), { WEBHOOK_SECRET: secret });
    workers.push(worker);
    const payload = JSON.stringify({ id: 'evt_worker_1', type: 'coupon.redeemed', createdAt: new Date().toISOString(), data: { userId: 'player-9', couponCode: 'DAILY', reward: [{ itemName: { en: 'Gem' }, itemId: 'gem', itemQuantity: 1 }] } });
    const answer = await fetch(worker.url, { method: 'POST', headers: { 'content-type': 'application/json', ...signWebhook({ payload, secret }).headers }, body: payload });
    expect(answer.status, worker.output()).toBe(204);
    for (let tries = 0; tries < 40 && grants.length === 0; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(grants, worker.output()).toEqual(['/grant/player-9']);
  });
});
