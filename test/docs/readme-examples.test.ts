/**
 * README.md's game server and webhook blocks run as a studio copies them, against the emulator (as
 * test/docs/guide-examples.test.ts runs the guides'): each block is written to build/doc-examples/ and imported, the
 * SDK's name resolving to dist/ (Node's package self-reference), with only what points it at this machine changed
 * (`environment`, the port) and the game's own declarations (its purchases, its auth, the delivery it received)
 * given values. Compiling alone (test/docs/docs.test.ts) does not show the calls do what the comments say.
 */
import { existsSync, readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { edit, runAsModule } from '../helpers/guide-code.js';
import { signWebhook } from '../../core/server/index.js';
import { startEmulator, type RunningEmulator } from '../../emulator/index.js';
// @ts-expect-error: a plain ES module script without types
import { tsBlocks } from '../../scripts/doc-snippets.mjs';
import { paymentItem } from '../core/schema/samples.js';

const ROOT = join(import.meta.dirname, '../..');
const OUT = join(ROOT, 'build/doc-examples');

/** README's block holding `containing`, `edits` applied (each failing when the block no longer holds what it replaces). */
function readmeBlock(containing: string, edits: Array<[string, string]>): string {
  const block = (tsBlocks(readFileSync(join(ROOT, 'README.md'), 'utf8')) as Array<{ code: string }>).find((candidate) => candidate.code.includes(containing));
  expect(block, `README.md: a block with ${containing}`).toBeDefined();
  let code = block!.code;
  for (const [from, to] of edits) code = edit(code, from, to);
  return code;
}

/** Imports `code` as a module of its own. */
const run = <T>(name: string, code: string) => runAsModule<T>(OUT, name, code);

describe("README.md's server-side blocks against the emulator", () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    if (!existsSync(join(ROOT, 'dist/server.js'))) throw new Error('dist/ is missing: run `npm run build`');
    emulator = await startEmulator({ port: 0 });
    process.env['CAMPAIGN_SERVER_KEY'] = emulator.serverKey;
  });
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    delete process.env['CAMPAIGN_SERVER_KEY'];
    delete process.env['WEBHOOK_SECRET'];
    await emulator.close();
  });

  it('"The game server": redeems, registers the purchases, walks the usage, and the relay it serves records a signed-in player\'s session', async () => {
    const warned = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const logged = vi.spyOn(console, 'log').mockImplementation(() => {});
    const code = readmeBlock('createNodeServer(relay)', [
      ["environment: 'sandbox'", `environment: { baseUrl: ${JSON.stringify(emulator.url)} }`],
      ["declare const payments: BulkPaymentRequest['payments'];", `const payments: BulkPaymentRequest['payments'] = [${JSON.stringify({ ...paymentItem, userId: 'user-1', transactionId: 'tx-readme' })}];`],
      ['declare function yourSession(request: Request): Promise<{ userId: string } | null>;', "const yourSession = async (request: Request) => (request.headers.get('authorization') === 'Bearer player-token' ? { userId: 'player-1' } : null);"],
      ['createNodeServer(relay).listen(8080);', "export const listening = createNodeServer(relay).listen(0, '127.0.0.1');"],
    ]);
    const { listening } = await run<{ listening: Server }>('readme-server', code);
    try {
      expect(warned).not.toHaveBeenCalled(); // WELCOME was redeemed
      expect(emulator.state().couponUsages).toEqual([expect.objectContaining({ couponCode: 'WELCOME', userId: 'user-1' })]);
      expect(emulator.state().payments.map((payment) => payment.transactionId)).toEqual(['tx-readme']);
      expect(logged.mock.calls).toEqual([['WELCOME']]);

      if (!listening.listening) await new Promise((resolve) => listening.once('listening', resolve));
      const relayUrl = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/campaign`;
      const now = Date.now();
      const session = { sessionId: 'readme-1', userId: 'player-1', durationSeconds: 300, startedAt: new Date(now - 600_000).toISOString(), endedAt: new Date(now - 300_000).toISOString() };
      const post = (authorization: string) =>
        fetch(`${relayUrl}/playtime/sessions`, { method: 'POST', headers: { authorization, 'content-type': 'application/json' }, body: JSON.stringify({ sessions: [session], sentAt: new Date(now).toISOString() }) });
      expect((await post('Bearer someone-else')).status).toBe(401);
      expect((await post('Bearer player-token')).status).toBe(200);
      expect(emulator.state().sessions.map((stored) => [stored.sessionId, stored.userId])).toEqual([['readme-1', 'player-1']]);
    } finally {
      await new Promise((resolve) => listening.close(resolve));
    }
  });

  // A reward of another shape than we assume (the spec shows no payload) is left out of `event.data`: the block
  // grants nothing then, rather than `grant(userId, undefined)` (README before checked only `userId`).
  it.each([
    ['its reward to its user', [{ itemName: { en: 'Gem' }, itemId: 'item_gem', itemQuantity: 50 }], 1],
    ['nothing when the reward is not of the assumed shape', [{ itemId: 'item_gem', quantity: 50 }], 0],
  ])('"Webhooks": verifies a signed coupon.redeemed delivery over its raw bytes and grants %s', async (_, reward, grants) => {
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    process.env['WEBHOOK_SECRET'] = secret;
    const event = { id: 'evt-1', type: 'coupon.redeemed', createdAt: new Date().toISOString(), data: { userId: 'user-9', couponCode: 'WELCOME', reward } };
    const payload = JSON.stringify(event);
    const { headers } = signWebhook({ payload, secret });
    const granted = vi.fn();
    (globalThis as Record<string, unknown>)['readmeGrant'] = granted;
    try {
      const code = readmeBlock('verifyWebhook({ payload: rawBody', [
        ['declare const req: IncomingMessage, rawBody: Buffer;', `const req = { headers: ${JSON.stringify(headers)} } as unknown as IncomingMessage; const rawBody = Buffer.from(${JSON.stringify(payload)});`],
        ['declare function grant(userId: string, reward: unknown): void;', 'const grant = (globalThis as unknown as { readmeGrant(userId: string, reward: unknown): void }).readmeGrant;'],
      ]);
      await run(`readme-webhook-${grants}`, code);
      expect(granted.mock.calls).toEqual(grants ? [['user-9', reward]] : []);
    } finally {
      delete (globalThis as Record<string, unknown>)['readmeGrant'];
    }
  });
});
