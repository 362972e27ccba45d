/**
 * A portal page calling a game's relay served over TLS (`https.createServer(options, toNodeHandler(relay))`) from
 * another origin, in real Chromium: a request whose headers are over node:http's 16 KiB (a session token grown past
 * it) is read by the page as the relay's 431 with its code and message. Before, the 431 behind TLS had no CORS
 * headers (the refused bytes, a later TLS record of the request, did not name its path: adapters/node/request-starts.ts)
 * and the browser hid it ("Failed to fetch"), which the SDK reads as an unreachable relay. The plain-HTTP story is
 * test/browser/relay-raw-errors-cors.test.ts. The certificate is self-signed (fixtures/localhost.*.pem), accepted by
 * this browser context only (`ignoreHTTPSErrors`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../../adapters/node/index.js';
import { relayOverFakeService } from '../../core/relay/fake-service.js';
import { CHROMIUM_PATH, chromiumAvailable } from '../../helpers/chromium.js';
import { serveGame } from '../../helpers/game-server.js';
import { loginThenOversizedToken } from '../../helpers/oversized-token.js';

const TLS_OPTIONS = { key: readFileSync(new URL('fixtures/localhost.key.pem', import.meta.url)), cert: readFileSync(new URL('fixtures/localhost.cert.pem', import.meta.url)) };

describe.runIf(chromiumAvailable())("the relay's 431 over TLS, read by a page of another origin", () => {
  let relayServer: https.Server;
  let relayUrl: string;
  let game: Server;
  let gameOrigin: string;
  let context: BrowserContext;
  const profile = mkdtempSync(join(tmpdir(), 'gc-chromium-'));

  beforeAll(async () => {
    ({ server: game, origin: gameOrigin } = await serveGame({ '/': ['text/html', '<!doctype html><title>game</title>'] }, (_req, res) => res.writeHead(404).end()));
    relayServer = https.createServer(TLS_OPTIONS, toNodeHandler(relayOverFakeService({ cors: { origins: [gameOrigin] } }).relay));
    await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
    relayUrl = `https://127.0.0.1:${(relayServer.address() as AddressInfo).port}/campaign`;
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      ignoreHTTPSErrors: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  });

  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
    game?.close();
    relayServer?.close();
  });

  it('reads a 431 from the relay, with its code and message, after a request answered on the same connection', async () => {
    const page = await context.newPage();
    await page.goto(gameOrigin);
    const answers = await loginThenOversizedToken(page, relayUrl);
    expect(answers[0]).toMatchObject({ status: 401 });
    expect(answers[1]).toMatchObject({ status: 431, body: { status: 431, code: 'BAD_REQUEST', message: expect.stringContaining('HPE_HEADER_OVERFLOW') } });
    await page.close();
  });
});
