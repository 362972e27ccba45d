// A portal page calling a game's relay on node:http (toNodeHandler) from another origin, in real Chromium: the 431
// node:http's parser gives a request whose headers are over 16 KiB (a game's oversized session token) now carries the
// spec's error body and the relay's CORS headers (adapters/node/client-error.ts, the relay's cors), so the page reads
// the 431 and its message; before, node:http's empty 431 had no CORS header and the browser hid it ("Failed to
// fetch"), which the SDK reads as an unreachable relay.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNodeHandler } from '../../adapters/node/index.js';
import { relayOverFakeService } from '../core/relay/fake-service.js';
import { chromiumAvailable, launchChromium } from '../helpers/chromium.js';
import { serveGame } from '../helpers/game-server.js';
import { loginThenOversizedToken } from '../helpers/oversized-token.js';

describe.runIf(chromiumAvailable())("the relay's raw error answers behind toNodeHandler, read by a page of another origin", () => {
  let relayServer: Server;
  let relayUrl: string;
  let game: Server;
  let gameOrigin: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;

  beforeAll(async () => {
    ({ server: game, origin: gameOrigin } = await serveGame({ '/': ['text/html', '<!doctype html><title>game</title>'] }, (_req, res) => res.writeHead(404).end()));
    // Only the handler, as a game writes it: its clientError listener is added at the first request it serves.
    relayServer = createServer(toNodeHandler(relayOverFakeService({ cors: { origins: [gameOrigin] } }).relay));
    await new Promise<void>((resolve) => relayServer.listen(0, '127.0.0.1', resolve));
    relayUrl = `http://127.0.0.1:${(relayServer.address() as AddressInfo).port}/campaign`;
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    game?.close();
    relayServer?.close();
  });

  it('reads a 431 from the relay, with its code and message', async () => {
    const page = await browser.context.newPage();
    await page.goto(gameOrigin);
    const answers = await loginThenOversizedToken(page, relayUrl);
    expect(answers[0]).toMatchObject({ status: 401 });
    expect(answers[1]).toMatchObject({ status: 431, body: { status: 431, code: 'BAD_REQUEST', message: expect.stringContaining('HPE_HEADER_OVERFLOW') } });
    await page.close();
  });
});
